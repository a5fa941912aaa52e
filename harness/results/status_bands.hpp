#pragma once
/// Status of a row from its efficiency and the band (minimum / target) that applies to it; the
/// bands themselves come from configs/thresholds.json (harness/config/thresholds.hpp). Host-only.
///
///   Critical  efficiency <  minimum
///   Poor      minimum <= efficiency < target
///   Good      efficiency >= target
/// The status never comes from the speed ratio.

#include <string>
#include <string_view>

namespace kbench {

enum class Band { critical, poor, good };

struct EfficiencyBand {
  double minimum = 0;  ///< fraction of theoretical peak bandwidth
  double target = 0;
};

Band classify(double efficiency, EfficiencyBand band);

std::string_view band_name(Band band);   ///< "critical", "poor", "good"
std::string_view band_label(Band band);  ///< "❌ Critical", "🔴 Poor", "✅ Good"

}  // namespace kbench
