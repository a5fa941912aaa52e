#pragma once
/// Status of a row from its efficiency: the seed report's bands. Host-only.
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

/// Default bands per size class (the seed report's targets: small 15/25 %, medium 25/40 %,
/// large 10/30 %, xlarge 10/25 %, batch 25/45 %); other classes get the general 25/50 %.
EfficiencyBand default_band(const std::string& size_class);

Band classify(double efficiency, EfficiencyBand band);

std::string_view band_name(Band band);   ///< "critical", "poor", "good"
std::string_view band_label(Band band);  ///< "❌ Critical", "🔴 Poor", "✅ Good"

}  // namespace kbench
