#include "harness/measure_settings.hpp"
#include "support/catch.hpp"

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
