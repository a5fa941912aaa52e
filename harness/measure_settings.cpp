#include "harness/measure_settings.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace kbench {

const std::vector<MeasureSettingRow>& measure_settings_table() {
  static const std::vector<MeasureSettingRow> rows{
      {"warmup_calls", "calls", "untimed calls of each variant before sampling (module load, clocks, caches)",
       &MeasureSettings::warmup_calls, 0},
      {"min_samples", "samples", "timed samples per variant, at least", &MeasureSettings::min_samples, 1},
      {"max_samples", "samples", "timed samples per variant, at most", &MeasureSettings::max_samples, 1},
      {"min_time_s", "s", "keep sampling until this much GPU time has been measured (and min-samples is met)",
       &MeasureSettings::min_time_s, 0},
      {"timeout_s", "s", "wall-clock limit for sampling one variant; fewer samples than min-samples is then flagged",
       &MeasureSettings::timeout_s, 1e-3},
      {"flush_l2", "0|1", "1: evict L2 before every timed sample (read a buffer of 2x L2); 0: keep caches warm",
       &MeasureSettings::flush_l2, 0},
  };
  return rows;
}

std::string option_name(const std::string& key) {
  std::string name = "--" + key;
  std::replace(name.begin(), name.end(), '_', '-');
  return name;
}

std::string validate(const MeasureSettings& settings) {
  for (const MeasureSettingRow& row : measure_settings_table()) {
    const double value = std::visit([&](auto member) { return static_cast<double>(settings.*member); }, row.field);
    if (!(value >= row.min_value)) {
      return fmt::format("{} is {:g}; expected a value >= {:g} ({})", option_name(row.key), value, row.min_value, row.unit);
    }
  }
  if (settings.flush_l2 != 0 && settings.flush_l2 != 1) return "--flush-l2 must be 0 or 1";
  if (settings.max_samples < settings.min_samples) {
    return "--max-samples (" + std::to_string(settings.max_samples) + ") is below --min-samples (" +
           std::to_string(settings.min_samples) + ")";
  }
  return {};
}

}  // namespace kbench
