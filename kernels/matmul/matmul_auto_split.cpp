#include "kernels/matmul/matmul_auto_split.hpp"

#include "kernels/matmul/matmul_kernels.hpp"

#include <algorithm>
#include <cstdint>

namespace kbench::matmul {

namespace {

/// The reduction kernel's fixed cost (a second launch on the stream) and the rate at which it
/// and the partial kernel move slices (most stay in L2), µs and bytes per µs.
constexpr double kReduceLaunchUs = 3.0;
constexpr double kSliceBytesPerUs = 2.5e6;
/// A and B read once from HBM (H100: 3.35 TB/s theoretical, ~3.0 reached by a copy).
constexpr double kOperandBytesPerUs = 3.0e6;

std::int64_t ceil_div64(std::int64_t x, std::int64_t y) { return (x + y - 1) / y; }

double slice_bytes(Dims dims) { return static_cast<double>(dims.m) * dims.n * sizeof(float); }

std::int64_t tiles_of(Dims dims, const SplitKernel& kernel) {
  return ceil_div64(dims.m, kernel.tile_m) * ceil_div64(dims.n, kernel.tile_n);
}

/// Rounds of `resident` blocks an SM runs for `blocks` of them: blocks / resident when it holds
/// at least `resident`; fewer run faster each, yet not in proportion (their loads are latency
/// bound): (1 + blocks / resident) / 2 of a full round.
double rounds_for(std::int64_t blocks, int resident) {
  const double full = static_cast<double>(blocks) / resident;
  return blocks >= resident ? full : (1.0 + full) / 2.0;
}

}  // namespace

double split_estimate_us(Dims dims, const SplitKernel& kernel, int splits, int sm_count) {
  const std::int64_t steps = ceil_div64(dims.k, kernel.step_k);
  const std::int64_t per_split = ceil_div64(steps, splits);
  const std::int64_t busiest = ceil_div64(tiles_of(dims, kernel) * splits, std::max(sm_count, 1));
  const double compute = rounds_for(busiest, kernel.resident) * static_cast<double>(per_split) * kernel.step_us;
  const double operands = (static_cast<double>(dims.m) * dims.k + static_cast<double>(dims.k) * dims.n) * sizeof(float);
  double estimate = std::max(compute, operands / kOperandBytesPerUs);
  if (splits > 1) estimate += kReduceLaunchUs + (2.0 * splits + 1.0) * slice_bytes(dims) / kSliceBytesPerUs;
  return estimate;
}

int best_splits(Dims dims, const SplitKernel& kernel, int sm_count) {
  const std::int64_t steps = ceil_div64(dims.k, kernel.step_k);
  std::int64_t most = std::min<std::int64_t>(kMaxSplitK, steps / std::max(kernel.min_steps, 1));
  most = std::min<std::int64_t>(most, static_cast<std::int64_t>(static_cast<double>(kAutoWorkspaceCapBytes) / slice_bytes(dims)));
  int best = 1;
  double best_us = split_estimate_us(dims, kernel, 1, sm_count);
  for (int splits = 2; splits <= most; ++splits) {
    const double us = split_estimate_us(dims, kernel, splits, sm_count);
    if (us < best_us) best = splits, best_us = us;
  }
  // Even out: the same number of steps per split, and no split left empty.
  const std::int64_t per_split = ceil_div64(steps, best);
  return static_cast<int>(ceil_div64(steps, per_split));
}

std::vector<SplitKernel> fp32_kernels(bool aligned) {
  // step_us from the H100 runs in NOTES.md: 4096³ at 3.55 ms is 4 rounds of 2 blocks × 512 steps
  // of 8 k; the small-tile kernel's steps (8 chunks of 16 k) came to 1.53 µs at 512x512x32768
  // (522 µs, 4/3 rounds of 3 blocks × 256 steps) and 1.74 at 1024³ (74 µs, 16/3 rounds × 8).
  const SplitKernel big{AutoKernel::register_blocked, AutoKernel::register_blocked_split_k,
                        kSimtBigTile, kSimtBigTile, 8, 2, 1.73, 16};
  const SplitKernel small{AutoKernel::small_simt, AutoKernel::small_simt_split_k,
                          kSimtSmallTileM, kSimtSmallTileN, 128, 3, 1.6, 1};
  if (!aligned) return {big};
  return {big, small};
}

std::vector<SplitKernel> tf32_kernels(bool aligned) {
  // 128×128: 4096³ at 920 µs is 4 rounds of 2 blocks × 256 steps of 16 k. The 32×32 tile has no
  // measurement at a size where its MMAs bound it (0.5 µs per 32-k step of 4 blocks is the
  // prediction: one cp.async latency over the 4 stages in flight); element-wise copies
  // (unaligned shapes) are taken as a third slower.
  if (!aligned) {
    return {{AutoKernel::tensor_core, AutoKernel::tensor_core_split_k, kTf32BigTile, kTf32BigTile, 16, 2, 1.2, 8}};
  }
  return {{AutoKernel::tensor_core, AutoKernel::tensor_core_split_k, kTf32BigTile, kTf32BigTile, 16, 2, 0.90, 8},
          {AutoKernel::tensor_core, AutoKernel::tensor_core_small_split_k, kTf32SmallTile, kTf32SmallTile, 32, 4, 0.5,
           4}};
}

AutoPlan plan_split_model(Dims dims, const std::vector<SplitKernel>& kernels, int sm_count) {
  AutoPlan best{};
  double best_us = 0;
  bool first = true;
  for (const SplitKernel& kernel : kernels) {
    const int splits = best_splits(dims, kernel, sm_count);
    const double us = split_estimate_us(dims, kernel, splits, sm_count);
    if (first || us < best_us) {
      first = false;
      best_us = us;
      if (splits == 1) {
        best = {kernel.whole, 1, 0};
      } else {
        best = {kernel.split, splits, static_cast<std::size_t>(splits) * static_cast<std::size_t>(slice_bytes(dims))};
      }
    }
  }
  return best;
}

}  // namespace kbench::matmul
