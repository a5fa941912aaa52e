#pragma once
/// The "Primary issue" column of the report: a first guess, from what a results row holds, at
/// what limits it (README.md: Primary issue). One function, so that a profiler-based diagnosis
/// can replace it later. Host-only.

#include "harness/results.hpp"

#include <string>

namespace kbench {

/// Headline medians below this are dominated by launch latency.
constexpr double kLaunchLatencyMs = 0.010;
/// Rows at or above this fraction of the copy roof are at the memory roof.
constexpr double kAtRoofFraction = 0.95;

/// "incorrect", "error" or "skipped" for rows not timed; otherwise "launch latency" (median
/// below 10 µs), "compute bound" (the op's FLOP floor exceeds its byte floor, so efficiency is
/// against the compute peak), "at memory roof" (>= 95 % of the d2d copy's bandwidth), "below
/// memory roof" (under it), or "no roof row" when no copy roof was timed.
std::string primary_issue(const CaseResult& row);

}  // namespace kbench
