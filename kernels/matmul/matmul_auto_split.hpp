#pragma once
/// The fp32 and TF32 half of matmul's `auto` rule: which SIMT or mma.sync kernel, and how many K
/// splits, from a fixed cost model of each kernel (no timing at run time). kernels/matmul/NOTES.md
/// ("fp32 and TF32 split-K") gives the constants' sources and the predictions. Host-only.

#include "kernels/matmul/matmul_auto_plan.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace kbench::matmul {

/// When a kernel's whole-K launcher runs this tile (each launcher picks its tile from the shape, so
/// a whole-K estimate counts only for the tile the launcher would run).
enum class WholeTile {
  always,
  tiles_fill_sms,       ///< register_blocked 128×128: its tiles number at least the SMs (else it runs 16×32)
  few_big_tiles,        ///< tensor_core 32×32: 8 × its 128×128 tiles <= SMs
  many_big_tiles,       ///< tensor_core 128×128: 8 × its tiles > SMs
  never,                ///< a split-only tile: whole K runs another (tensor_core's 32×32 off the 16-byte paths)
};

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
  WholeTile whole_tile = WholeTile::always;  ///< when `whole` runs this tile
  SimtSmallRows simt_rows = SimtSmallRows::r16;  ///< the small_simt kernels' tile height
  double fixed_us = 0;  ///< µs on top of every estimate: a small-tile plan's padded copy of A, or Aᵀ
  OuterSimtTile outer_tile = OuterSimtTile::rows64_cols32;  ///< the outer_simt kernels' tile
};

/// Whether `kernel.whole` runs `kernel`'s tile on `dims` with `sm_count` SMs.
bool whole_runs_tile(Dims dims, const SplitKernel& kernel, int sm_count);

/// The time of a round with a single block on the SM, as a fraction of a full one (H100: 0.61 for
/// TF32 128×128, 1 of 2; 0.54 for SIMT 16×32, 1 of 3; NOTES.md, "fp32 and TF32 split-K").
inline constexpr double kAloneRound = 0.25;

/// Rounds of `resident` blocks that an SM holding `blocks` of them runs, in full rounds' time:
/// whole waves, then a last wave of j < resident blocks at kAloneRound + (1 - kAloneRound)·j/resident
/// of a full round (fewer blocks run faster each, yet far from in proportion).
double rounds_for(std::int64_t blocks, int resident);

/// The model's estimate for `kernel` on `dims` with `splits` K splits on `sm_count` SMs, in µs:
/// the busiest SM's rounds (rounds_for) × steps per split × step_us, not below the time to read
/// A and B once from HBM; with splits > 1, plus the reduction (its launch, and the slices written
/// and read back, and C written).
double split_estimate_us(Dims dims, const SplitKernel& kernel, int splits, int sm_count);

/// The split count in 1 .. kMaxSplitK with the lowest estimate (the fewest on a tie), within
/// kernel.min_steps per split and kAutoWorkspaceCapBytes of slices, evened out so none is empty;
/// 1 only where whole_runs_tile (0 when no count qualifies).
int best_splits(Dims dims, const SplitKernel& kernel, int sm_count);

/// The kernels plan_auto weighs for fp32 on `dims`: the 128×128 and 16×32 tiles, for M of 17 to
/// kSimtTallMaxRows the 32×32 and 48×32 tiles, and for M of 17 to kOuterMaxRows the outer-product
/// 64×32 and 32×64 tiles (with Aᵀ within kAutoWorkspaceCapBytes; its copy charged as fixed_us).
/// Off the 16-byte paths (K or N not a multiple of 4, or a misaligned pointer) the 128×128 kernel copies element-wise and runs whole K on any tile
/// count, and the small tiles are weighed only for M of at most kSimtTallMaxRows with A's padded
/// copy within kAutoWorkspaceCapBytes: they copy B 4 bytes at a time where N is not a multiple of
/// 4 or a pointer is misaligned (their step times × kSimtScalarCopyCost), and read A padded
/// (simt_pads_a; its copy charged as fixed_us).
std::vector<SplitKernel> fp32_kernels(Dims dims, bool pointers_aligned16);

/// The small-tile plans' copy of A with rows padded to a multiple of 4 floats (simt_a_pitch), in
/// bytes (a multiple of 256, so that the split slices behind it stay aligned).
std::size_t simt_padded_a_bytes(Dims dims);
/// Whether a small-tile plan reads A padded: K not a multiple of 4, or a misaligned pointer.
bool simt_pads_a(Dims dims, bool pointers_aligned16);
/// The 32×32 and 48×32 tiles' step times (µs per round of 8 chunks of 16 k, 2 blocks per SM; H100,
/// small_simt_probe: 64x8192x8192, 24x8192x4096 and 32x4096x4096 on 32 rows, 47x8192x8192 and
/// 40x16384x2048 on 48), and the cost of B's 4-byte copies (N not a multiple of 4, or a misaligned
/// pointer) as a factor on any small tile's step time.
inline constexpr double kSimtStepUs32 = 1.92;
inline constexpr double kSimtStepUs48 = 2.87;
inline constexpr double kSimtScalarCopyCost = 1.1;
/// The outer-product tiles' step times (µs per round of 8 chunks of 16 k, 2 blocks per SM: both
/// tiles compute 64·32·128 multiply-adds a round) and the cost of B's 4-byte copies on each, a factor
/// on its step time (32×64 copies 32 a lane per chunk, 64×32 16). Fitted to small_simt_probe on an
/// H200 (session 22: 64x8192x8192 and 47x8192x8192 whole K; 56x3001x20011 split 8 and
/// 37x12653x6109 whole for the 4-byte copies; NOTES.md, "Outer-product small tiles").
inline constexpr double kOuterStepUs64x32 = 3.2;
inline constexpr double kOuterStepUs32x64 = 3.1;
inline constexpr double kOuterScalarCopyCost64x32 = 1.07;
inline constexpr double kOuterScalarCopyCost32x64 = 1.3;
/// Only problems of at most this many rows weigh the taller small tiles (their step times come
/// from few-row GEMMs; 128×128 tiles serve taller problems better per byte of L2 traffic).
inline constexpr int kSimtTallMaxRows = 64;
/// Problems of at most this many rows weigh the outer-product tiles: two 64-row or four 32-row tile
/// rows waste no more rows than one 128×128 tile (the 32×64 tile fewer: 96 rows are three).
inline constexpr int kOuterMaxRows = 128;
/// The TF32 mma.sync tiles off the 16-byte paths (4-byte copies): their step times as a factor on
/// the aligned ones, from kTf32ScalarCopyCostEmpty for a tile of rows mostly past M (zero-filled,
/// nothing read) to kTf32ScalarCopyCostFull for a whole one, in proportion to the tile's rows
/// inside M. H100, session 22: 128×128 at 37x12653x6109 split 8 (29 % of the rows) 1.2 µs a step,
/// 1.38x; at 1023x4097x513 whole K 2.1, 2.4x (NOTES.md, "TF32 off the 16-byte paths").
inline constexpr double kTf32ScalarCopyCostEmpty = 1.2;
inline constexpr double kTf32ScalarCopyCostFull = 2.4;
/// The kernels plan_auto weighs for tf32 with M rows: the 128×128 and 32×32 mma.sync tiles.
std::vector<SplitKernel> tf32_kernels(bool aligned, int m);

/// plan_auto's fp32 / TF32 plan: the kernel and split count with the lowest estimate.
AutoPlan plan_split_model(Dims dims, const std::vector<SplitKernel>& kernels, int sm_count);

/// plan_split_model's plan and its estimate in µs (the TF32 rule weighs it against wgmma_tf32).
struct SplitModelChoice {
  AutoPlan plan;
  double us = 0;
};
SplitModelChoice choose_split_model(Dims dims, const std::vector<SplitKernel>& kernels, int sm_count);

}  // namespace kbench::matmul
