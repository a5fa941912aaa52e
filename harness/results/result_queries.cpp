#include "harness/results/result_queries.hpp"

#include "harness/common/printable_text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace kbench {

double headline_ms(const CaseResult& row) {
  const ModeTiming* timing = row.headline();
  return row.status == CaseStatus::passed && timing && timing->stats.count > 0 ? timing->stats.median : 0;
}

double headline_noise(const CaseResult& row) {
  return headline_ms(row) > 0 ? row.headline()->stats.relative_iqr() : 0;
}

std::string row_label(const CaseResult& row) {
  // Names read from a results file may hold control characters: a label is for display.
  return printable(row.op + " " + row.variant + " " + row.dtype + " " + format_shape(row.shape));
}

bool same_case(const CaseResult& a, const CaseResult& b) {
  return a.op == b.op && a.shape == b.shape && a.dtype == b.dtype;
}

bool same_row(const CaseResult& a, const CaseResult& b) { return same_case(a, b) && a.variant == b.variant; }

std::vector<const CaseResult*> best_own_rows(const RunResults& results) {
  std::vector<const CaseResult*> best;
  for (const CaseResult& row : results.cases) {
    if (row.role != VariantRole::own || headline_ms(row) <= 0) continue;
    bool placed = false;
    for (const CaseResult*& chosen : best) {
      if (!same_case(*chosen, row)) continue;
      if (headline_ms(row) < headline_ms(*chosen)) chosen = &row;
      placed = true;
      break;
    }
    if (!placed) best.push_back(&row);
  }
  return best;
}

bool is_auto(const CaseResult& row) { return row.role == VariantRole::own && row.variant == kAutoVariant; }

std::vector<const CaseResult*> headline_rows(const RunResults& results) {
  std::vector<const CaseResult*> rows = best_own_rows(results);
  for (const CaseResult*& chosen : rows) {
    for (const CaseResult& row : results.cases) {
      if (is_auto(row) && same_case(row, *chosen) && headline_ms(row) > 0) chosen = &row;
    }
  }
  return rows;
}

bool has_auto_rows(const RunResults& results) {
  return std::any_of(results.cases.begin(), results.cases.end(), [](const CaseResult& row) { return is_auto(row); });
}

const CaseResult* against_row(const RunResults& other, const CaseResult& row) {
  const CaseResult* best = nullptr;
  for (const CaseResult& candidate : other.cases) {
    if (candidate.role == VariantRole::roof || !same_case(candidate, row) || headline_ms(candidate) <= 0) continue;
    if (!best || headline_ms(candidate) < headline_ms(*best)) best = &candidate;
  }
  return best;
}

std::string device_mismatch(const RunResults& a, const RunResults& b) {
  if (a.device.name != b.device.name) return fmt::format("devices differ: '{}' and '{}'", a.device.name, b.device.name);
  const double pa = a.device.peak_bandwidth_bytes_per_s, pb = b.device.peak_bandwidth_bytes_per_s;
  if (std::abs(pa - pb) > 1e-6 * std::max(pa, pb)) {
    return fmt::format("peak bandwidths differ: {:.0f} and {:.0f} GB/s", pa / 1e9, pb / 1e9);
  }
  return {};
}

}  // namespace kbench
