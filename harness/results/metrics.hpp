#pragma once
/// Derived figures (bandwidth, efficiency, FLOP/s, roof fraction, speed ratio, band), computed
/// in this one place from what the ops declared and what was measured. Host-only.

#include "harness/device/device_info.hpp"
#include "harness/results/results.hpp"
#include "harness/results/status_bands.hpp"

#include <functional>
#include <string>
#include <vector>

namespace kbench {

/// Bytes per second over the median time, and the other per-row figures that need no other row.
void derive_row_metrics(CaseResult& row, const DeviceInfo& device, const EfficiencyBand& band);

/// Speed ratios against the problem's baseline row and fractions of its copy-roof row. `rows`
/// are the rows of one op x shape x dtype; rows not timed keep these unset.
void derive_relative_metrics(std::vector<CaseResult*>& rows);

/// Band policy: which efficiency band applies to a row.
using BandPolicy = std::function<EfficiencyBand(const CaseResult&)>;

/// Derives every figure for every row of `results`, grouping rows by op, shape and dtype.
void derive_metrics(RunResults& results, const BandPolicy& policy);

}  // namespace kbench
