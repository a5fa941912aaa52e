#pragma once
/// How each case is sampled. One table of rows (measure_settings_table) drives the CLI options,
/// their --help text, the "settings" block of results files and the "settings" section of sweep
/// configs. Host-only.

#include "harness/config/measure_mode.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <variant>
#include <vector>

namespace kbench {

struct MeasureSettings {
  std::string modes = "all";    ///< "cold", "hot", "eager", comma-separated, or "all"
  int warmup_calls = 10;        ///< untimed calls before sampling, at least
  double warmup_time_s = 0.01;  ///< and for at least this long
  int min_samples = 20;         ///< timed samples at least
  int max_samples = 2000;       ///< timed samples at most
  double min_time_s = 0.05;     ///< GPU time to measure at least (with min_samples met)
  double max_noise = 0.02;      ///< stop early once the relative IQR is at or below this (0: never)
  double timeout_s = 10.0;      ///< wall-clock limit for sampling one variant in one mode
  int flush_l2 = 1;             ///< cold mode: 1 evicts L2 before every sample
  double clock_floor = 0.75;    ///< flag samples taken below this fraction of the peak SM clock
  int keep_samples = 2;         ///< per-sample times in the results file: 0 none, 1 every mode, 2 the headline mode's
  int counters = 0;             ///< 1: collect hardware counters of each row in one more pass (CUPTI)
};

/// Whether a timing of `mode` keeps its samples under `keep_samples` (0, 1 or 2) when the row's
/// headline mode is `headline`.
bool keeps_samples(int keep_samples, MeasureMode mode, MeasureMode headline);

/// The mode a row's headline comes from when every mode of `modes` is measured: cold when
/// planned, else the first (CaseResult::headline()).
MeasureMode planned_headline_mode(const std::vector<MeasureMode>& modes);

using MeasureSettingField =
    std::variant<int MeasureSettings::*, double MeasureSettings::*, std::string MeasureSettings::*>;

/// One row of the settings table: the CLI option is "--" + key with '_' turned into '-'.
struct MeasureSettingRow {
  std::string key;          ///< JSON key, e.g. "min_samples"
  std::string unit;         ///< "calls", "samples", "s", "0|1", ...
  std::string description;  ///< for --help
  MeasureSettingField field;
  double min_value;         ///< smallest accepted value (numbers only)
  double max_value;         ///< largest accepted value (numbers only): beyond it a run would never end
  bool flag = false;        ///< a 0|1 switch the command line sets as a bare flag (--counters)
  bool may_be_absent = false;  ///< results files from before this setting leave it out: its default applies
};

const std::vector<MeasureSettingRow>& measure_settings_table();

/// The row called `key`, or nullptr.
const MeasureSettingRow* find_measure_setting(const std::string& key);

/// Empty when the settings are consistent, otherwise a message naming the offending option.
std::string validate(const MeasureSettings& settings);

/// The CLI option name for a row key: "min_samples" -> "--min-samples".
std::string option_name(const std::string& key);

/// Whether results files and reports list the row: always, except a `may_be_absent` row at its
/// default, which is left out so that files from before it read and write back unchanged.
bool listed_in_results(const MeasureSettings& settings, const MeasureSettingRow& row);

/// The row's value as JSON (number or string).
nlohmann::json setting_to_json(const MeasureSettings& settings, const MeasureSettingRow& row);

/// Sets the row's field from JSON. Returns an error ("expected an integer", ...) or empty.
std::string setting_from_json(MeasureSettings& settings, const MeasureSettingRow& row, const nlohmann::json& value);

/// The modes `settings.modes` names, in measurement order (cold, hot, eager), or throws
/// std::invalid_argument naming the bad item. Parsed once per run, never per row.
std::vector<MeasureMode> parse_modes(const std::string& modes);

}  // namespace kbench
