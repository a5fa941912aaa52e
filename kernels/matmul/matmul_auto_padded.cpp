#include "kernels/matmul/matmul_auto_padded.hpp"

#include "kernels/matmul/matmul_auto_plan.hpp"

#include <algorithm>
#include <cstdint>

namespace kbench::matmul {

namespace {

/// Constants (µs, bytes per µs), H100, from the 2026-11-24 cold medians (NOTES.md). Staged kernel,
/// 128×256 tiles, fitted on the busiest SM's tile-steps: 2048³ 28.2 µs (32 steps), 4096³ 178.1
/// (4 × 64), 1024×8192×512 19.5 (2 × 8): 6.8 µs fixed and 0.67 µs a step. A 128×128 step costs
/// kAutoNarrowTileCost of that (1536×4096×1024: 3 × 16 narrow steps, modelled 25.3, measured 24.6).
/// The element-wise wgmma kernel: 1023×4097×513 took 51.5 µs for 2 waves × 9 steps, 2.86 µs a step.
/// Copies at 2.5 TB/s and 2 µs a launch, as the TF32 transpose's model (not measured).
constexpr double kStagedFixedUs = 6.8;
constexpr double kStagedStepUs = 0.67;
constexpr double kElementwiseStepUs = 2.86;
constexpr double kCopyLaunchUs = 2.0;
constexpr double kCopyBytesPerUs = 2.5e6;
constexpr double kReduceLaunchUs = 3.0;     // as matmul_auto_split.cpp
constexpr double kSliceBytesPerUs = 1.2e6;
constexpr double kPartsBytesPerUs = 5.0e6;  // the tail split's parts, written and read back through L2 (a guess)
/// The tail split's second launch and the parts' epilogues: H200, session 32, the tail-split variants
/// measured 8-12 µs above the model without it on seven shapes of 1-3 rounds (5120³: 19.5, with
/// the staged model itself 6 % under on that shape).
constexpr double kTailSplitOverheadUs = 10.0;

std::int64_t steps_of(Dims dims) { return ceil_div64(dims.k, kWgmmaStepK); }

}  // namespace

double staged_estimate_us(Dims dims, TmaTile tile, int sm_count) {
  const double busiest = tile_rounds_cost(dims, tma_tile_n(tile), sm_count);  // in 128×256 tile times
  return kStagedFixedUs + busiest * static_cast<double>(steps_of(dims)) * kStagedStepUs;
}

double tail_split_estimate_us(Dims dims, TmaTile tile, int sm_count, const TailSplit& plan) {
  const int tile_n = tma_tile_n(tile);
  const bool short_rows = dims.n % kPaddedRowElements != 0;
  const double steps_us = tail_split_busiest_steps(dims, tile_n, sm_count, plan) * kStagedStepUs;
  const double parts = static_cast<double>(tail_split_parts_bytes(plan, tile_n));
  return kStagedFixedUs + steps_us * (short_rows ? kAutoShortRowsCost : 1.0) + kTailSplitOverheadUs +
         2.0 * parts / kPartsBytesPerUs;
}

double padded_estimate_us(Dims dims, const PaddedLayout& layout, TmaTile tile, int sm_count) {
  const double copies = (padded_kernels(layout) - 1) * kCopyLaunchUs + padded_extra_bytes(dims, layout) / kCopyBytesPerUs;
  const bool short_rows = dims.n % kPaddedRowElements != 0 && !layout.pad_b;
  const double steps_us = staged_estimate_us(dims, tile, sm_count) - kStagedFixedUs;
  return kStagedFixedUs + steps_us * (short_rows ? kAutoShortRowsCost : 1.0) + copies;
}

double wgmma_elementwise_estimate_us(Dims dims, int splits, int sm_count) {
  const std::int64_t tiles = ceil_div64(dims.m, kWgmmaTileM) * ceil_div64(dims.n, kWgmmaTileN);
  const std::int64_t waves = ceil_div64(tiles * splits, std::max(sm_count, 1));
  const double kernel = static_cast<double>(waves * ceil_div64(steps_of(dims), splits)) * kElementwiseStepUs;
  if (splits == 1) return kernel;
  const double c_bytes = static_cast<double>(dims.m) * dims.n * sizeof(float);
  return kernel + kReduceLaunchUs + (2.0 * splits + 1.0) * c_bytes / kSliceBytesPerUs;
}

}  // namespace kbench::matmul
