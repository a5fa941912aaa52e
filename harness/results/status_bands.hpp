#pragma once
/// Status of a row from its efficiency and the band (minimum / target) that applies to it; the
/// bands themselves come from configs/thresholds.json (harness/config/thresholds.hpp). Host-only.
///
///   Critical  efficiency <  minimum
///   Poor      minimum <= efficiency < target
///   Good      efficiency >= target
/// The status never comes from the speed ratio.

#include "harness/common/enum_names.hpp"

#include <array>
#include <string>
#include <string_view>

namespace kbench {

enum class Band { critical, poor, good };

template <>
struct EnumNames<Band> {
  static constexpr std::array<EnumName<Band>, 3> table{{{Band::critical, "critical"}, {Band::poor, "poor"}, {Band::good, "good"}}};
};

struct EfficiencyBand {
  double minimum = 0;  ///< fraction of theoretical peak bandwidth
  double target = 0;
};

Band classify(double efficiency, EfficiencyBand band);

/// "critical", "poor", "good".
constexpr std::string_view band_name(Band band) { return enum_name(band); }

std::string_view band_label(Band band);  ///< "❌ Critical", "🔴 Poor", "✅ Good"

}  // namespace kbench
