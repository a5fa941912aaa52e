#pragma once
/// The padded TMA path's half of matmul's `auto` rule for 16-bit shapes TMA cannot address (K or N
/// not a multiple of 8, or misaligned operands; and aligned ones whose B rows are not 128-byte
/// multiples) on compute capability 9.0: a fixed cost model of a
/// wgmma_tma_padded call (its copies, then the staged kernel) against one of the cp.async `wgmma`
/// kernel's element-wise copies, which such shapes ran before; no timing at run time.
/// kernels/matmul/NOTES.md ("wgmma_tma_padded") gives the constants' sources and the predictions.
/// Host-only.

#include "kernels/matmul/matmul_kernels.hpp"
#include "kernels/matmul/matmul_padded_layout.hpp"
#include "kernels/matmul/matmul_problem.hpp"
#include "kernels/matmul/matmul_tile_schedule.hpp"

namespace kbench::matmul {

/// The staged TMA kernel's time on `tile`, whole K, in µs: a fixed cost plus the busiest block's
/// tile costs (tile_rounds_cost) × 64-deep steps × the 128×256 tile's step time.
double staged_estimate_us(Dims dims, TmaTile tile, int sm_count);

/// The staged kernel's tail split of `plan` on `tile`, in µs: the fixed cost, its busiest block's
/// tile-steps (tail_split_busiest_steps; × kAutoShortRowsCost where B's rows are not of 128-byte
/// multiples), the parts written and read back, and the second kernel's launch.
double tail_split_estimate_us(Dims dims, TmaTile tile, int sm_count, const TailSplit& plan);

/// A wgmma_tma_padded call in µs: staged_estimate_us (its steps times kAutoShortRowsCost where the
/// kernel reads B in rows that are not of 128-byte multiples), plus each copy kernel's launch
/// and the bytes the copies move (padded_extra_bytes) at a copy's rate. A layout that copies
/// nothing models the staged kernel on the caller's operands.
double padded_estimate_us(Dims dims, const PaddedLayout& layout, TmaTile tile, int sm_count);

/// The cp.async wgmma kernel with its element-wise copies, K split `splits` ways (1: whole K), in
/// µs: waves of one block per SM × steps per split × its element-wise step time, plus the split's
/// reduction.
double wgmma_elementwise_estimate_us(Dims dims, int splits, int sm_count);

}  // namespace kbench::matmul
