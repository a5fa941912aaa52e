#include "kernels/matmul/matmul_auto_split.hpp"

#include "kernels/matmul/matmul_kernels.hpp"

#include <algorithm>
#include <cstdint>

namespace kbench::matmul {

namespace {

/// The split plan's fixed cost (the reduction's launch) and the rate at which the slices are
/// written, read back and C written, µs and bytes per µs. H100 (2026-11-24): the split runs of
/// fp32 3000x1000x2000 (2 splits, 406.6 µs), tf32 3000x1000x2000 (2, 142.2) and fp32
/// 512x512x32768 (16, 487.1) took 47, 53 and 34 µs beyond their modelled partial kernel for
/// 60, 60 and 35 MB of slices and C: 1.1-1.4 TB/s, far below a copy's rate.
constexpr double kReduceLaunchUs = 3.0;
constexpr double kSliceBytesPerUs = 1.2e6;
/// A and B read once from HBM: H100, cuBLAS's 1x4096x4096 (67 MB in 27.2 µs, fp32 and tf32).
constexpr double kOperandBytesPerUs = 2.47e6;
/// A small copy kernel's launch (the padded A), µs: the reduction's figure.
constexpr double kPadLaunchUs = kReduceLaunchUs;

double slice_bytes(Dims dims) { return static_cast<double>(dims.m) * dims.n * sizeof(float); }

std::int64_t tiles_of(Dims dims, const SplitKernel& kernel) {
  return ceil_div64(dims.m, kernel.tile_m) * ceil_div64(dims.n, kernel.tile_n);
}

std::int64_t big_tf32_tiles(Dims dims) { return ceil_div64(dims.m, kTf32BigTile) * ceil_div64(dims.n, kTf32BigTile); }

}  // namespace

double rounds_for(std::int64_t blocks, int resident) {
  const int held = std::max(resident, 1);
  const std::int64_t waves = blocks / held;
  const std::int64_t last = blocks % held;
  const double partial = last == 0 ? 0.0 : kAloneRound + (1.0 - kAloneRound) * static_cast<double>(last) / held;
  return static_cast<double>(waves) + partial;
}

bool whole_runs_tile(Dims dims, const SplitKernel& kernel, int sm_count) {
  switch (kernel.whole_tile) {
    case WholeTile::always: return true;
    case WholeTile::tiles_fill_sms: return tiles_of(dims, kernel) >= sm_count;
    case WholeTile::few_big_tiles: return 8 * big_tf32_tiles(dims) <= sm_count;
    case WholeTile::many_big_tiles: return 8 * big_tf32_tiles(dims) > sm_count;
    case WholeTile::never: return false;
  }
  return true;
}

double split_estimate_us(Dims dims, const SplitKernel& kernel, int splits, int sm_count) {
  const std::int64_t steps = ceil_div64(dims.k, kernel.step_k);
  const std::int64_t per_split = ceil_div64(steps, splits);
  const std::int64_t busiest = ceil_div64(tiles_of(dims, kernel) * splits, std::max(sm_count, 1));
  const double compute = rounds_for(busiest, kernel.resident) * static_cast<double>(per_split) * kernel.step_us;
  const double operands = (static_cast<double>(dims.m) * dims.k + static_cast<double>(dims.k) * dims.n) * sizeof(float);
  double estimate = kernel.fixed_us + std::max(compute, operands / kOperandBytesPerUs);
  if (splits > 1) estimate += kReduceLaunchUs + (2.0 * splits + 1.0) * slice_bytes(dims) / kSliceBytesPerUs;
  return estimate;
}

int best_splits(Dims dims, const SplitKernel& kernel, int sm_count) {
  const std::int64_t steps = ceil_div64(dims.k, kernel.step_k);
  std::int64_t most = std::min<std::int64_t>(kMaxSplitK, steps / std::max(kernel.min_steps, 1));
  most = std::min<std::int64_t>(most, static_cast<std::int64_t>(static_cast<double>(kAutoWorkspaceCapBytes) / slice_bytes(dims)));
  int best = 0;
  double best_us = 0;
  for (int splits = 1; splits <= std::max<std::int64_t>(most, 1); ++splits) {
    if (splits == 1 && !whole_runs_tile(dims, kernel, sm_count)) continue;
    const double us = split_estimate_us(dims, kernel, splits, sm_count);
    if (best == 0 || us < best_us) best = splits, best_us = us;
  }
  if (best == 0) return 0;
  // Even out: the same number of steps per split, and no split left empty.
  const std::int64_t per_split = ceil_div64(steps, best);
  return static_cast<int>(ceil_div64(steps, per_split));
}

std::size_t simt_padded_a_bytes(Dims dims) {
  const std::int64_t bytes = std::int64_t{dims.m} * simt_a_pitch(dims.k) * static_cast<std::int64_t>(sizeof(float));
  return static_cast<std::size_t>(ceil_div64(bytes, 256) * 256);
}

bool simt_pads_a(Dims dims, bool pointers_aligned16) { return dims.k % 4 != 0 || !pointers_aligned16; }

namespace {

/// The small tiles: 16×32, and for M of 17 to kSimtTallMaxRows 32×32 and 48×32 (fitted to
/// small_simt_probe, NOTES.md "Taller small tiles").
std::vector<SplitKernel> small_tiles(Dims dims, bool b_vector, bool pad_a) {
  auto small_tile = [](SimtSmallRows rows, int resident, double step_us) {
    return SplitKernel{AutoKernel::small_simt, AutoKernel::small_simt_split_k, simt_small_rows(rows), kSimtSmallTileN,
                       128, resident, step_us, 1, WholeTile::always, rows};
  };
  std::vector<SplitKernel> small{small_tile(SimtSmallRows::r16, 3, 1.7)};
  if (dims.m > 16 && dims.m <= kSimtTallMaxRows) {
    small.push_back(small_tile(SimtSmallRows::r32, 2, kSimtStepUs32));
    small.push_back(small_tile(SimtSmallRows::r48, 2, kSimtStepUs48));
  }
  for (SplitKernel& kernel : small) {
    if (!b_vector) kernel.step_us *= kSimtScalarCopyCost;
    // A's padded copy: read and written once, plus its launch.
    if (pad_a) kernel.fixed_us = kPadLaunchUs + 2.0 * static_cast<double>(simt_padded_a_bytes(dims)) / kOperandBytesPerUs;
  }
  return small;
}

/// The outer-product tiles, Aᵀ's copy charged as fixed cost.
std::vector<SplitKernel> outer_tiles(Dims dims, bool b_vector) {
  // Aᵀ: A read once and Aᵀ written once, plus the transpose's launch.
  const double transpose_us =
      kPadLaunchUs +
      (static_cast<double>(dims.m) * dims.k * sizeof(float) + static_cast<double>(outer_at_bytes(dims))) /
          kOperandBytesPerUs;
  std::vector<SplitKernel> outer;
  for (OuterSimtTile tile : {OuterSimtTile::rows64_cols32, OuterSimtTile::rows32_cols64}) {
    const bool tall = tile == OuterSimtTile::rows64_cols32;
    const double step_us = tall ? kOuterStepUs64x32 : kOuterStepUs32x64;
    const double scalar_cost = tall ? kOuterScalarCopyCost64x32 : kOuterScalarCopyCost32x64;
    SplitKernel kernel{AutoKernel::outer_simt, AutoKernel::outer_simt_split_k, outer_simt_rows(tile),
                       outer_simt_cols(tile), 128, 2, step_us * (b_vector ? 1.0 : scalar_cost), 1, WholeTile::always};
    kernel.fixed_us = transpose_us;
    kernel.outer_tile = tile;
    outer.push_back(kernel);
  }
  return outer;
}

}  // namespace

// Step times: µs per step of the busiest SM while it holds `resident` blocks, fitted with
// rounds_for to H100 cold medians (NOTES.md, "fp32 and TF32 split-K", 2026-11-24 outcome).
std::vector<SplitKernel> fp32_kernels(Dims dims, bool pointers_aligned16) {
  const bool aligned = dims.k % 4 == 0 && dims.n % 4 == 0 && pointers_aligned16;
  const bool b_vector = dims.n % 4 == 0 && pointers_aligned16;
  // 128×128 SIMT, 8 k a step, register_blocked_async's kernel whole and split (cp.async panels;
  // session 11: 4096³ 3093 µs = 4 rounds × 512 steps, 1.51; 3000x1000x2000 385.6 µs = 1 × 250,
  // 1.54; register_blocked's kernel, which the splits ran before session 16, took 1.76). 16×32
  // SIMT, a round of 8 chunks of 16 k a step: 32x4096x4096 40.7 µs = 0.75 round × 32 steps (1.70),
  // 1024³ 74 µs = 5.5 × 8 (1.68); 64x8192x8192 (2.06) and 512x512x32768 (1.36) lie either side.
  // 32×32, 48×32 and the outer-product tiles: fitted to small_simt_probe (matmul_auto_split.hpp).
  SplitKernel big{AutoKernel::register_blocked, AutoKernel::register_blocked_split_k,
                  kSimtBigTile, kSimtBigTile, 8, 2, 1.52, 16, WholeTile::always};
  if (aligned) big.whole_tile = WholeTile::tiles_fill_sms;  // the launcher runs 16×32 below that
  std::vector<SplitKernel> kernels{big};
  // Off the 16-byte paths the small tiles serve few rows only (what was measured; A padded stays
  // small), and not where A's padded copy would pass the workspace cap.
  if (aligned || (dims.m <= kSimtTallMaxRows && simt_padded_a_bytes(dims) <= kAutoWorkspaceCapBytes)) {
    const std::vector<SplitKernel> small = small_tiles(dims, b_vector, simt_pads_a(dims, pointers_aligned16));
    kernels.insert(kernels.end(), small.begin(), small.end());
  }
  if (dims.m > 16 && dims.m <= kOuterMaxRows && outer_at_bytes(dims) <= std::int64_t{kAutoWorkspaceCapBytes}) {
    const std::vector<SplitKernel> outer = outer_tiles(dims, b_vector);
    kernels.insert(kernels.end(), outer.begin(), outer.end());
  }
  return kernels;
}

std::vector<SplitKernel> tf32_kernels(bool aligned, int m) {
  // 128×128, 16 k a step: 4096³ 888.5 µs = 4 rounds × 256 steps (0.87); 3000x1000x2000 105.7 µs =
  // 1 × 125 (0.85). 32×32, 32 k a step: 512x512x32768 whole K (the launcher's tile) 455.4 µs =
  // 0.625 round (2 of 4 blocks) × 1024 steps (0.71). Off the 16-byte paths every element is its
  // own 4-byte cp.async, at the cost above; the 32×32 tile only split (whole K, the launcher runs
  // 128×128).
  if (!aligned) {
    auto scalar_cost = [m](int tile) {
      const double inside = std::min(1.0, static_cast<double>(m) / tile);
      return kTf32ScalarCopyCostEmpty + (kTf32ScalarCopyCostFull - kTf32ScalarCopyCostEmpty) * inside;
    };
    return {{AutoKernel::tensor_core, AutoKernel::tensor_core_split_k, kTf32BigTile, kTf32BigTile, 16, 2,
             0.87 * scalar_cost(kTf32BigTile), 8, WholeTile::always},
            {AutoKernel::tensor_core, AutoKernel::tensor_core_small_split_k, kTf32SmallTile, kTf32SmallTile, 32, 4,
             0.71 * scalar_cost(kTf32SmallTile), 4, WholeTile::never}};
  }
  return {{AutoKernel::tensor_core, AutoKernel::tensor_core_split_k, kTf32BigTile, kTf32BigTile, 16, 2, 0.87, 8,
           WholeTile::many_big_tiles},
          {AutoKernel::tensor_core, AutoKernel::tensor_core_small_split_k, kTf32SmallTile, kTf32SmallTile, 32, 4, 0.71,
           4, WholeTile::few_big_tiles}};
}

AutoPlan plan_split_model(Dims dims, const std::vector<SplitKernel>& kernels, int sm_count) {
  return choose_split_model(dims, kernels, sm_count).plan;
}

SplitModelChoice choose_split_model(Dims dims, const std::vector<SplitKernel>& kernels, int sm_count) {
  AutoPlan best{};
  double best_us = 0;
  bool first = true;
  for (const SplitKernel& kernel : kernels) {
    const int splits = best_splits(dims, kernel, sm_count);
    if (splits == 0) continue;  // its launcher runs another tile whole, and K is too short to split
    const double us = split_estimate_us(dims, kernel, splits, sm_count);
    if (first || us < best_us) {
      first = false;
      best_us = us;
      if (splits == 1) {
        best = {kernel.whole, 1, 0};
      } else {
        best = {kernel.split, splits, static_cast<std::size_t>(splits) * static_cast<std::size_t>(slice_bytes(dims))};
      }
      best.simt_rows = kernel.simt_rows;
      best.outer_tile = kernel.outer_tile;
    }
  }
  return {best, best_us};
}

}  // namespace kbench::matmul
