#include "kernels/matmul/matmul_auto_wgmma_tf32.hpp"

#include "kernels/matmul/matmul_auto_plan.hpp"
#include "kernels/matmul/matmul_kernels.hpp"

#include <algorithm>
#include <cstdint>

namespace kbench::matmul {

namespace {

/// Constants (µs, bytes per µs), H100. No TF32 wgmma run exists yet: the kernel's step and fixed
/// times are the fp16 wgmma_tma kernel's, fitted on its 2026-11-24 cold medians (4096³ 206.0 µs = 4
/// items × 64 steps; 2048³ 35.1 = 1 × 32; each less C written at 2.5 TB/s): 0.72 µs per 48 KB step
/// and 8.7 µs fixed. A TF32 step moves the same 48 KB and does half the multiply-adds at half the
/// tensor rate, so it takes the same time if the tensor cores bound both. The transpose is
/// taken at 2.5 TB/s for its read and write together (not measured).
constexpr double kStepUs = 0.72;
constexpr double kFixedUs = 8.7;
constexpr double kTransposeLaunchUs = 2.0;
constexpr double kCopyBytesPerUs = 2.5e6;
/// As matmul_auto_split.cpp: the reduction's launch and the slices' rate; A and B read once.
constexpr double kReduceLaunchUs = 3.0;
constexpr double kSliceBytesPerUs = 1.2e6;
constexpr double kOperandBytesPerUs = 2.47e6;

std::int64_t steps_of(Dims dims) { return ceil_div64(dims.k, kWgmmaTf32StepK); }

double c_bytes(Dims dims) { return static_cast<double>(dims.m) * dims.n * sizeof(float); }

}  // namespace

double wgmma_tf32_estimate_us(Dims dims, int splits, int sm_count) {
  const double b_bytes = static_cast<double>(dims.k) * dims.n * sizeof(float);
  const double transpose = kTransposeLaunchUs + 2.0 * b_bytes / kCopyBytesPerUs;
  const std::int64_t tiles = ceil_div64(dims.m, kWgmmaTf32TileM) * ceil_div64(dims.n, kWgmmaTf32TileN);
  const std::int64_t busiest = ceil_div64(tiles * splits, std::max(sm_count, 1));
  const double compute = static_cast<double>(busiest) * static_cast<double>(ceil_div64(steps_of(dims), splits)) * kStepUs;
  const double operands = (static_cast<double>(dims.m) * dims.k + b_bytes / sizeof(float)) * sizeof(float);
  double estimate = transpose + kFixedUs + std::max(compute, operands / kOperandBytesPerUs);
  if (splits == 1) return estimate + c_bytes(dims) / kCopyBytesPerUs;
  return estimate + kReduceLaunchUs + (2.0 * splits + 1.0) * c_bytes(dims) / kSliceBytesPerUs;
}

double wgmma_tf32_pad_a_us(Dims dims) {
  const double a_bytes = static_cast<double>(dims.m) * dims.k * sizeof(float);
  const double padded_bytes = static_cast<double>(dims.m) * wgmma_tf32_dims(dims).k * sizeof(float);
  return kReduceLaunchUs + (a_bytes + padded_bytes) / kCopyBytesPerUs;
}

int wgmma_tf32_best_splits(Dims dims, int sm_count) {
  const std::int64_t steps = steps_of(dims);
  std::int64_t most = std::min<std::int64_t>(kMaxSplitK, steps / kWgmmaTf32MinStepsPerSplit);
  most = std::min<std::int64_t>(most, static_cast<std::int64_t>(static_cast<double>(kAutoWorkspaceCapBytes) / c_bytes(dims)));
  int best = 1;
  double best_us = wgmma_tf32_estimate_us(dims, 1, sm_count);
  for (int splits = 2; splits <= most; ++splits) {
    const double us = wgmma_tf32_estimate_us(dims, splits, sm_count);
    if (us < best_us) best = splits, best_us = us;
  }
  const std::int64_t per_split = ceil_div64(steps, best);
  return static_cast<int>(ceil_div64(steps, per_split));
}

}  // namespace kbench::matmul
