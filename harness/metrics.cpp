#include "harness/metrics.hpp"

#include <map>
#include <tuple>

namespace kbench {

void derive_row_metrics(CaseResult& row, const DeviceInfo& device, const EfficiencyBand& band) {
  if (row.status != CaseStatus::passed || row.stats.median <= 0) return;
  const double seconds = row.stats.median * 1e-3;
  const double bytes_per_s = row.traffic.bytes_total() / seconds;
  row.bandwidth_gbps = bytes_per_s / 1e9;
  row.efficiency = device.peak_bandwidth_bytes_per_s > 0 ? bytes_per_s / device.peak_bandwidth_bytes_per_s : 0;
  row.tflops = row.traffic.flops / seconds / 1e12;
  row.band = std::string(band_name(classify(row.efficiency, band)));
}

void derive_relative_metrics(std::vector<CaseResult*>& rows) {
  const CaseResult* baseline = nullptr;
  const CaseResult* roof = nullptr;
  for (const CaseResult* row : rows) {
    if (row->status != CaseStatus::passed) continue;
    if (row->role == "baseline" && !baseline) baseline = row;
    if (row->role == "roof" && !roof) roof = row;
  }
  for (CaseResult* row : rows) {
    if (row->status != CaseStatus::passed || row->stats.median <= 0) continue;
    if (baseline) {
      row->baseline_ms = baseline->stats.median;
      row->speed_ratio = baseline->stats.median / row->stats.median;
    }
    if (roof && roof->bandwidth_gbps > 0) row->roof_fraction = row->bandwidth_gbps / roof->bandwidth_gbps;
  }
}

void derive_metrics(RunResults& results, const BandPolicy& policy) {
  std::map<std::tuple<std::string, Shape, std::string>, std::vector<CaseResult*>> groups;
  for (CaseResult& row : results.cases) {
    derive_row_metrics(row, results.device, policy(row));
    groups[{row.op, row.shape, row.dtype}].push_back(&row);
  }
  for (auto& [key, rows] : groups) derive_relative_metrics(rows);
}

}  // namespace kbench
