#include "harness/report/breakdown_report.hpp"
#include "harness/common/input_error.hpp"
#include "harness/results/kernel_breakdown.hpp"
#include "harness/results/kernel_breakdown_json.hpp"
#include "harness/results/results_json.hpp"
#include "support/catch.hpp"

#include <sstream>

using namespace kbench;

TEST_CASE("CUPTI records group per kernel and launch shape, per call", "[breakdown]") {
  // Three calls of a two-kernel chain; the second kernel ran with two grid sizes.
  std::vector<TracedActivity> records;
  for (int call = 0; call < 3; ++call) {
    records.push_back({"max_kernel", {128, 1, 1}, {256, 1, 1}, 0.010});
    records.push_back({"exp_kernel", {64, 1, 1}, {256, 1, 1}, 0.020 + 0.002 * call});
    if (call == 2) records.push_back({"exp_kernel", {32, 1, 1}, {256, 1, 1}, 0.004});
  }
  records.push_back({"[memcpy]", {}, {}, 0.003});
  const KernelBreakdown b = summarize_activities(records, 3);
  CHECK(b.calls_traced == 3);
  CHECK(b.kernels_per_call == Approx(7.0 / 3));
  CHECK(b.gpu_ms_per_call == Approx((0.030 + 0.066 + 0.004 + 0.003) / 3));
  REQUIRE(b.activities.size() == 4);
  CHECK(b.activities[0].name == "max_kernel");
  CHECK(b.activities[0].launches_per_call == Approx(1));
  CHECK(b.activities[1].mean_ms == Approx(0.022));
  CHECK(b.activities[2].grid[0] == 32);
  CHECK(b.activities[2].launches_per_call == Approx(1.0 / 3));
  CHECK_FALSE(b.activities[3].is_kernel());
  REQUIRE(b.dominant() != nullptr);
  CHECK(b.dominant()->name == "exp_kernel");
  CHECK(b.dominant()->blocks() == 64);
}

TEST_CASE("a kernel breakdown survives the results JSON round trip; bad fields are named", "[breakdown]") {
  KernelBreakdown b = summarize_activities({{"k", {2, 3, 1}, {32, 4, 1}, 0.5}}, 1);
  const nlohmann::json j = breakdown_to_json(b);
  const std::optional<KernelBreakdown> back = breakdown_from_json(j, "$.x");
  REQUIRE(back);
  CHECK(back->kernels_per_call == Approx(1));
  CHECK(back->activities.at(0).grid == std::array<int, 3>{2, 3, 1});
  CHECK(back->activities.at(0).block == std::array<int, 3>{32, 4, 1});
  CHECK_FALSE(breakdown_from_json(nullptr, "$.x"));

  nlohmann::json bad = j;
  bad["activities"][0]["mean_ms"] = -1;
  CHECK_THROWS_AS(breakdown_from_json(bad, "$.cases[0].kernel_breakdown"), InputError);
  try {
    breakdown_from_json(bad, "$.cases[0].kernel_breakdown");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).find("$.cases[0].kernel_breakdown.activities[0].mean_ms") != std::string::npos);
  }
  bad = j;
  bad["activities"][0]["grid"] = {1, 2};
  CHECK_THROWS_AS(breakdown_from_json(bad, "$.k"), InputError);
}

TEST_CASE("the breakdown table lists each traced row's kernels with the gap to the hot time", "[breakdown]") {
  RunResults results;
  CaseResult row;
  row.op = "gelu_tanh";
  row.variant = "manual";
  row.dtype = "fp32";
  row.shape = {4096, 4096};
  row.status = CaseStatus::passed;
  ModeTiming hot;
  hot.mode = MeasureMode::hot;
  hot.stats.median = 0.500;
  row.timings.push_back(hot);
  row.breakdown = summarize_activities({{"gelu_step_mul", {1024, 1, 1}, {256, 1, 1}, 0.060},
                                        {"gelu_step_tanh", {1024, 1, 1}, {256, 1, 1}, 0.062}},
                                       1);
  results.cases.push_back(row);
  CaseResult untraced = row;
  untraced.variant = "fused";
  untraced.breakdown.reset();
  results.cases.push_back(untraced);

  std::ostringstream out;
  print_kernel_breakdowns(out, results, "HEADING\n");
  const std::string text = out.str();
  CHECK(text.find("HEADING") != std::string::npos);
  CHECK(text.find("gelu_step_tanh") != std::string::npos);
  CHECK(text.find("1024 x 256") != std::string::npos);
  CHECK(text.find("378.00 µs") != std::string::npos);  // gap: 500 - 122 µs
  CHECK(text.find("fused") == std::string::npos);      // untraced rows are not listed

  std::ostringstream none;
  results.cases.erase(results.cases.begin());
  print_kernel_breakdowns(none, results, "HEADING\n");
  CHECK(none.str().empty());
}
