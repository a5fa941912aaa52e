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

double busiest_block_cost(Dims dims, int tile_n, int sm_count, TileOrder order) {
  const std::int64_t tiles = tile_count(dims, tile_n);
  const std::int64_t blocks = std::max<std::int64_t>(1, std::min<std::int64_t>(tiles, sm_count));
  if (tiles > kReplayedTiles) return static_cast<double>(ceil_div64(tiles, blocks)) * tile_cost_at(dims, tile_n, {0, 0});
  const int tiles_m = static_cast<int>(ceil_div64(dims.m, kWgmmaTileM));
  const int tiles_n = static_cast<int>(ceil_div64(dims.n, tile_n));
  std::vector<double> busy(static_cast<std::size_t>(blocks), 0.0);
  for (std::int64_t unit = 0; unit < tiles; ++unit) {
    const TileCoord coord = ordered_tile(static_cast<int>(unit), tiles_m, tiles_n, order);
    busy[static_cast<std::size_t>(unit % blocks)] += tile_cost_at(dims, tile_n, coord);
  }
  return *std::max_element(busy.begin(), busy.end());
}

TileSchedule plan_tile_schedule(Dims dims, int tile_n, int sm_count) {
  const double grouped = busiest_block_cost(dims, tile_n, sm_count, TileOrder{});
  const TileOrder edges_last = edges_last_order(dims, tile_n);
  const bool has_edges = edges_last.interior_rows > 0 && (edges_last.interior_rows * std::int64_t{edges_last.interior_cols} <
                                                           tile_count(dims, tile_n));
  if (!has_edges || tile_count(dims, tile_n) > kReplayedTiles) return {TileOrder{}, grouped};
  const double last = busiest_block_cost(dims, tile_n, sm_count, edges_last);
  if (last < 0.98 * grouped) return {edges_last, last};
  return {TileOrder{}, grouped};
}

}  // namespace kbench::matmul
