#pragma once
/// The fp32 and TF32 half of matmul's `auto` rule: which SIMT or mma.sync kernel, and how many K
/// splits, from a fixed cost model of each kernel (no timing at run time). kernels/matmul/NOTES.md
/// ("fp32 and TF32 split-K") gives the constants' sources and the predictions. Host-only.

#include "kernels/matmul/matmul_auto_plan.hpp"

#include <vector>

namespace kbench::matmul {

/// One kernel the model weighs: its block tile, the K one block covers per step, how many of its
/// blocks an SM holds at once, the time of one step of one block while the SM holds that many,
/// and the fewest steps a split may have.
struct SplitKernel {
  AutoKernel whole;     ///< the plan's kernel when it does not split
  AutoKernel split;     ///< the plan's kernel when it does
  int tile_m = 0;
  int tile_n = 0;
  int step_k = 0;
  int resident = 1;     ///< blocks per SM
  double step_us = 0;   ///< µs per step with `resident` blocks on the SM (H100 measurements)
  int min_steps = 1;    ///< the fewest steps of a split
};

/// The model's estimate for `kernel` on `dims` with `splits` K splits on `sm_count` SMs, in µs:
/// the busiest SM's rounds of `resident` blocks (at least one) × steps per split × step_us, not
/// below the time to read A and B once; with splits > 1, plus the reduction (its launch, and the
/// slices written and read back, and C written).
double split_estimate_us(Dims dims, const SplitKernel& kernel, int splits, int sm_count);

/// The split count in 1 .. kMaxSplitK with the lowest estimate (the fewest on a tie), within
/// kernel.min_steps per split and kAutoWorkspaceCapBytes of slices, evened out so none is empty.
int best_splits(Dims dims, const SplitKernel& kernel, int sm_count);

/// The kernels plan_auto weighs for fp32 (`aligned`: K % 4 == 0, N % 4 == 0, 16-byte pointers;
/// otherwise only the 128×128 kernel's scalar path runs) and for TF32.
std::vector<SplitKernel> fp32_kernels(bool aligned);
std::vector<SplitKernel> tf32_kernels(bool aligned);

/// plan_auto's fp32 / TF32 plan: the kernel and split count with the lowest estimate.
AutoPlan plan_split_model(Dims dims, const std::vector<SplitKernel>& kernels, int sm_count);

}  // namespace kbench::matmul
