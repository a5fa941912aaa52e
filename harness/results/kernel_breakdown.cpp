#include "harness/results/kernel_breakdown.hpp"

#include <algorithm>

namespace kbench {

const KernelActivity* KernelBreakdown::dominant() const {
  const KernelActivity* best = nullptr;
  for (const KernelActivity& a : activities) {
    if (best == nullptr || a.mean_ms * a.launches_per_call > best->mean_ms * best->launches_per_call) best = &a;
  }
  return best;
}

KernelBreakdown summarize_activities(const std::vector<TracedActivity>& records, int calls) {
  KernelBreakdown breakdown;
  breakdown.calls_traced = calls;
  if (calls <= 0) return breakdown;
  std::vector<int> launches;
  int kernel_launches = 0;
  for (const TracedActivity& record : records) {
    auto same = std::find_if(breakdown.activities.begin(), breakdown.activities.end(), [&](const KernelActivity& a) {
      return a.name == record.name && a.grid == record.grid && a.block == record.block;
    });
    if (same == breakdown.activities.end()) {
      breakdown.activities.push_back({record.name, 0, record.grid, record.block, 0});
      launches.push_back(0);
      same = breakdown.activities.end() - 1;
    }
    const std::size_t i = static_cast<std::size_t>(same - breakdown.activities.begin());
    ++launches[i];
    same->mean_ms += record.duration_ms;  // summed here, divided below
    breakdown.gpu_ms_per_call += record.duration_ms / calls;
    if (same->is_kernel()) ++kernel_launches;
  }
  breakdown.kernels_per_call = static_cast<double>(kernel_launches) / calls;
  for (std::size_t i = 0; i < breakdown.activities.size(); ++i) {
    breakdown.activities[i].mean_ms /= launches[i];
    breakdown.activities[i].launches_per_call = static_cast<double>(launches[i]) / calls;
  }
  return breakdown;
}

}  // namespace kbench
