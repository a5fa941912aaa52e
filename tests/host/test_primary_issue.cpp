#include "harness/primary_issue.hpp"
#include "support/catch.hpp"

using namespace kbench;

namespace {
CaseResult timed(double median_ms, std::optional<double> roof_fraction) {
  CaseResult row;
  row.status = CaseStatus::passed;
  ModeTiming cold;
  cold.mode = "cold";
  cold.stats.count = 20;
  cold.stats.median = median_ms;
  row.timings.push_back(cold);
  row.roof_fraction = roof_fraction;
  return row;
}
}  // namespace

TEST_CASE("primary issue: status first, then latency, then the memory roof", "[primary_issue]") {
  CHECK(primary_issue(timed(0.004, 0.99)) == "launch latency");
  CHECK(primary_issue(timed(0.2, 0.97)) == "at memory roof");
  CHECK(primary_issue(timed(0.2, 0.95)) == "at memory roof");
  CHECK(primary_issue(timed(0.2, 0.80)) == "below memory roof");
  CHECK(primary_issue(timed(0.2, std::nullopt)) == "no roof row");
  CaseResult matmul = timed(2.0, 0.01);
  matmul.bound = "compute";
  CHECK(primary_issue(matmul) == "compute bound");
  CaseResult bad = timed(0.2, 0.99);
  bad.status = CaseStatus::incorrect;
  CHECK(primary_issue(bad) == "incorrect");
  bad.status = CaseStatus::error;
  CHECK(primary_issue(bad) == "error");
  bad.status = CaseStatus::skipped;
  CHECK(primary_issue(bad) == "skipped");
}
