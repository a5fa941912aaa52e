#include "harness/plan/case_cost.hpp"

#include <algorithm>
#include <numeric>

namespace kbench {

namespace {

double nominal_flops(const std::string& math) {
  if (math == "tf32_tensor") return kNominalTf32TensorFlops;
  if (math == "fp16_tensor") return kNominalFp16TensorFlops;
  return kNominalFp32Flops;
}

}  // namespace

double estimated_case_seconds(const PlanEntry& entry, const MeasureSettings& settings) {
  const Traffic traffic = entry.op->traffic(entry.problem);
  const double floor_s = std::max(traffic.bytes_total() / kNominalBandwidth, traffic.flops / nominal_flops(traffic.math));
  const double modes = static_cast<double>(parse_modes(settings.modes).size());
  const double per_mode_s = std::max(settings.min_time_s, settings.min_samples * floor_s);
  const double rows = static_cast<double>(entry.variants.size() + (entry.copy_roof ? 1 : 0));
  return rows * (modes * per_mode_s + kRowOverheadS) + traffic.bytes_total() / kHostBytesPerS;
}

std::vector<std::size_t> largest_first(const Plan& plan, const MeasureSettings& settings) {
  std::vector<double> cost(plan.entries.size());
  for (std::size_t i = 0; i < cost.size(); ++i) cost[i] = estimated_case_seconds(plan.entries[i], settings);
  std::vector<std::size_t> order(cost.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return cost[a] > cost[b]; });
  return order;
}

}  // namespace kbench
