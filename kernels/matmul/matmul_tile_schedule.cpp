#include "kernels/matmul/matmul_tile_schedule.hpp"

#include "kernels/matmul/matmul_auto_plan.hpp"
#include "kernels/matmul/matmul_kernels.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace kbench::matmul {

namespace {

constexpr bool near(double a, double b) { return a - b < 1e-9 && b - a < 1e-9; }
static_assert(near(kTileFixedCost + (1 - kTileFixedCost) * 0.5, kAutoNarrowTileCost), "the 128-wide tile lies on the line");
static_assert(near(kTileFixedCost + (1 - kTileFixedCost) * 0.75, kAutoN192TileCost), "the 192-wide tile lies on the line");

/// Beyond this many tiles the busiest block is not replayed: the grouped order's rounds of whole
/// tiles (edges cost at most a tile, and are a vanishing share).
constexpr std::int64_t kReplayedTiles = std::int64_t{1} << 20;

constexpr int kRowsPerWarpgroup = kWgmmaTileM / 2;

/// The edges-last order replaces the grouped one only where its busiest block is below this share of
/// the grouped one's: the grouped order keeps the blocks running at once on shared panels of A and B.
constexpr double kEdgesLastGain = 0.98;

std::int64_t tile_count(Dims dims, int tile_n) {
  return ceil_div64(dims.m, kWgmmaTileM) * ceil_div64(dims.n, tile_n);
}

}  // namespace

double tile_cost_at(Dims dims, int tile_n, TileCoord coord) {
  const int panels = live_panels(dims.n, coord.col, tile_n);
  const int rows_left = dims.m - coord.row * kWgmmaTileM;
  const int warpgroups = rows_left > kRowsPerWarpgroup ? 2 : 1;
  return kTileFixedCost + (1 - kTileFixedCost) * (panels / 4.0) * (warpgroups / 2.0);
}

TileOrder edges_last_order(Dims dims, int tile_n) {
  const int tiles_m = static_cast<int>(ceil_div64(dims.m, kWgmmaTileM));
  const int tiles_n = static_cast<int>(ceil_div64(dims.n, tile_n));
  const bool narrow_column = live_panels(dims.n, tiles_n - 1, tile_n) < tile_n / 64;
  const bool short_row = dims.m - (tiles_m - 1) * kWgmmaTileM <= kRowsPerWarpgroup;
  TileOrder order;
  order.interior_rows = short_row ? tiles_m - 1 : tiles_m;
  order.interior_cols = narrow_column ? tiles_n - 1 : tiles_n;
  if (order.interior_rows == 0 || order.interior_cols == 0) return TileOrder{};  // every tile an edge
  return order;
}

namespace {

/// The busiest block's summed tile costs when `blocks` blocks take units b, b + blocks, ... of the
/// first `units` tiles in `order`.
double replay_busiest(Dims dims, int tile_n, std::int64_t blocks, std::int64_t units, TileOrder order) {
  const int tiles_m = static_cast<int>(ceil_div64(dims.m, kWgmmaTileM));
  const int tiles_n = static_cast<int>(ceil_div64(dims.n, tile_n));
  std::vector<double> busy(static_cast<std::size_t>(blocks), 0.0);
  for (std::int64_t unit = 0; unit < units; ++unit) {
    const TileCoord coord = ordered_tile(static_cast<int>(unit), tiles_m, tiles_n, order);
    busy[static_cast<std::size_t>(unit % blocks)] += tile_cost_at(dims, tile_n, coord);
  }
  return *std::max_element(busy.begin(), busy.end());
}

}  // namespace

double busiest_block_cost(Dims dims, int tile_n, int sm_count, TileOrder order) {
  const std::int64_t tiles = tile_count(dims, tile_n);
  const std::int64_t blocks = std::max<std::int64_t>(1, std::min<std::int64_t>(tiles, sm_count));
  if (tiles > kReplayedTiles) return static_cast<double>(ceil_div64(tiles, blocks)) * tile_cost_at(dims, tile_n, {0, 0});
  return replay_busiest(dims, tile_n, blocks, tiles, order);
}

TileSchedule plan_tile_schedule(Dims dims, int tile_n, int sm_count) {
  const double grouped = busiest_block_cost(dims, tile_n, sm_count, TileOrder{});
  const TileOrder edges_last = edges_last_order(dims, tile_n);
  const bool has_edges = edges_last.interior_rows > 0 && (edges_last.interior_rows * std::int64_t{edges_last.interior_cols} <
                                                           tile_count(dims, tile_n));
  if (!has_edges || tile_count(dims, tile_n) > kReplayedTiles) return {TileOrder{}, grouped};
  const double last = busiest_block_cost(dims, tile_n, sm_count, edges_last);
  if (last < kEdgesLastGain * grouped) return {edges_last, last};
  return {TileOrder{}, grouped};
}

TailSplit plan_tail_split(Dims dims, int tile_n, int sm_count) {
  const std::int64_t tiles = tile_count(dims, tile_n);
  if (sm_count < 1 || tiles <= sm_count || tiles > kReplayedTiles || tiles % sm_count == 0) return TailSplit{};
  const std::int64_t tail = tiles % sm_count;
  const std::int64_t steps = ceil_div64(dims.k, kWgmmaStepK);
  const std::int64_t part_bytes = tail * kWgmmaTileM * tile_n * static_cast<std::int64_t>(sizeof(float));
  const std::int64_t splits = std::min<std::int64_t>({sm_count / tail, steps / kAutoMinStepsPerSplit, kMaxSplitK,
                                                      static_cast<std::int64_t>(kAutoWorkspaceCapBytes) / part_bytes});
  if (splits < 2) return TailSplit{};
  TailSplit plan;
  plan.whole_tiles = static_cast<int>(tiles - tail);
  plan.tail_tiles = static_cast<int>(tail);
  plan.splits = static_cast<int>(ceil_div64(steps, ceil_div64(steps, splits)));  // none empty, none longer than needed
  plan.order = plan_tile_schedule(dims, tile_n, sm_count).order;
  return plan;
}

std::size_t tail_split_parts_bytes(const TailSplit& plan, int tile_n) {
  return static_cast<std::size_t>(plan.splits) * plan.tail_tiles * kWgmmaTileM * tile_n * sizeof(float);
}

double tail_split_busiest_steps(Dims dims, int tile_n, int sm_count, const TailSplit& plan) {
  const std::int64_t steps = ceil_div64(dims.k, kWgmmaStepK);
  const double whole = replay_busiest(dims, tile_n, sm_count, plan.whole_tiles, plan.order);
  const int tiles_m = static_cast<int>(ceil_div64(dims.m, kWgmmaTileM));
  const int tiles_n = static_cast<int>(ceil_div64(dims.n, tile_n));
  double tail = 0;
  for (int t = 0; t < plan.tail_tiles; ++t) {
    const TileCoord coord = ordered_tile(plan.whole_tiles + t, tiles_m, tiles_n, plan.order);
    tail = std::max(tail, tile_cost_at(dims, tile_n, coord));
  }
  return whole * static_cast<double>(steps) + tail * static_cast<double>(ceil_div64(steps, plan.splits));
}

}  // namespace kbench::matmul
