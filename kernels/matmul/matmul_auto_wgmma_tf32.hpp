#pragma once
/// The TF32 wgmma kernel's half of matmul's `auto` rule for tf32 on compute capability 9.0: a
/// fixed cost model of the call (the Bᵀ pre-pass, then the persistent kernel, whole K or split),
/// weighed against the mma.sync model of matmul_auto_split.hpp; no timing at run time.
/// kernels/matmul/NOTES.md ("TF32 wgmma") gives the constants' sources and the predictions.
/// Host-only.

#include "kernels/matmul/matmul_problem.hpp"

namespace kbench::matmul {

/// A split of the TF32 wgmma kernel covers at least this many of its 32-deep steps (256 of K).
inline constexpr int kWgmmaTf32MinStepsPerSplit = 8;

/// The model's estimate of one call with `splits` K splits on `sm_count` SMs, in µs: the transpose
/// of B (its launch, B read and Bᵀ written), the kernel's fixed cost (launch, first fill, last
/// epilogue), the busiest SM's work items (one block per SM) × steps per split × the step time,
/// not below A and B read once; then C written, or with splits > 1 the slices written and read
/// back, C written and the reduction's launch.
double wgmma_tf32_estimate_us(Dims dims, int splits, int sm_count);

/// The copy of A into rows of K rounded up to 4 that a plan with K not a multiple of 4 makes
/// first, in µs: its launch, and A read and written.
double wgmma_tf32_pad_a_us(Dims dims);

/// The split count in 1 .. kMaxSplitK with the lowest estimate (the fewest on a tie), within
/// kWgmmaTf32MinStepsPerSplit steps per split and kAutoWorkspaceCapBytes of slices, evened out so
/// that no split is empty.
int wgmma_tf32_best_splits(Dims dims, int sm_count);

}  // namespace kbench::matmul
