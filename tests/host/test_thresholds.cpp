#include "harness/common/json_input.hpp"
#include "harness/ops/registry.hpp"
#include "harness/config/sweep_config.hpp"
#include "harness/config/thresholds.hpp"
#include "support/catch.hpp"
#include "support/test_paths.hpp"

using namespace kbench;
using nlohmann::json;

namespace {

const char* const kThresholds = R"({
  "default": {"min_efficiency_pct": 25, "target_efficiency_pct": 50},
  "size_classes": {"small": {"min_efficiency_pct": 15, "target_efficiency_pct": 25}},
  "ops": {"add": {"large": {"min_efficiency_pct": 70, "target_efficiency_pct": 85, "min_speed_ratio": 0.9, "note": "why"}}}
})";

std::string thresholds_error(const std::string& text) {
  try {
    parse_thresholds(json::parse(text), "t.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

CaseResult timed_row(const std::string& op, const std::string& size_class, double efficiency) {
  CaseResult row;
  row.op = op;
  row.size_class = size_class;
  row.status = CaseStatus::passed;
  ModeTiming cold;
  cold.mode = MeasureMode::cold;
  cold.stats.count = 10;
  cold.stats.median = 0.1;
  row.timings.push_back(cold);
  row.efficiency = efficiency;
  return row;
}

}  // namespace

TEST_CASE("thresholds: op x category first, then the category, then the default", "[thresholds]") {
  const Thresholds t = parse_thresholds(json::parse(kThresholds), "t.json");
  CHECK(t.lookup("add", "large").min_efficiency == Approx(0.70));
  CHECK(t.lookup("add", "large").target_efficiency == Approx(0.85));
  CHECK(*t.lookup("add", "large").min_speed_ratio == Approx(0.9));
  CHECK(t.lookup("add", "large").origin == "t.json: $.ops.add.large");
  CHECK(t.lookup("add", "small").min_efficiency == Approx(0.15));   // the category's
  CHECK(t.lookup("sum", "small").target_efficiency == Approx(0.25));
  CHECK(t.lookup("add", "xlarge").min_efficiency == Approx(0.25));  // the default
  CHECK_FALSE(t.lookup("add", "xlarge").min_speed_ratio);
  CHECK(t.lookup("add", "xlarge").origin == "t.json: $.default");
}

TEST_CASE("the status band comes from efficiency alone", "[thresholds]") {
  const Thresholds t = parse_thresholds(json::parse(kThresholds), "t.json");
  CHECK(*t.band_of(timed_row("add", "large", 0.69)) == Band::critical);
  CHECK(*t.band_of(timed_row("add", "large", 0.70)) == Band::poor);
  CHECK(*t.band_of(timed_row("add", "large", 0.85)) == Band::good);
  CaseResult fast_but_inefficient = timed_row("add", "large", 0.5);
  fast_but_inefficient.speed_ratio = 3.0;  // never sets the status
  CHECK(*t.band_of(fast_but_inefficient) == Band::critical);
  CaseResult incorrect = timed_row("add", "large", 0.9);
  incorrect.status = CaseStatus::incorrect;
  CHECK_FALSE(t.band_of(incorrect));
  const BandPolicy policy = t.policy();
  CHECK(policy(timed_row("add", "small", 0)).minimum == Approx(0.15));
}

TEST_CASE("bad thresholds name the file and the JSON path", "[thresholds]") {
  CHECK(contains(thresholds_error("{}"), "t.json: $: missing key 'default'"));
  CHECK(contains(thresholds_error(R"({"defaults": {}})"), "t.json: $: unknown key 'defaults' (did you mean 'default'?)"));
  CHECK(contains(thresholds_error(R"({"default": {"min_efficiency_pct": 25}})"), "t.json: $.default: missing key 'target_efficiency_pct'"));
  CHECK(contains(thresholds_error(R"({"default": {"min_efficiency_pct": 25, "target_efficiency_pct": 150}})"),
                 "t.json: $.default.target_efficiency_pct: found 150; expected a percentage from 0 to 100"));
  CHECK(contains(thresholds_error(R"({"default": {"min_efficiency_pct": "25", "target_efficiency_pct": 50}})"),
                 "$.default.min_efficiency_pct: found \"25\"; expected a percentage from 0 to 100"));
  CHECK(contains(thresholds_error(R"({"default": {"min_efficiency_pct": 60, "target_efficiency_pct": 50}})"),
                 "$.default.target_efficiency_pct: found 50; expected a value >= min_efficiency_pct (60)"));
  CHECK(contains(thresholds_error(R"({"default": {"min_efficiency_pct": 5, "target_efficiency_pct": 50, "min_speedratio": 1}})"),
                 "$.default: unknown key 'min_speedratio' (did you mean 'min_speed_ratio'?)"));
  CHECK(contains(thresholds_error(R"({"default": {"min_efficiency_pct": 5, "target_efficiency_pct": 50, "min_speed_ratio": 0}})"),
                 "$.default.min_speed_ratio: found 0; expected a number > 0"));
  CHECK(contains(thresholds_error(R"({"default": {"min_efficiency_pct": 5, "target_efficiency_pct": 50}, "ops": {"add": {"large": 3}}})"),
                 "t.json: $.ops.add.large: found 3; expected an object"));
}

TEST_CASE("a missing thresholds file says how to point kbench at one", "[thresholds]") {
  try {
    load_thresholds("no/such/thresholds.json");
    FAIL("expected an error");
  } catch (const InputError& e) {
    CHECK(contains(e.what(), "thresholds file 'no/such/thresholds.json' not found; pass --thresholds FILE"));
  }
}

TEST_CASE("the shipped thresholds name only registered ops and cover add's categories", "[thresholds]") {
  const Thresholds t = load_thresholds(test::source_path("configs/thresholds.json"));
  Registry registry;
  register_all_ops(registry);
  for (const auto& [op, categories] : t.ops) {
    INFO(op);
    CHECK(registry.find(op) != nullptr);
  }
  const SweepConfig add = load_sweep_config(test::source_path("configs/add.json"));
  for (const Sweep& sweep : add.sweeps) {
    INFO(sweep.size_class);
    REQUIRE(t.ops.count("add"));
    CHECK(t.ops.at("add").count(sweep.size_class) == 1);
    CHECK(t.lookup("add", sweep.size_class).min_efficiency < t.lookup("add", sweep.size_class).target_efficiency);
  }
  // The seed report's targets stay as the fallback for ops without their own entry.
  CHECK(t.lookup("future_op", "small").min_efficiency == Approx(0.15));
  CHECK(t.lookup("future_op", "batch").target_efficiency == Approx(0.45));
}
