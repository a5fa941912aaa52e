#pragma once
/// The matmul `auto` variant's choice of kernel and launch shape for one problem: a fixed rule on
/// the extents, the dtype and two facts of the device, with no timing at run time (what a
/// framework would ship). kernels/matmul/NOTES.md ("auto") gives the rule's reasons and its
/// predictions. Host-only.

#include "kbench/types.hpp"
#include "kernels/matmul/matmul_padded_layout.hpp"
#include "kernels/matmul/matmul_problem.hpp"
#include "kernels/matmul/matmul_tile_schedule.hpp"

#include <cstddef>
#include <string_view>

namespace kbench::matmul {

/// The kernels `auto` chooses from.
enum class AutoKernel {
  register_blocked,  ///< fp32: launch_register_blocked_async (128×128 tiles, or the small-tile kernel)
  register_blocked_split_k,   ///< fp32: launch_register_blocked_async_partials, then launch_split_k_reduce
  small_simt,                 ///< fp32: launch_small_simt (16×32, 32×32 or 48×32 tiles: AutoPlan::simt_rows; K over the block's warps)
  small_simt_split_k,         ///< fp32: launch_small_simt_partials, then launch_split_k_reduce
  outer_simt,                 ///< fp32, M of 17-128: launch_transpose_a_for_outer, then launch_outer_simt (AutoPlan::outer_tile)
  outer_simt_split_k,         ///< the same with launch_outer_simt_partials, then launch_split_k_reduce
  tensor_core,       ///< tf32, and fp16/bf16 off Hopper or on small problems: launch_tensor_core(_tf32)
  tensor_core_split_k,        ///< tf32: launch_tensor_core_tf32_partials on 128×128 tiles, then the reduce
  tensor_core_small_split_k,  ///< tf32: the same on 32×32 tiles
  wgmma,             ///< fp16/bf16 on compute capability 9.0, K or N not a multiple of 8: launch_wgmma (cp.async)
  wgmma_tma,         ///< launch_wgmma_tma (TMA-fed, persistent, register epilogue); the rule now picks the staged forms
  wgmma_tma_staged,       ///< fp16/bf16 on compute capability 9.0, K and N multiples of 8: launch_wgmma_tma_staged, 128×256
  wgmma_tma_staged_n192,  ///< the same on 128×192 tiles: where their busiest block costs least (tile_rounds_cost)
  wgmma_tma_staged_n128,  ///< the same on 128×128 tiles: where they leave a smaller last wave, or instead of 2 K splits (M > 64)
  wgmma_tma_padded,       ///< fp16/bf16 shapes TMA cannot address: launch_wgmma_tma_padded (copies + staged), 128×256
  wgmma_tma_padded_n128,  ///< the same on 128×128 tiles
  wgmma_split_k,     ///< the cp.async wgmma kernel with K split: launch_wgmma_partials, then launch_split_k_reduce
  wgmma_tma_split_k,       ///< aligned M >= 128 splitting 3+ ways: launch_wgmma_tma_partials on 128×256, then the reduce
  wgmma_tma_split_k_n192,  ///< the same on 128×192 tiles (tma_split_plan picks the tile)
  wgmma_tma_split_k_n128,  ///< the same on 128×128 tiles
  wgmma_tma_tail_split,       ///< aligned whole-K tiles past a whole number of rounds: launch_wgmma_tma_tail_split, 128×256
  wgmma_tma_tail_split_n192,  ///< the same on 128×192 tiles
  wgmma_tma_tail_split_n128,  ///< the same on 128×128 tiles
  wgmma_tf32,        ///< tf32 on compute capability 9.0: Bᵀ (and A where K % 4 != 0) in padded rows, then launch_wgmma_tf32
  wgmma_tf32_split_k,  ///< the same with K split into slices, then launch_split_k_reduce
  gemv,              ///< every dtype, M <= kGemvMaxRows: launch_gemv (B's columns in strips, K in `splits` chunks)
};

std::string_view auto_kernel_name(AutoKernel kernel);

/// The tile width along N (256, 192 or 128) that a staged, padded or TMA split-K kernel of the
/// plan runs; 0 for the other kernels.
int auto_tma_tile_n(AutoKernel kernel);

/// What the rule needs to know of the device.
struct AutoDevice {
  int sm_count = 0;
  bool wgmma = false;  ///< the device runs launch_wgmma (wgmma_unavailable is empty for it)
  /// Shared memory an SM holds (DeviceInfo::shared_memory_per_sm_bytes); 0 where unknown, which
  /// plans the GEMV's SIMT kernels only (gemv_mma_takes).
  std::int64_t shared_memory_per_sm = 0;
};

struct AutoPlan {
  AutoKernel kernel = AutoKernel::register_blocked;
  int splits = 1;                   ///< K splits of a *_split_k kernel (2 .. kMaxSplitK, none empty), gemv's chunks; else 1
  /// A *_split_k kernel's fp32 slices, splits × M × N × 4 bytes; gemv's slices and tickets
  /// (gemv_workspace_bytes: zeroed once before the first call); else 0.
  std::size_t workspace_bytes = 0;
  /// A wgmma_tf32 plan's Bᵀ (wgmma_tf32_transposed_b_bytes), placed before the slices in the
  /// call's workspace; else 0.
  std::size_t transposed_b_bytes = 0;
  /// A wgmma_tma_padded plan's scratch (padded_layout with every pointer taken as misaligned where
  /// any is: at least what the call's own pointers need), the whole of the call's workspace; a
  /// small_simt plan's A with rows padded to a multiple of 4 floats where K is not one or a pointer
  /// is misaligned (simt_padded_a_bytes), and an outer_simt plan's Aᵀ (outer_at_bytes), at the
  /// workspace's front before any slices; a wgmma_tf32 plan's A in rows of K rounded up to 4 where
  /// K is not a multiple of 4 (wgmma_tf32_padded_a_bytes), between Bᵀ and the slices; else 0.
  std::size_t padded_bytes = 0;
  /// A wgmma_tma_padded plan's choice for B rows TMA can read that are not of 128-byte multiples;
  /// else unused.
  ShortRows short_rows = ShortRows::copied;
  /// A small_simt(_split_k) plan's tile height; else unused.
  SimtSmallRows simt_rows = SimtSmallRows::r16;
  /// An outer_simt(_split_k) plan's tile; else unused.
  OuterSimtTile outer_tile = OuterSimtTile::rows64_cols32;
  /// A wgmma_tma_tail_split plan's division of the tiles (its splits are `splits`); else unused.
  TailSplit tail;
};

/// Whether `plan` runs the small-tile SIMT kernel (whole K or split).
constexpr bool runs_small_simt(const AutoPlan& plan) {
  return plan.kernel == AutoKernel::small_simt || plan.kernel == AutoKernel::small_simt_split_k;
}

/// Whether `plan` runs the outer-product SIMT kernel (whole K or split).
constexpr bool runs_outer_simt(const AutoPlan& plan) {
  return plan.kernel == AutoKernel::outer_simt || plan.kernel == AutoKernel::outer_simt_split_k;
}

/// 16-bit problems of at most this many rows take gemv (fp32 and tf32: up to kGemvMaxRows); at 5-8
/// rows only shapes the staged TMA kernel cannot read (K or N not a multiple of 8, or misaligned
/// pointers). H100, cold µs, gemv against the tensor-core plan: bf16 8x16384x4096 69.4 / 54.9, fp16
/// 8x4096x14336 61.3 / 46.8, bf16 5x4097x4099 27.7 / 236.0 (cp.async wgmma split 7 ways on
/// element-wise copies; NOTES.md, "GEMV"). Since the tensor-core GEMV (H200, cold µs, gemv against
/// the TMA plan): bf16 7x2048x8192 15.7 / 37.1, 6x11920x1064 20.3 / 26.4, but fp16 8x4096x14336
/// 44.1 / 34.0 (NOTES.md, "GEMV on tensor cores"): not yet a rule.
inline constexpr int kAutoGemvMaxRows16 = 4;
/// Whether plan_auto runs `dims` on gemv (the rule above).
bool gemv_takes(Dims dims, DType dtype, bool pointers_aligned16);

/// No plan asks for more workspace than this.
inline constexpr std::size_t kAutoWorkspaceCapBytes = std::size_t{32} << 20;

/// Problems of at most this many multiply-adds (M·N·K; 512³) run tensor_core, whose launcher
/// spreads them over 32×32 split-K tiles.
inline constexpr double kAutoSmallVolume = 512.0 * 512.0 * 512.0;

/// A split is at least this many of the wgmma kernel's 64-deep K steps (256 of K), so its
/// pipeline fills and its slice write stays below what it reads.
inline constexpr int kAutoMinStepsPerSplit = 4;

/// Where the 128×256 tiles would split K 3 or more ways, whole K on the staged kernel's narrower
/// tiles instead when M fills a 128-row tile, K is at most kAutoWholeKMaxSteps 64-deep steps and
/// the 128×128 tiles number at least a quarter of the SMs (`staged_whole_k_beats_split`). H100,
/// session 16, bf16 cold µs, split against whole 128×128: 1000x1032x1016 20.7 / 14.7, 768x1024x2048
/// 21.8 / 16.7, 704x1504x3000 27.7 / 24.1, 512x2048x4096 29.5 / 27.1, 256x4096x4096 30.1 / 27.1;
/// the split kept 90x5120x5120 (31.3 / 32.7), 64x11008x4096 (41.6 / 44.3), 16x8192x8192 (52.2 /
/// 76.4) and 1024x1024x32768 (117.2 / 171.4): rows under a tile leave whole-K blocks streaming B
/// with half-empty MMAs, and long K leaves few blocks walking it.
inline constexpr int kAutoWholeKMaxSteps = 64;
bool staged_whole_k_beats_split(Dims dims, int sm_count);

/// The staged TMA kernel's 128×128 tile costs this fraction of a 128×256 tile's time: half its
/// MMAs, plus 15 % for the third more L2 → SM bytes per FLOP and the B operand read by both
/// warpgroups (a guess, not measured: NOTES.md, "staged epilogue").
inline constexpr double kAutoNarrowTileCost = 0.575;

/// The 128×192 tile's cost as a fraction of the 128×256 tile's: on the line through the two costs
/// above (a fixed 0.15 per tile plus the rest in proportion to its width: 0.15 + 0.85 × 0.75).
/// Not measured yet (NOTES.md, "128×192 tiles").
inline constexpr double kAutoN192TileCost = 0.7875;

/// A narrower staged tile replaces a wider one only where its modelled cost is below this share of
/// the wider one's: the model's narrow tiles are optimistic. H200, session 32, bf16 cold µs,
/// 128×256 / 128×128 with their modelled costs: 2056x2048x2048 37.7 / 44.4 (1.575 / 1.512),
/// padded 2056x2056x2056 50.1 / 58.4; 2560x2560x2560 56.6 / 58.5 on 128×192 (2.0 / 1.938); a clear
/// gain kept: 1024x4104x8192 155.4 / 141.1 (1.3625 / 1.15).
inline constexpr double kAutoNarrowerTileGain = 0.95;

/// The staged kernel's time reading B in rows that are not of 128-byte multiples (N a multiple of
/// 8 but not of 64), as a multiple of its time on rows that are (H200, session 28, bf16 cold µs,
/// staged against B copied to 128-byte rows, less the copy at the model's rate): 8192x8200x1024
/// 250.3 / 208.5 (1.3x), 4096x4104x4096 275.2 / 235.6 (1.33x), 6472x6584x3176 564.6 / 411.9
/// (1.5x), 1087x6664x2824 99.9 / 94.0 (1.6x); C's rows cost nothing. Where the padded call's model
/// (B's copy, then the kernel on 128-byte rows) beats the staged estimate with its steps times this,
/// `auto` copies.
inline constexpr double kAutoShortRowsCost = 1.4;

/// Where an aligned 16-bit shape splits K 3+ ways and whole K does not beat the split
/// (staged_whole_k_beats_split), the TMA kernel's split-K on the tile (128×256, ×192, ×128) whose
/// one wave of units finishes soonest: per tile, the splits that fill the SMs once (as the 128×256
/// rule, within kAutoMinStepsPerSplit, kMaxSplitK and kAutoWorkspaceCapBytes, evened out), costed
/// as steps per split × the tile's cost (kAutoNarrowTileCost, kAutoN192TileCost; the units are one wave on every tile);
/// ties to the wider tile. Returns a plan with splits == 1 where no tile splits 3+ ways.
AutoPlan tma_split_plan(Dims dims, int sm_count);

/// Whether tma_split_plan's split replaces the cp.async kernel's split of 128×256 tiles: where M
/// fills a 128-row tile. Under a tile of rows the cp.async kernel was faster on every shape
/// measured (all of them on the 128×256 tile; narrower TMA tiles under 128 rows are not measured).
/// H200, session 31, fp16 cold µs, TMA / cp.async split: 16x8192x8192 43.9 / 38.9, 90x5120x5120
/// 27.4 / 25.8, 64x11008x4096 34.4 / 32.4 (6-13 % slower on TMA, as session 17 saw); bf16 with
/// M ≥ 128 on 128×256 tiles 1024x1024x32768 97.3 / 116.8, 512x256x65536 41.1 / 41.8, 256x256x65536
/// 32.5 / 31.7; narrower tiles 512x384x32768 31.0 / 39.7 (n192), 128x128x131072 26.5 / 34.5 (n128).
bool tma_split_beats_cp_async(Dims dims);

/// The TMA split-K kernel on tiles `tile_n` wide: 256, 192 or 128 (wgmma_tma_split_k, _n192, _n128).
AutoKernel tma_split_kernel(int tile_n);

/// The tail split on tiles `tile_n` wide: 256, 192 or 128 (wgmma_tma_tail_split, _n192, _n128).
AutoKernel tma_tail_split_kernel(int tile_n);

/// Whether `plan` runs the staged kernel's tail split (on any tile).
constexpr bool runs_tma_tail_split(const AutoPlan& plan) {
  return plan.kernel == AutoKernel::wgmma_tma_tail_split || plan.kernel == AutoKernel::wgmma_tma_tail_split_n192 ||
         plan.kernel == AutoKernel::wgmma_tma_tail_split_n128;
}

/// An aligned whole-K plan (staged or padded, on any tile) of M ≥ 128 becomes the tail split on its
/// tile (plan_tail_split) where that is modelled this share of its time or less (tail_split_estimate_us
/// against padded_estimate_us, B's short rows charged to both where N % 64 != 0). H200, session 32,
/// bf16/fp16 cold µs, tail split / staged on the same tile: fp16 5120³ 361.0 / 406.2 (cuBLAS 357.8)
/// taken; 2056x2048x2048 42.4 / 37.9, 2048x2304x4096 (128×192) 70.8 / 66.4 not.
inline constexpr double kAutoTailSplitGain = 0.95;

/// Whether `plan` runs the TMA kernel's split-K (on any tile).
constexpr bool runs_tma_split_k(const AutoPlan& plan) {
  return plan.kernel == AutoKernel::wgmma_tma_split_k || plan.kernel == AutoKernel::wgmma_tma_split_k_n192 ||
         plan.kernel == AutoKernel::wgmma_tma_split_k_n128;
}

/// Aligned problems of at most this many rows that run the staged kernel whole K (or would split 2
/// ways) take its 128×256 tile whatever tile_rounds_cost says: the second consumer warpgroup's rows
/// all lie past M, so it issues no MMAs, and a 128×256 tile costs the MMAs of a 128×128 one with
/// half the A boxes per byte of B. H200, session 31, fp16 cold µs, 128×256 / 128×192 / 128×128:
/// 60x14336x5120 45.1 / 48.0 / 52.9, 32x14336x4096 41.2 / 43.9 / 47.0 (cuBLAS 41.1, 33.8).
inline constexpr int kAutoOneWarpgroupRows = 64;

/// The modelled time of a whole-K problem on the staged kernel's tiles `tile_n` wide, in 128×256
/// tile times: the busiest block's tile costs in the order its launch takes (plan_tile_schedule:
/// edge tiles cost their live panels and warpgroups).
double tile_rounds_cost(Dims dims, int tile_n, int sm_count);

/// The plan for C = A·B of `dims` in `dtype` on `device`. `pointers_aligned16`: A, B and C are
/// 16-byte aligned (cudaMalloc'd buffers are).
AutoPlan plan_auto(Dims dims, DType dtype, AutoDevice device, bool pointers_aligned16);

/// The largest workspace plan_auto can ask for on `dims`, on any device (the op's memory estimate).
std::size_t auto_workspace_bound(Dims dims);

}  // namespace kbench::matmul
