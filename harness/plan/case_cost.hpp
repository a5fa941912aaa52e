#pragma once
/// An estimate of how long one case (plan entry) takes to run, from its byte and FLOP models and
/// the measurement settings, with nominal peaks: no GPU is queried. It orders work (largest
/// first) and balances shards; it is not a prediction of any device's time. Host-only.

#include "harness/config/measure_settings.hpp"
#include "harness/plan/plan.hpp"

#include <cstddef>
#include <vector>

namespace kbench {

/// Nominal peaks of the estimate (about an H100 SXM's): bytes/s, and FLOP/s per traffic.math.
inline constexpr double kNominalBandwidth = 3.35e12;
inline constexpr double kNominalFp32Flops = 67e12;
inline constexpr double kNominalTf32TensorFlops = 495e12;
inline constexpr double kNominalFp16TensorFlops = 990e12;
/// Fixed cost of one row besides its samples (verification calls, warm-up, tracing), seconds.
inline constexpr double kRowOverheadS = 0.05;
/// Rate of the host's float64 reference and input generation, bytes of the case's traffic per second.
inline constexpr double kHostBytesPerS = 1e9;

/// Estimated seconds of `entry`: per row, each measured mode samples for
/// max(min_time_s, min_samples x floor) where floor = max(bytes / bandwidth, FLOPs / FLOP/s),
/// plus kRowOverheadS; plus the case's bytes at kHostBytesPerS for its reference.
/// Throws std::invalid_argument when settings.modes names no mode.
double estimated_case_seconds(const PlanEntry& entry, const MeasureSettings& settings);

/// The indices of plan.entries, largest estimated cost first (ties: plan order).
std::vector<std::size_t> largest_first(const Plan& plan, const MeasureSettings& settings);

}  // namespace kbench
