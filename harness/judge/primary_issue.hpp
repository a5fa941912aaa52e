#pragma once
/// The "Primary issue" column of the reports: what most limits a row, derived from what the
/// results hold (the modes' medians, the CUPTI kernel breakdown, the roofline figures). One
/// function, its rules in order of precedence (README.md: Primary issue). Host-only.

#include "harness/results/results.hpp"

#include <string>

namespace kbench {

/// Eager medians at least this many times the hot median: launch overhead dominates.
constexpr double kLaunchOverheadRatio = 2.0;
/// Without eager and hot timings: headline medians below this are launch-latency bound.
constexpr double kLaunchLatencyMs = 0.010;
/// A traced activity with at least this share of a call's GPU time dominates it.
constexpr double kDominantShare = 0.9;
/// Rows at or above this fraction of the copy roof are at the memory roof.
constexpr double kAtRoofFraction = 0.95;

/// The first rule that holds:
///  1. the status, for rows not timed ("incorrect", "error", "skipped");
///  2. "unfused: N kernels per call" when one call launches more than one kernel (counted by
///     CUPTI when traced, else as the op declares), unless the trace shows one kernel taking
///     >= 90 % of the call's GPU time (a two-stage reduction's short final pass is no fusion issue);
///  3. "launch overhead: eager X vs hot Y" when the eager median is >= 2x the hot median
///     ("launch latency" when those modes were not both measured and the median is < 10 µs);
///  4. "under-filled grid: B blocks for S SMs" when the kernel taking most of the GPU time has
///     fewer blocks than the device has SMs (needs a breakdown and `sm_count` > 0);
///  5. "compute bound: P% of peak FLOP/s" when the FLOP floor exceeds the byte floor;
///  6. "L2-resident" when the headline is a hot-mode time whose working set fits in L2;
///  7. "at memory roof" at >= 95 % of the d2d copy's bandwidth, otherwise
///     "memory bound: P% of roof" ("memory bound (no roof row)" without a copy roof).
std::string primary_issue(const CaseResult& row, int sm_count = 0);

}  // namespace kbench
