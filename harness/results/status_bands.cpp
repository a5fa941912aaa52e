#include "harness/results/status_bands.hpp"

namespace kbench {

Band classify(double efficiency, EfficiencyBand band) {
  if (efficiency < band.minimum) return Band::critical;
  if (efficiency < band.target) return Band::poor;
  return Band::good;
}

std::string_view band_label(Band band) {
  switch (band) {
    case Band::critical: return "❌ Critical";
    case Band::poor: return "🔴 Poor";
    case Band::good: return "✅ Good";
  }
  return "?";
}

}  // namespace kbench
