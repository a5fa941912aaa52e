#include "harness/config/measure_settings.hpp"

#include "harness/common/split_list.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>

namespace kbench {

const std::vector<MeasureSettingRow>& measure_settings_table() {
  static const std::vector<MeasureSettingRow> rows{
      {"modes", "cold|hot|eager|all",
       "measurement modes, comma-separated: cold (L2 flushed, one call per event pair, behind a blocking kernel), "
       "hot (CUDA-graph replay of back-to-back calls), eager (one event pair per call, as a framework runs it)",
       &MeasureSettings::modes, 0, 0},
      {"warmup_calls", "calls",
       "untimed calls of each variant before sampling, at least; a call of 5 ms or more (timed on the first "
       "warm-up call) warms up by --warmup-time-s alone, one call at least",
       &MeasureSettings::warmup_calls, 0, 1e6},
      {"warmup_time_s", "s", "and keep warming up for at least this long", &MeasureSettings::warmup_time_s, 0, 3600},
      {"min_samples", "samples",
       "timed samples per variant and mode, at least; a call of 5 ms or more needs at most 5 (and batches of "
       "samples last about 0.25 s, so long calls never stall a sweep)",
       &MeasureSettings::min_samples, 1, 1e7},
      {"max_samples", "samples", "timed samples per variant and mode, at most", &MeasureSettings::max_samples, 1, 1e7},
      {"min_time_s", "s", "measure at least this much GPU time per variant and mode (once min-samples is met)",
       &MeasureSettings::min_time_s, 0, 3600},
      {"max_noise", "fraction",
       "stop early once the relative IQR (q3 - q1) / median is at or below this (0: never stop early)",
       &MeasureSettings::max_noise, 0, 1e3},
      {"timeout_s", "s", "wall-clock limit per variant and mode; fewer samples than min-samples is then flagged",
       &MeasureSettings::timeout_s, 1e-3, 86400},
      {"flush_l2", "0|1", "cold mode: 1 evicts L2 before every sample (reads a buffer of 2x L2); 0 keeps it warm",
       &MeasureSettings::flush_l2, 0, 1},
      {"clock_floor", "fraction", "flag samples taken while the SM clock ran below this fraction of its peak",
       &MeasureSettings::clock_floor, 0, 1},
      {"keep_samples", "0|1|2",
       "per-sample times kept in the results file (the gate and compare test them): 0 none, 1 every mode's, 2 the "
       "headline mode's only",
       &MeasureSettings::keep_samples, 0, 2},
      {"counters", "0|1",
       "after timing, profile one more call of each row with CUPTI's range profiler: DRAM bytes, warps active, L2 hit "
       "rate, sectors per request, bank conflicts, atomics, issue and tensor-pipe use, per kernel; never inside a "
       "timed window (as a flag: --counters)",
       &MeasureSettings::counters, 0, 1, true, true},
  };
  return rows;
}

bool keeps_samples(int keep_samples, MeasureMode mode, MeasureMode headline) {
  return keep_samples == 1 || (keep_samples == 2 && mode == headline);
}

MeasureMode planned_headline_mode(const std::vector<MeasureMode>& modes) {
  if (modes.empty() || std::find(modes.begin(), modes.end(), MeasureMode::cold) != modes.end()) return MeasureMode::cold;
  return modes.front();
}

const MeasureSettingRow* find_measure_setting(const std::string& key) {
  for (const MeasureSettingRow& row : measure_settings_table())
    if (row.key == key) return &row;
  return nullptr;
}

std::string option_name(const std::string& key) {
  std::string name = "--" + key;
  std::replace(name.begin(), name.end(), '_', '-');
  return name;
}

std::vector<MeasureMode> parse_modes(const std::string& modes) {
  const std::vector<std::string> wanted = split_list(modes);
  if (wanted.empty()) throw std::invalid_argument("--modes is empty; expected " + enum_names_text<MeasureMode>(", ") + " or all");
  if (has_empty_item(modes)) {
    throw std::invalid_argument("--modes is '" + modes + "', with an empty item; expected modes separated by single commas");
  }
  for (const std::string& mode : wanted) {
    if (mode != "all" && !enum_from_name<MeasureMode>(mode))
      throw std::invalid_argument("--modes: unknown mode '" + mode + "'; valid: " + enum_names_text<MeasureMode>(", ") + ", all");
  }
  const bool all = std::find(wanted.begin(), wanted.end(), "all") != wanted.end();
  std::vector<MeasureMode> chosen;
  for (const EnumName<MeasureMode>& mode : EnumNames<MeasureMode>::table) {
    if (all || std::find(wanted.begin(), wanted.end(), mode.name) != wanted.end()) chosen.push_back(mode.value);
  }
  return chosen;
}

namespace {
/// The row's value as a number, or nothing for string rows.
std::optional<double> numeric_value(const MeasureSettings& settings, const MeasureSettingRow& row) {
  return std::visit(
      [&](auto member) -> std::optional<double> {
        using Field = std::decay_t<decltype(settings.*member)>;
        if constexpr (std::is_same_v<Field, std::string>) {
          return std::nullopt;
        } else {
          return static_cast<double>(settings.*member);
        }
      },
      row.field);
}
}  // namespace

std::string validate(const MeasureSettings& settings) {
  for (const MeasureSettingRow& row : measure_settings_table()) {
    const std::optional<double> value = numeric_value(settings, row);
    if (value && !(*value >= row.min_value)) {
      return fmt::format("{} is {:g}; expected a value >= {:g} ({})", option_name(row.key), *value, row.min_value, row.unit);
    }
    if (value && !std::isfinite(*value)) {
      return fmt::format("{} is {:g}; expected a finite value ({})", option_name(row.key), *value, row.unit);
    }
    // (0|1 switches and fractions, whose largest is 1, are worded on their own below)
    if (value && *value > row.max_value && row.max_value > 1) {
      return fmt::format("{} is {:g}; expected a value <= {:g} ({})", option_name(row.key), *value, row.max_value, row.unit);
    }
  }
  if (settings.flush_l2 != 0 && settings.flush_l2 != 1) return "--flush-l2 must be 0 or 1";
  if (settings.keep_samples < 0 || settings.keep_samples > 2) return "--keep-samples must be 0, 1 or 2";
  if (settings.counters != 0 && settings.counters != 1) return "counters must be 0 or 1 (--counters is a flag: give it once)";
  if (settings.clock_floor > 1) return fmt::format("--clock-floor is {:g}; expected a fraction in [0, 1]", settings.clock_floor);
  if (settings.max_samples < settings.min_samples) {
    return fmt::format("--max-samples ({}) is below --min-samples ({})", settings.max_samples, settings.min_samples);
  }
  try {
    parse_modes(settings.modes);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return {};
}

bool listed_in_results(const MeasureSettings& settings, const MeasureSettingRow& row) {
  return !row.may_be_absent || setting_to_json(settings, row) != setting_to_json(MeasureSettings{}, row);
}

nlohmann::json setting_to_json(const MeasureSettings& settings, const MeasureSettingRow& row) {
  return std::visit([&](auto member) { return nlohmann::json(settings.*member); }, row.field);
}

std::string setting_from_json(MeasureSettings& settings, const MeasureSettingRow& row, const nlohmann::json& value) {
  return std::visit(
      [&](auto member) -> std::string {
        using Field = std::decay_t<decltype(settings.*member)>;
        if constexpr (std::is_same_v<Field, std::string>) {
          if (!value.is_string()) return std::string("expected a string (") + row.unit + ")";
          settings.*member = value.get<std::string>();
        } else if constexpr (std::is_same_v<Field, int>) {
          if (!value.is_number_integer()) return std::string("expected an integer (") + row.unit + ")";
          // get<int>() would wrap a larger value silently (4294967297 samples would become 1).
          const bool fits = value.is_number_unsigned()
                                ? value.get<std::uint64_t>() <= static_cast<std::uint64_t>(std::numeric_limits<int>::max())
                                : value.get<std::int64_t>() >= std::numeric_limits<int>::min() &&
                                      value.get<std::int64_t>() <= std::numeric_limits<int>::max();
          if (!fits) return fmt::format("expected an integer from {} to {} ({})", std::numeric_limits<int>::min(),
                                        std::numeric_limits<int>::max(), row.unit);
          settings.*member = value.get<int>();
        } else {
          if (!value.is_number()) return std::string("expected a number (") + row.unit + ")";
          settings.*member = value.get<double>();
        }
        return {};
      },
      row.field);
}

}  // namespace kbench
