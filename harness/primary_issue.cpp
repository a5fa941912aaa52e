#include "harness/primary_issue.hpp"

#include "harness/result_queries.hpp"

namespace kbench {

std::string primary_issue(const CaseResult& row) {
  if (row.status != CaseStatus::passed) return std::string(status_name(row.status));
  const double median = headline_ms(row);
  if (median <= 0) return "not timed";
  if (median < kLaunchLatencyMs) return "launch latency";
  if (row.bound == "compute") return "compute bound";
  if (!row.roof_fraction) return "no roof row";
  return *row.roof_fraction >= kAtRoofFraction ? "at memory roof" : "below memory roof";
}

}  // namespace kbench
