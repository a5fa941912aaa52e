#pragma once
/// How each case is sampled. One table of rows (measure_settings_table) drives the CLI options,
/// their --help text and the keys of the "settings" block in results files. Host-only.

#include <string>
#include <variant>
#include <vector>

namespace kbench {

struct MeasureSettings {
  int warmup_calls = 10;        ///< untimed calls before sampling
  int min_samples = 30;         ///< timed samples at least
  int max_samples = 2000;       ///< timed samples at most
  double min_time_s = 0.05;     ///< stop sampling once this much GPU time is measured (and min_samples met)
  double timeout_s = 10.0;      ///< wall-clock limit for sampling one variant
  int flush_l2 = 1;             ///< 1: evict L2 before every sample (cold caches); 0: do not
};

/// One row of the settings table: the CLI option is "--" + key with '_' turned into '-'.
struct MeasureSettingRow {
  std::string key;          ///< JSON key, e.g. "min_samples"
  std::string unit;         ///< "calls", "samples", "s", "0|1"
  std::string description;  ///< for --help
  std::variant<int MeasureSettings::*, double MeasureSettings::*> field;
  double min_value;         ///< smallest accepted value
};

const std::vector<MeasureSettingRow>& measure_settings_table();

/// Empty when the settings are consistent, otherwise a message naming the offending option.
std::string validate(const MeasureSettings& settings);

/// The CLI option name for a row key: "min_samples" -> "--min-samples".
std::string option_name(const std::string& key);

}  // namespace kbench
