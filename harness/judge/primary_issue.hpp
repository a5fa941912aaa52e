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

/// Rules on hardware counters (`--counters`), for rows below the memory roof:
/// Global atomic/reduction requests per global load request at or above this: "atomics"...
constexpr double kAtomicsPerLoadRequest = 0.1;
/// ...when they also number at least this many per KiB of the op's minimum bytes (a kernel whose
/// data arrives by bulk copies issues few load requests, and a few atomics per block are no limit).
constexpr double kAtomicRequestsPerKiB = 0.1;
/// Sectors per global request above this (a warp's 4-byte accesses, coalesced, need 4)...
constexpr double kCoalescedSectorsPerRequest = 4.0;
/// ...and L1 global sectors x 32 B at or above this multiple of the op's minimum bytes: "uncoalesced".
/// Both must hold, so that wide (16-byte) coalesced accesses, 16 sectors per request, do not trip it.
constexpr double kExcessSectorBytes = 1.3;
/// Sectors per request a warp's coalesced 16-byte accesses touch: past it the accesses must be
/// "uncoalesced"; at or under it the excess may as well be data read again: "re-read or strided".
constexpr double kWideAccessSectorsPerRequest = 16.0;
/// DRAM bytes per call at or above this multiple of the op's minimum bytes: "extra traffic".
constexpr double kExtraTrafficRatio = 1.3;
/// Shared-memory bank conflicts per shared wavefront at or above this: "shared-memory bank conflicts"...
constexpr double kBankConflictFraction = 0.25;
/// ...when the conflicts' extra wavefronts (one cycle of an SM's shared pipe each) also fill at
/// least this share of the SMs' cycles over the kernel (checked when the SM count and clock are known).
constexpr double kBankConflictCycleShare = 0.10;
/// Warps active below this percentage of the SMs' peak (the longest kernel): "low occupancy".
constexpr double kLowOccupancyPct = 25.0;

/// The first rule that holds:
///  1. the status, for rows not timed ("incorrect", "error", "skipped");
///  2. "unfused: N kernels per call" when one call launches more than one kernel (counted by
///     CUPTI when traced, else as the op declares), unless the trace shows one kernel taking
///     >= 90 % of the call's GPU time (a two-stage reduction's short final pass is no fusion issue);
///  3. "launch overhead: eager X vs hot Y" when the eager median is >= 2x the hot median
///     ("launch latency" when those modes were not both measured and the median is < 10 µs);
///  4. "under-filled grid: B blocks for S SMs" when the kernel taking most of the GPU time has
///     fewer blocks than the device has SMs (needs a breakdown and `sm_count` > 0);
///  5. "compute bound: P% of peak FLOP/s" when the FLOP floor exceeds the byte floor; with
///     counters, "; tensor pipe T% busy" for tensor-core math, else "; issue slots I% busy";
///  6. "L2-resident" when the headline is a hot-mode time whose working set fits in L2;
///  7. "at memory roof" at >= 95 % of the d2d copy's bandwidth;
///  8. with counters (the longest kernel's values, or all kernels' sums where stated):
///     "atomics: R atomic requests per load request" (R >= 0.1 and >= 0.1 requests per KiB of the
///     minimum bytes),
///     "extra traffic: X× the minimum bytes" (all kernels' DRAM bytes >= 1.3x the minimum),
///     "uncoalesced: S sectors per load request (X× the minimum bytes through L1)" (S > 16 and all
///     kernels' L1 sectors x 32 B >= 1.3x the minimum bytes, for loads, then stores),
///     "re-read or strided: X× the minimum bytes through L1 (S sectors per load request)" (the same
///     with 4 < S <= 16: counters cannot tell wide loads of data read twice from strided ones),
///     "shared-memory bank conflicts: P% of shared wavefronts (C% of the SMs' cycles)" (P >= 25 %
///     and, with the SM count and the row's measured SM clock, C >= 10 %),
///     "low occupancy: W% warps active (B blocks for S SMs)" (W < 25 %);
///  9. otherwise "memory bound: P% of roof" ("memory bound (no roof row)" without a copy roof).
std::string primary_issue(const CaseResult& row, int sm_count = 0);

}  // namespace kbench
