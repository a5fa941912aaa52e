#include "harness/judge/primary_issue.hpp"
#include "support/catch.hpp"

using namespace kbench;

namespace {
ModeTiming timing(MeasureMode mode, double median_ms, bool l2_resident = false) {
  ModeTiming t;
  t.mode = mode;
  t.stats.count = 20;
  t.stats.median = median_ms;
  t.l2_resident = l2_resident;
  return t;
}

CaseResult timed(double median_ms, std::optional<double> roof_fraction) {
  CaseResult row;
  row.status = CaseStatus::passed;
  row.timings.push_back(timing(MeasureMode::cold, median_ms));
  row.roof_fraction = roof_fraction;
  row.bound = Bound::memory;
  return row;
}

KernelBreakdown one_kernel(int blocks, double ms) {
  KernelBreakdown b;
  b.calls_traced = 3;
  b.kernels_per_call = 1;
  b.gpu_ms_per_call = ms;
  b.activities.push_back({"add_kernel", 1, {blocks, 1, 1}, {256, 1, 1}, ms});
  return b;
}
}  // namespace

TEST_CASE("primary issue: rows not timed give their status", "[primary_issue]") {
  CaseResult bad = timed(0.2, 0.99);
  bad.status = CaseStatus::incorrect;
  CHECK(primary_issue(bad) == "incorrect");
  bad.status = CaseStatus::error;
  CHECK(primary_issue(bad) == "error");
  bad.status = CaseStatus::skipped;
  CHECK(primary_issue(bad) == "skipped");
}

TEST_CASE("primary issue: the memory roof, with and without a roof row", "[primary_issue]") {
  CHECK(primary_issue(timed(0.2, 0.97)) == "at memory roof");
  CHECK(primary_issue(timed(0.2, 0.95)) == "at memory roof");
  CHECK(primary_issue(timed(0.2, 0.80)) == "memory bound: 80% of roof");
  CHECK(primary_issue(timed(0.2, std::nullopt)) == "memory bound (no roof row)");
}

TEST_CASE("primary issue: several kernels per call is unfused, traced count first", "[primary_issue]") {
  CaseResult manual = timed(0.5, 0.10);
  manual.kernels_per_call = 8;
  CHECK(primary_issue(manual) == "unfused: 8 kernels per call");
  std::vector<TracedActivity> chain;
  for (const char* step : {"max", "subtract", "exp", "sum", "divide"}) chain.push_back({step, {4096, 1, 1}, {256, 1, 1}, 0.08});
  manual.breakdown = summarize_activities(chain, 1);
  CHECK(primary_issue(manual) == "unfused: 5 kernels per call");
  manual.breakdown = one_kernel(4096, 0.4);
  manual.breakdown->kernels_per_call = 1;  // the trace saw one kernel: the declaration is not used
  CHECK(primary_issue(manual) == "memory bound: 10% of roof");

  // A two-stage reduction: the final one-block pass takes 3% of the GPU time.
  CaseResult two_stage = timed(0.1, 0.94);
  two_stage.breakdown = summarize_activities(
      {{"partial_sums", {1056, 1, 1}, {256, 1, 1}, 0.097}, {"final_sum", {1, 1, 1}, {256, 1, 1}, 0.003}}, 1);
  CHECK(primary_issue(two_stage) == "memory bound: 94% of roof");
  two_stage.breakdown = summarize_activities(
      {{"step_a", {1056, 1, 1}, {256, 1, 1}, 0.05}, {"step_b", {1056, 1, 1}, {256, 1, 1}, 0.05}}, 1);
  CHECK(primary_issue(two_stage) == "unfused: 2 kernels per call");
}

TEST_CASE("primary issue: launch overhead from eager against hot, latency without them", "[primary_issue]") {
  CaseResult small = timed(0.0048, 1.0);
  small.timings.push_back(timing(MeasureMode::hot, 0.0012, true));
  small.timings.push_back(timing(MeasureMode::eager, 0.0042));
  CHECK(primary_issue(small) == "launch overhead: eager 4.20 µs vs hot 1.20 µs");
  CaseResult large = timed(0.27, 0.96);
  large.timings.push_back(timing(MeasureMode::hot, 0.28));
  large.timings.push_back(timing(MeasureMode::eager, 0.29));
  CHECK(primary_issue(large) == "at memory roof");
  CHECK(primary_issue(timed(0.004, 0.99)) == "launch latency");  // cold only: the 10 µs rule
}

TEST_CASE("primary issue: an under-filled grid needs the breakdown and the SM count", "[primary_issue]") {
  CaseResult row = timed(0.05, 0.40);
  row.breakdown = one_kernel(64, 0.05);
  CHECK(primary_issue(row, 132) == "under-filled grid: 64 blocks for 132 SMs");
  CHECK(primary_issue(row) == "memory bound: 40% of roof");  // SM count unknown
  row.breakdown = one_kernel(1024, 0.05);
  CHECK(primary_issue(row, 132) == "memory bound: 40% of roof");
}

TEST_CASE("primary issue: compute bound with its share of peak, L2-resident hot headlines", "[primary_issue]") {
  CaseResult matmul = timed(2.0, 0.01);
  matmul.bound = Bound::compute;
  matmul.compute_efficiency = 0.571;
  CHECK(primary_issue(matmul) == "compute bound: 57% of peak FLOP/s");
  CaseResult hot_only;
  hot_only.status = CaseStatus::passed;
  hot_only.bound = Bound::memory;
  hot_only.timings.push_back(timing(MeasureMode::hot, 0.02, true));
  hot_only.roof_fraction = 0.99;
  CHECK(primary_issue(hot_only) == "L2-resident");
}
