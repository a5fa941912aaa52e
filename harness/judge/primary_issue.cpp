#include "harness/judge/primary_issue.hpp"

#include "harness/report/report_format.hpp"
#include "harness/results/result_queries.hpp"

#include <fmt/format.h>

#include <cmath>

namespace kbench {

namespace {

/// True when the trace shows one activity taking nearly all of a call's GPU time: the other
/// kernels (a two-stage reduction's final pass, say) are not what limits the row.
bool dominated_by_one_activity(const CaseResult& row) {
  if (!row.breakdown || !(row.breakdown->gpu_ms_per_call > 0)) return false;
  const KernelActivity* main = row.breakdown->dominant();
  return main != nullptr && main->mean_ms * main->launches_per_call >= kDominantShare * row.breakdown->gpu_ms_per_call;
}

}  // namespace

std::string primary_issue(const CaseResult& row, int sm_count) {
  if (row.status != CaseStatus::passed) return std::string(status_name(row.status));
  const double median = headline_ms(row);
  if (median <= 0) return "not timed";

  const long kernels = row.breakdown ? std::lround(row.breakdown->kernels_per_call) : row.kernels_per_call;
  if (kernels > 1 && !dominated_by_one_activity(row)) return fmt::format("unfused: {} kernels per call", kernels);

  const ModeTiming* hot = row.timing(MeasureMode::hot);
  const ModeTiming* eager = row.timing(MeasureMode::eager);
  if (hot != nullptr && eager != nullptr && hot->stats.median > 0) {
    if (eager->stats.median >= kLaunchOverheadRatio * hot->stats.median) {
      return fmt::format("launch overhead: eager {} vs hot {}", format_ms(eager->stats.median),
                         format_ms(hot->stats.median));
    }
  } else if (median < kLaunchLatencyMs) {
    return "launch latency";
  }

  if (const KernelActivity* main = row.breakdown ? row.breakdown->dominant() : nullptr;
      main != nullptr && main->is_kernel() && sm_count > 0 && main->blocks() < sm_count) {
    return fmt::format("under-filled grid: {} blocks for {} SMs", main->blocks(), sm_count);
  }
  if (row.bound == Bound::compute) return fmt::format("compute bound: {:.0f}% of peak FLOP/s", 100 * row.compute_efficiency);

  const ModeTiming* headline = row.headline();
  if (headline != nullptr && headline->mode == MeasureMode::hot && headline->l2_resident) return "L2-resident";
  if (!row.roof_fraction) return "memory bound (no roof row)";
  if (*row.roof_fraction >= kAtRoofFraction) return "at memory roof";
  return fmt::format("memory bound: {:.0f}% of roof", 100 * *row.roof_fraction);
}

}  // namespace kbench
