#include "harness/config/measure_settings.hpp"
#include "support/catch.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

using namespace kbench;

TEST_CASE("default measurement settings are valid", "[settings]") { CHECK(validate(MeasureSettings{}).empty()); }

TEST_CASE("out-of-range settings name their option", "[settings]") {
  MeasureSettings s;
  s.min_samples = 0;
  CHECK(contains(validate(s), "--min-samples is 0"));
  s = {};
  s.timeout_s = 0;
  CHECK(contains(validate(s), "--timeout-s"));
  s = {};
  s.warmup_calls = -1;
  CHECK(contains(validate(s), "--warmup-calls"));
  s = {};
  s.flush_l2 = 2;
  CHECK(contains(validate(s), "--flush-l2"));
  s = {};
  s.timeout_s = std::numeric_limits<double>::infinity();
  CHECK(validate(s) == "--timeout-s is inf; expected a finite value (s)");
  s = {};
  s.warmup_time_s = std::nan("");
  CHECK(validate(s) == "--warmup-time-s is nan; expected a value >= 0 (s)");
  s = {};
  s.min_samples = 50;
  s.max_samples = 10;
  CHECK(contains(validate(s), "--max-samples (10) is below --min-samples (50)"));
}

TEST_CASE("every settings row has a unique key and an option name", "[settings]") {
  const auto& rows = measure_settings_table();
  REQUIRE(rows.size() >= 5);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    CHECK(option_name(rows[i].key).rfind("--", 0) == 0);
    CHECK(option_name(rows[i].key).find('_') == std::string::npos);
    for (std::size_t j = i + 1; j < rows.size(); ++j) CHECK(rows[i].key != rows[j].key);
  }
}

TEST_CASE("modes parse in measurement order; unknown ones are named", "[settings]") {
  CHECK(parse_modes("all") == std::vector<MeasureMode>{MeasureMode::cold, MeasureMode::hot, MeasureMode::eager});
  CHECK(parse_modes("eager,cold") == std::vector<MeasureMode>{MeasureMode::cold, MeasureMode::eager});
  std::string error;
  try {
    parse_modes("cold,warm");
  } catch (const std::invalid_argument& e) {
    error = e.what();
  }
  CHECK(error == "--modes: unknown mode 'warm'; valid: cold, hot, eager, all");
  MeasureSettings s;
  s.modes = "tepid";
  CHECK(contains(validate(s), "unknown mode 'tepid'"));
}

TEST_CASE("settings read from JSON check their types", "[settings]") {
  MeasureSettings s;
  const MeasureSettingRow* samples = find_measure_setting("min_samples");
  REQUIRE(samples != nullptr);
  CHECK(setting_from_json(s, *samples, 7).empty());
  CHECK(s.min_samples == 7);
  CHECK(contains(setting_from_json(s, *samples, 2.5), "expected an integer"));
  // Not wrapped to 1: an int cannot hold it.
  CHECK(setting_from_json(s, *samples, 4294967297ll) == "expected an integer from -2147483648 to 2147483647 (samples)");
  CHECK(s.min_samples == 7);
  CHECK(contains(setting_from_json(s, *find_measure_setting("modes"), 3), "expected a string"));
  CHECK(setting_from_json(s, *find_measure_setting("max_noise"), 0.05).empty());
  CHECK(s.max_noise == 0.05);
  CHECK(setting_to_json(s, *find_measure_setting("modes")) == "all");
  CHECK(find_measure_setting("nope") == nullptr);
}
