#pragma once
/// The cost model of a whole-K launch of the staged TMA kernel: what each tile costs (its live
/// panels and warpgroups), the busiest block's sum under an order, and the order a launch takes.
/// Host-only; the launchers and `auto` share it (NOTES.md, "Narrow edge tiles, and edge tiles last").

#include "kernels/matmul/matmul_problem.hpp"
#include "kernels/matmul/tile_order.hpp"

#include <cstddef>

namespace kbench::matmul {

/// A tile's fixed share of a 128×256 tile's time; the rest scales with its live width / 256 and
/// its warpgroups holding rows / 2. kAutoNarrowTileCost (128 wide) and kAutoN192TileCost lie on
/// this line; a tile whose rows fit one warpgroup costs as a tile half as wide.
inline constexpr double kTileFixedCost = 0.15;

/// The time of the tile at `coord` of a launch on tiles `tile_n` wide, in 128×256 tile times.
double tile_cost_at(Dims dims, int tile_n, TileCoord coord);

/// Edge tiles last: the interior is every tile but the last column where its live panels are
/// fewer than the tile's, and the last row where its rows fit one warpgroup (64).
TileOrder edges_last_order(Dims dims, int tile_n);

/// The busiest block's summed tile costs when min(tiles, SMs) blocks take tiles b, b + blocks, ...
/// in `order`.
double busiest_block_cost(Dims dims, int tile_n, int sm_count, TileOrder order);

/// A whole-K launch's order and its busiest block's cost: edges last where that is more than 2 %
/// cheaper than the grouped order (which keeps the blocks running at once on shared panels of A
/// and B), else grouped.
struct TileSchedule {
  TileOrder order;
  double busiest_cost = 0;
};
TileSchedule plan_tile_schedule(Dims dims, int tile_n, int sm_count);

/// The tail split of a whole-K launch whose tiles pass a whole number of rounds on the SMs: the
/// first whole_tiles tiles (whole rounds, in `order`) run whole, then each of the tail_tiles tiles
/// of the last, partial round runs as `splits` units of K steps on as many blocks, their fp32 parts
/// added by a second kernel (launch_wgmma_tma_tail_split). splits == 1: no tail split.
struct TailSplit {
  int whole_tiles = 0;
  int tail_tiles = 0;
  int splits = 1;
  TileOrder order;
};

/// The tail split on tiles `tile_n` wide: the order plan_tile_schedule picks; the tail's splits fill
/// the SMs once (tail × splits ≤ SMs), each at least kAutoMinStepsPerSplit steps, at most
/// kMaxSplitK, the parts within kAutoWorkspaceCapBytes, then evened out. None (splits 1) where the
/// tiles fill the SMs at most once or a whole number of times, or fewer than 2 splits fit.
TailSplit plan_tail_split(Dims dims, int tile_n, int sm_count);

/// The parts buffer of `plan`: splits × tail_tiles × 128 × tile_n fp32.
std::size_t tail_split_parts_bytes(const TailSplit& plan, int tile_n);

/// The modelled busiest block of `plan`, in 128×256 tile-steps (a tile's cost × its 64-deep
/// steps): the whole rounds' busiest block (their replay) plus the costliest tail unit.
double tail_split_busiest_steps(Dims dims, int tile_n, int sm_count, const TailSplit& plan);

}  // namespace kbench::matmul
