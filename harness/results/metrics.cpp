#include "harness/results/metrics.hpp"

#include <algorithm>
#include <map>
#include <tuple>

namespace kbench {

namespace {
/// The headline median in ms, or 0 when the row has no usable timing.
double headline_ms(const CaseResult& row) {
  const ModeTiming* timing = row.headline();
  return row.status == CaseStatus::passed && timing ? timing->stats.median : 0;
}
}  // namespace

void derive_row_metrics(CaseResult& row, const DeviceInfo& device, const EfficiencyBand& band) {
  const double median_ms = headline_ms(row);
  if (median_ms <= 0) return;
  row.headline_mode = row.headline()->mode;
  const ModeTiming* hot = row.timing(MeasureMode::hot);
  const ModeTiming* eager = row.timing(MeasureMode::eager);
  if (hot && eager && hot->stats.count > 0 && eager->stats.count > 0) {
    row.launch_overhead_ms = eager->stats.median - hot->stats.median;
  }
  const double seconds = median_ms * 1e-3;
  const double bytes_per_s = row.traffic.bytes_total() / seconds;
  const double flops_per_s = row.traffic.flops / seconds;
  const double peak_flops = peak_flops_for(device, row.traffic.math);
  row.bandwidth_gbps = bytes_per_s / 1e9;
  row.tflops = flops_per_s / 1e12;
  row.bandwidth_efficiency = device.peak_bandwidth_bytes_per_s > 0 ? bytes_per_s / device.peak_bandwidth_bytes_per_s : 0;
  row.compute_efficiency = peak_flops > 0 ? flops_per_s / peak_flops : 0;
  // Roofline: the case cannot beat the larger of its two floors, so efficiency is measured
  // against that one.
  const double memory_floor_s =
      device.peak_bandwidth_bytes_per_s > 0 ? row.traffic.bytes_total() / device.peak_bandwidth_bytes_per_s : 0;
  const double compute_floor_s = peak_flops > 0 ? row.traffic.flops / peak_flops : 0;
  row.bound = compute_floor_s > memory_floor_s ? Bound::compute : Bound::memory;
  row.efficiency = std::max(memory_floor_s, compute_floor_s) / seconds;
  row.band = classify(row.efficiency, band);
}

void derive_relative_metrics(std::vector<CaseResult*>& rows) {
  const CaseResult* baseline = nullptr;
  const CaseResult* roof = nullptr;
  for (const CaseResult* row : rows) {
    if (headline_ms(*row) <= 0) continue;
    if (row->role == VariantRole::baseline && !baseline) baseline = row;
    if (row->role == VariantRole::roof && !roof) roof = row;
  }
  for (CaseResult* row : rows) {
    const double median_ms = headline_ms(*row);
    if (median_ms <= 0) continue;
    // Ratios compare like with like: the baseline's timing in this row's headline mode.
    const ModeTiming* base = baseline ? baseline->timing(row->headline()->mode) : nullptr;
    if (base && base->stats.median > 0) {
      row->baseline_ms = base->stats.median;
      row->speed_ratio = base->stats.median / median_ms;
    }
    if (roof && roof->bandwidth_gbps > 0) row->roof_fraction = row->bandwidth_gbps / roof->bandwidth_gbps;
  }
}

void derive_metrics(RunResults& results, const BandPolicy& policy) {
  std::map<std::tuple<std::string, Shape, std::string>, std::vector<CaseResult*>> groups;
  for (CaseResult& row : results.cases) {
    derive_row_metrics(row, device_of(results, row), policy(row));
    groups[{row.op, row.shape, row.dtype}].push_back(&row);
  }
  for (auto& [key, rows] : groups) derive_relative_metrics(rows);
}

}  // namespace kbench
