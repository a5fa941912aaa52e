#include "harness/status_bands.hpp"

namespace kbench {

EfficiencyBand default_band(const std::string& size_class) {
  if (size_class == "small") return {0.15, 0.25};
  if (size_class == "medium") return {0.25, 0.40};
  if (size_class == "large") return {0.10, 0.30};
  if (size_class == "xlarge") return {0.10, 0.25};
  if (size_class == "batch") return {0.25, 0.45};
  return {0.25, 0.50};
}

Band classify(double efficiency, EfficiencyBand band) {
  if (efficiency < band.minimum) return Band::critical;
  if (efficiency < band.target) return Band::poor;
  return Band::good;
}

std::string_view band_name(Band band) {
  switch (band) {
    case Band::critical: return "critical";
    case Band::poor: return "poor";
    case Band::good: return "good";
  }
  return "unknown";
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
