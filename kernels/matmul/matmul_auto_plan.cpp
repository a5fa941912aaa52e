#include "kernels/matmul/matmul_auto_plan.hpp"

#include "kernels/matmul/matmul_auto_padded.hpp"
#include "kernels/matmul/matmul_auto_split.hpp"
#include "kernels/matmul/matmul_auto_wgmma_tf32.hpp"
#include "kernels/matmul/matmul_gemv.hpp"
#include "kernels/matmul/matmul_kernels.hpp"
#include "kernels/matmul/matmul_tile_schedule.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace kbench::matmul {

namespace {

std::size_t slice_bytes(Dims dims) { return static_cast<std::size_t>(dims.m) * dims.n * sizeof(float); }

/// A staged TMA tile's time as a fraction of a 128×256 tile's (kAutoNarrowTileCost, kAutoN192TileCost).
double tile_cost(int tile_n) { return tile_n == 256 ? 1.0 : tile_n == 192 ? kAutoN192TileCost : kAutoNarrowTileCost; }

std::int64_t wgmma_tiles(Dims dims) { return ceil_div64(dims.m, kWgmmaTileM) * ceil_div64(dims.n, kWgmmaTileN); }

/// The K splits of `tiles` tiles that fill one wave (one block per SM: 197 KB of shared memory
/// each), within kAutoMinStepsPerSplit, kMaxSplitK and kAutoWorkspaceCapBytes, then evened out so
/// that no split is empty and none is longer than it needs to be (1 where fewer than 2 fit).
int wave_splits(Dims dims, std::int64_t tiles, int sm_count) {
  const std::int64_t steps = ceil_div64(dims.k, kWgmmaStepK);
  std::int64_t splits = sm_count / tiles;
  splits = std::min<std::int64_t>(splits, steps / kAutoMinStepsPerSplit);
  splits = std::min<std::int64_t>(splits, kMaxSplitK);
  splits = std::min<std::int64_t>(splits, static_cast<std::int64_t>(kAutoWorkspaceCapBytes / slice_bytes(dims)));
  if (splits < 2) return 1;
  const std::int64_t per_split = ceil_div64(steps, splits);
  return static_cast<int>(ceil_div64(steps, per_split));
}

/// K splits for the wgmma kernel: 1 while its 128×256 tiles fill half the SMs or more, else
/// wave_splits.
int wgmma_splits(Dims dims, int sm_count) {
  const std::int64_t tiles = wgmma_tiles(dims);
  if (2 * tiles > sm_count) return 1;
  return wave_splits(dims, tiles, sm_count);
}

AutoPlan split_or_whole(Dims dims, int sm_count) {
  const int splits = wgmma_splits(dims, sm_count);
  if (splits == 1) return {AutoKernel::wgmma_tma, 1, 0};
  return {AutoKernel::wgmma_split_k, splits, splits * slice_bytes(dims)};
}

/// The whole-K tile that finishes soonest by tile_rounds_cost, of 128×256 (when `wide_allowed`),
/// 128×192 (when `n192_allowed`) and 128×128, widest first: a narrower tile replaces the one chosen
/// so far only where its modelled cost is below kAutoNarrowerTileGain of that one's.
TmaTile fastest_tile(Dims dims, int sm_count, bool wide_allowed, bool n192_allowed) {
  TmaTile best = TmaTile::n128;
  double best_cost = std::numeric_limits<double>::infinity();  // none chosen yet
  for (const TmaTile tile : {TmaTile::n256, TmaTile::n192, TmaTile::n128}) {
    if ((tile == TmaTile::n256 && !wide_allowed) || (tile == TmaTile::n192 && !n192_allowed)) continue;
    const double cost = tile_rounds_cost(dims, tma_tile_n(tile), sm_count);
    if (std::isinf(best_cost) || cost < kAutoNarrowerTileGain * best_cost) best = tile, best_cost = cost;
  }
  return best;
}

AutoKernel staged_kernel(TmaTile tile) {
  switch (tile) {
    case TmaTile::n256: return AutoKernel::wgmma_tma_staged;
    case TmaTile::n192: return AutoKernel::wgmma_tma_staged_n192;
    case TmaTile::n128: return AutoKernel::wgmma_tma_staged_n128;
  }
  return AutoKernel::wgmma_tma_staged;
}

/// The staged TMA kernel's plan for a shape it can run (K, N multiples of 8, aligned pointers),
/// given the 128×256 plan: whole K on the tile that finishes soonest; 2 K splits become whole K on
/// 128×192 or 128×128 tiles (more blocks, each as many MMAs, no slices and no second kernel).
/// `n192_allowed`: the padded path has no 128×192 form.
AutoPlan staged(const AutoPlan& wide, Dims dims, int sm_count, bool n192_allowed = true) {
  if (wide.kernel == AutoKernel::wgmma_split_k && wide.splits != 2) return wide;
  const bool whole = wide.kernel != AutoKernel::wgmma_split_k;
  return {staged_kernel(fastest_tile(dims, sm_count, whole, n192_allowed)), 1, 0};
}

/// Shapes TMA cannot address (K or N not a multiple of 8, or misaligned pointers), given the 128×256
/// plan: where the staged kernel would run whole K (as staged() picks its tile), the padded call
/// if its model beats the element-wise wgmma kernel's, copying B rows that TMA could read but
/// that are not of 128-byte multiples only where the model says that pays; 3 or more K splits
/// stay on that kernel's split-K; few tiles that do not split stay on tensor_core (small problems).
AutoPlan unaligned(const AutoPlan& wide, Dims dims, int sm_count, bool pointers_aligned16) {
  const AutoPlan on_tma = staged(wide, dims, sm_count, false);
  const bool whole = wide.kernel != AutoKernel::wgmma_split_k;
  if (on_tma.kernel == AutoKernel::wgmma_split_k) return wide;
  if (whole && 2 * wgmma_tiles(dims) <= sm_count) return {AutoKernel::tensor_core, 1, 0};
  const TmaTile tile = on_tma.kernel == AutoKernel::wgmma_tma_staged ? TmaTile::n256 : TmaTile::n128;
  const bool a16 = pointers_aligned16;
  const PaddedLayout copied = padded_layout(dims, a16, a16, a16, ShortRows::copied);
  const PaddedLayout kept = padded_layout(dims, a16, a16, a16, ShortRows::kept);
  const double copied_us = padded_estimate_us(dims, copied, tile, sm_count);
  const double kept_us = padded_estimate_us(dims, kept, tile, sm_count);
  const AutoPlan fallback = whole ? AutoPlan{AutoKernel::wgmma, 1, 0} : wide;
  if (std::min(copied_us, kept_us) >= wgmma_elementwise_estimate_us(dims, wide.splits, sm_count)) return fallback;
  AutoPlan padded{tile == TmaTile::n256 ? AutoKernel::wgmma_tma_padded : AutoKernel::wgmma_tma_padded_n128, 1, 0};
  padded.short_rows = kept_us < copied_us ? ShortRows::kept : ShortRows::copied;
  padded.padded_bytes = (padded.short_rows == ShortRows::kept ? kept : copied).bytes;
  return padded;
}

/// An aligned shape's staged plan, or the padded call where B's rows are not of 128-byte
/// multiples (N % 64 != 0) and its model beats the staged kernel's estimate on such rows
/// (kAutoShortRowsCost); split-K plans stay as they are.
AutoPlan rows_of_128_bytes(const AutoPlan& direct, Dims dims, int sm_count) {
  const bool whole_k = direct.kernel == AutoKernel::wgmma_tma_staged ||
                       direct.kernel == AutoKernel::wgmma_tma_staged_n192 ||
                       direct.kernel == AutoKernel::wgmma_tma_staged_n128;
  const PaddedLayout layout = padded_layout(dims, true, true, true);
  if (!whole_k || layout.bytes == 0) return direct;
  const TmaTile tile = tma_tile_of_width(auto_tma_tile_n(direct.kernel));
  const double direct_us = padded_estimate_us(dims, PaddedLayout{}, tile, sm_count);  // short rows, no copies
  const double wide_us = padded_estimate_us(dims, layout, TmaTile::n256, sm_count);
  const double narrow_us = padded_estimate_us(dims, layout, TmaTile::n128, sm_count);
  const bool narrow = narrow_us < kAutoNarrowerTileGain * wide_us;
  if ((narrow ? narrow_us : wide_us) >= direct_us) return direct;
  AutoPlan padded{narrow ? AutoKernel::wgmma_tma_padded_n128 : AutoKernel::wgmma_tma_padded, 1, 0};
  padded.padded_bytes = layout.bytes;
  return padded;
}

/// An aligned whole-K plan (staged or padded) of M ≥ 128 as the tail split on its tile where that
/// is modelled kAutoTailSplitGain of its time or less; other plans as they are.
AutoPlan with_tail_split(const AutoPlan& whole, Dims dims, int sm_count) {
  const bool staged_plan = whole.kernel == AutoKernel::wgmma_tma_staged ||
                           whole.kernel == AutoKernel::wgmma_tma_staged_n192 ||
                           whole.kernel == AutoKernel::wgmma_tma_staged_n128;
  const bool padded_plan = whole.kernel == AutoKernel::wgmma_tma_padded || whole.kernel == AutoKernel::wgmma_tma_padded_n128;
  if ((!staged_plan && !padded_plan) || dims.m < kWgmmaTileM) return whole;  // few rows stream B: no parts
  const int tile_n = auto_tma_tile_n(whole.kernel);
  const TailSplit tail = plan_tail_split(dims, tile_n, sm_count);
  if (tail.splits < 2) return whole;
  const TmaTile tile = tma_tile_of_width(tile_n);
  const PaddedLayout layout = padded_plan ? padded_layout(dims, true, true, true) : PaddedLayout{};
  if (tail_split_estimate_us(dims, tile, sm_count, tail) > kAutoTailSplitGain * padded_estimate_us(dims, layout, tile, sm_count)) {
    return whole;
  }
  AutoPlan split{tma_tail_split_kernel(tile_n), tail.splits, tail_split_parts_bytes(tail, tile_n)};
  split.tail = tail;
  return split;
}

/// TF32: the mma.sync plan of the split model, or on compute capability 9.0 the TF32 wgmma kernel
/// where its model (Bᵀ pre-pass included) is faster. TMA reads rows of 16-byte multiples: where K
/// is not a multiple of 4, Bᵀ is written with rows of K rounded up to 4 (zeros past K) and A
/// copied into such rows (launch_pad_rows_fp32, charged to the estimate), and the kernel runs on K
/// rounded up.
AutoPlan plan_tf32(Dims dims, AutoDevice device, bool fp32_aligned, bool pointers_aligned16) {
  const SplitModelChoice mma = choose_split_model(dims, tf32_kernels(fp32_aligned, dims.m), device.sm_count);
  if (!device.wgmma || !pointers_aligned16) return mma.plan;
  const Dims padded = wgmma_tf32_dims(dims);
  const std::size_t padded_a = dims.k == padded.k ? 0 : wgmma_tf32_padded_a_bytes(dims);
  const double pad_us = padded_a == 0 ? 0.0 : wgmma_tf32_pad_a_us(dims);
  const int splits = wgmma_tf32_best_splits(padded, device.sm_count);
  if (pad_us + wgmma_tf32_estimate_us(padded, splits, device.sm_count) >= mma.us) return mma.plan;
  AutoPlan plan{splits == 1 ? AutoKernel::wgmma_tf32 : AutoKernel::wgmma_tf32_split_k, splits,
                splits == 1 ? 0 : splits * slice_bytes(dims), wgmma_tf32_transposed_b_bytes(dims)};
  plan.padded_bytes = padded_a;
  return plan;
}

}  // namespace

static_assert(kGemvWorkspaceCapBytes <= kAutoWorkspaceCapBytes, "gemv plans keep auto's workspace cap");

bool gemv_takes(Dims dims, DType dtype, bool pointers_aligned16) {
  if (dims.m > kGemvMaxRows) return false;
  if (element_size(dtype) != 2 || dims.m <= kAutoGemvMaxRows16) return true;
  return !(dims.k % 8 == 0 && dims.n % 8 == 0 && pointers_aligned16);
}

bool staged_whole_k_beats_split(Dims dims, int sm_count) {
  const std::int64_t narrow_tiles = ceil_div64(dims.m, kWgmmaTileM) * ceil_div64(dims.n, tma_tile_n(TmaTile::n128));
  return dims.m >= kWgmmaTileM && ceil_div64(dims.k, kWgmmaStepK) <= kAutoWholeKMaxSteps && 4 * narrow_tiles >= sm_count;
}

double tile_rounds_cost(Dims dims, int tile_n, int sm_count) {
  return plan_tile_schedule(dims, tile_n, sm_count).busiest_cost;
}

AutoPlan tma_split_plan(Dims dims, int sm_count) {
  const std::int64_t steps = ceil_div64(dims.k, kWgmmaStepK);
  AutoPlan best{AutoKernel::wgmma_tma_split_k, 1, 0};
  double best_cost = 0;
  for (const TmaTile tile : {TmaTile::n256, TmaTile::n192, TmaTile::n128}) {
    const int tile_n = tma_tile_n(tile);
    const std::int64_t tiles = ceil_div64(dims.m, kWgmmaTileM) * ceil_div64(dims.n, tile_n);
    const int splits = wave_splits(dims, tiles, sm_count);
    if (splits < 3) continue;
    const double cost = static_cast<double>(ceil_div64(steps, splits)) * tile_cost(tile_n);  // one wave of units
    if (best.splits > 1 && cost >= best_cost) continue;
    best = {tma_split_kernel(tile_n), splits, splits * slice_bytes(dims)};
    best_cost = cost;
  }
  return best;
}

bool tma_split_beats_cp_async(Dims dims) { return dims.m >= kWgmmaTileM; }

AutoKernel tma_tail_split_kernel(int tile_n) {
  return tile_n == 192 ? AutoKernel::wgmma_tma_tail_split_n192
         : tile_n == 128 ? AutoKernel::wgmma_tma_tail_split_n128
                         : AutoKernel::wgmma_tma_tail_split;
}

AutoKernel tma_split_kernel(int tile_n) {
  return tile_n == 192 ? AutoKernel::wgmma_tma_split_k_n192
         : tile_n == 128 ? AutoKernel::wgmma_tma_split_k_n128
                         : AutoKernel::wgmma_tma_split_k;
}

int auto_tma_tile_n(AutoKernel kernel) {
  switch (kernel) {
    case AutoKernel::wgmma_tma_staged:
    case AutoKernel::wgmma_tma_padded:
    case AutoKernel::wgmma_tma_split_k:
    case AutoKernel::wgmma_tma_tail_split: return 256;
    case AutoKernel::wgmma_tma_staged_n192:
    case AutoKernel::wgmma_tma_split_k_n192:
    case AutoKernel::wgmma_tma_tail_split_n192: return 192;
    case AutoKernel::wgmma_tma_staged_n128:
    case AutoKernel::wgmma_tma_padded_n128:
    case AutoKernel::wgmma_tma_split_k_n128:
    case AutoKernel::wgmma_tma_tail_split_n128: return 128;
    default: return 0;
  }
}

std::string_view auto_kernel_name(AutoKernel kernel) {
  switch (kernel) {
    case AutoKernel::register_blocked: return "register_blocked";
    case AutoKernel::register_blocked_split_k: return "register_blocked_split_k";
    case AutoKernel::small_simt: return "small_simt";
    case AutoKernel::small_simt_split_k: return "small_simt_split_k";
    case AutoKernel::outer_simt: return "outer_simt";
    case AutoKernel::outer_simt_split_k: return "outer_simt_split_k";
    case AutoKernel::tensor_core: return "tensor_core";
    case AutoKernel::tensor_core_split_k: return "tensor_core_split_k";
    case AutoKernel::tensor_core_small_split_k: return "tensor_core_small_split_k";
    case AutoKernel::wgmma: return "wgmma";
    case AutoKernel::wgmma_tma: return "wgmma_tma";
    case AutoKernel::wgmma_tma_staged: return "wgmma_tma_staged";
    case AutoKernel::wgmma_tma_staged_n192: return "wgmma_tma_staged_n192";
    case AutoKernel::wgmma_tma_staged_n128: return "wgmma_tma_staged_n128";
    case AutoKernel::wgmma_tma_padded: return "wgmma_tma_padded";
    case AutoKernel::wgmma_tma_padded_n128: return "wgmma_tma_padded_n128";
    case AutoKernel::wgmma_split_k: return "wgmma_split_k";
    case AutoKernel::wgmma_tma_split_k: return "wgmma_tma_split_k";
    case AutoKernel::wgmma_tma_split_k_n192: return "wgmma_tma_split_k_n192";
    case AutoKernel::wgmma_tma_split_k_n128: return "wgmma_tma_split_k_n128";
    case AutoKernel::wgmma_tma_tail_split: return "wgmma_tma_tail_split";
    case AutoKernel::wgmma_tma_tail_split_n192: return "wgmma_tma_tail_split_n192";
    case AutoKernel::wgmma_tma_tail_split_n128: return "wgmma_tma_tail_split_n128";
    case AutoKernel::wgmma_tf32: return "wgmma_tf32";
    case AutoKernel::wgmma_tf32_split_k: return "wgmma_tf32_split_k";
    case AutoKernel::gemv: return "gemv";
  }
  return "?";
}

AutoPlan plan_auto(Dims dims, DType dtype, AutoDevice device, bool pointers_aligned16) {
  // M of 1 to 8: C is M weighted column sums of B, bound by reading B once (NOTES.md, "GEMV"); in
  // 16-bit at 5-8 rows only where the shape is not one the staged TMA kernel reads.
  if (gemv_takes(dims, dtype, pointers_aligned16)) {
    const int chunks = gemv_chunks(dims, element_size(dtype), device.sm_count, device.shared_memory_per_sm);
    return {AutoKernel::gemv, chunks, gemv_workspace_bytes(dims, element_size(dtype), chunks)};
  }
  // fp32 and TF32: the SIMT / mma.sync kernel and K split with the lowest modelled time
  // (matmul_auto_split.hpp). Their 16-byte paths need K and N multiples of 4; the fp32 small tiles
  // read A from a padded copy where K is not one (or a pointer is misaligned).
  const bool fp32_aligned = dims.k % 4 == 0 && dims.n % 4 == 0 && pointers_aligned16;
  if (dtype == DType::f32) {
    AutoPlan plan = plan_split_model(dims, fp32_kernels(dims, pointers_aligned16), device.sm_count);
    if (runs_small_simt(plan) && simt_pads_a(dims, pointers_aligned16)) plan.padded_bytes = simt_padded_a_bytes(dims);
    if (runs_outer_simt(plan)) plan.padded_bytes = static_cast<std::size_t>(outer_at_bytes(dims));
    return plan;
  }
  if (dtype == DType::tf32) return plan_tf32(dims, device, fp32_aligned, pointers_aligned16);
  if (!device.wgmma) return {AutoKernel::tensor_core, 1, 0};
  const double volume = static_cast<double>(dims.m) * dims.n * dims.k;
  if (volume <= kAutoSmallVolume) return {AutoKernel::tensor_core, 1, 0};
  // Aligned shapes run the staged TMA kernel where they run whole K (and instead of 2 splits; M ≤
  // 64 on its 128×256 tile), which needs K and N multiples of 8 and 16-byte pointers
  // (wgmma_tma_staged_unsupported), on a copy of B with rows of 128-byte multiples where that is
  // modelled faster; 3+ splits of M ≥ 128 the TMA kernel's split-K (tma_split_plan).
  // Other shapes run the same kernel on padded copies where the padded call's model is faster
  // than the cp.async wgmma kernel's element-wise copies (unaligned()).
  const bool aligned = dims.k % 8 == 0 && dims.n % 8 == 0 && pointers_aligned16;
  const AutoPlan plan = split_or_whole(dims, device.sm_count);
  if (aligned && plan.kernel == AutoKernel::wgmma_split_k && plan.splits > 2 &&
      staged_whole_k_beats_split(dims, device.sm_count)) {
    return rows_of_128_bytes({staged_kernel(fastest_tile(dims, device.sm_count, false, true)), 1, 0}, dims,
                             device.sm_count);
  }
  if (aligned && plan.kernel == AutoKernel::wgmma_split_k && plan.splits > 2 && tma_split_beats_cp_async(dims)) {
    const AutoPlan split = tma_split_plan(dims, device.sm_count);
    if (split.splits > 1) return split;
  }
  if (aligned) {
    AutoPlan direct = staged(plan, dims, device.sm_count);
    if (dims.m <= kAutoOneWarpgroupRows && direct.splits == 1) direct = {AutoKernel::wgmma_tma_staged, 1, 0};
    return with_tail_split(rows_of_128_bytes(direct, dims, device.sm_count), dims, device.sm_count);
  }
  return unaligned(plan, dims, device.sm_count, pointers_aligned16);
}

std::size_t auto_workspace_bound(Dims dims) {
  const std::size_t split_k = std::min(kAutoWorkspaceCapBytes, static_cast<std::size_t>(kMaxSplitK) * slice_bytes(dims));
  if (dims.m > kGemvMaxRows) return split_k;
  // fp32's strips are the narrowest (the most tickets); the slices are the same in every dtype.
  return std::max(split_k, gemv_workspace_bytes(dims, sizeof(float), gemv_most_chunks(dims, sizeof(float))));
}

}  // namespace kbench::matmul
