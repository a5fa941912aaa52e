// The TMA kernel's tile order and its cost model (kernels/matmul/tile_order.hpp,
// matmul_tile_schedule.hpp): every tile walked once in either order, the live panels of edge
// tiles, and where a launch takes the edges-last order. No GPU.
#include "kernels/matmul/matmul_auto_plan.hpp"
#include "kernels/matmul/matmul_tile_schedule.hpp"
#include "kernels/matmul/tile_order.hpp"
#include "support/catch.hpp"

#include <cstdint>
#include <set>
#include <utility>
#include <vector>

using namespace kbench::matmul;

namespace {

constexpr int kSms = 132;

int tiles_along(int extent, int tile) { return (extent + tile - 1) / tile; }

/// Every (row, col) of the tiles_m × tiles_n grid, reached once by units 0 .. tiles − 1.
void check_walks_every_tile_once(int tiles_m, int tiles_n, TileOrder order) {
  std::set<std::pair<int, int>> seen;
  for (int unit = 0; unit < tiles_m * tiles_n; ++unit) {
    const TileCoord c = ordered_tile(unit, tiles_m, tiles_n, order);
    INFO("unit " << unit << " -> (" << c.row << ", " << c.col << ")");
    REQUIRE(c.row >= 0);
    REQUIRE(c.row < tiles_m);
    REQUIRE(c.col >= 0);
    REQUIRE(c.col < tiles_n);
    REQUIRE(seen.insert({c.row, c.col}).second);
  }
  CHECK(static_cast<int>(seen.size()) == tiles_m * tiles_n);
}

}  // namespace

TEST_CASE("tile order: grouped and edges-last orders each walk every tile exactly once", "[matmul][tile_order]") {
  for (const auto& [tiles_m, tiles_n] : std::vector<std::pair<int, int>>{{1, 1}, {1, 9}, {9, 1}, {17, 9}, {16, 9}, {3, 40}, {33, 17}}) {
    INFO(tiles_m << " x " << tiles_n << " tiles");
    check_walks_every_tile_once(tiles_m, tiles_n, TileOrder{});
    check_walks_every_tile_once(tiles_m, tiles_n, TileOrder{tiles_m, tiles_n - (tiles_n > 1)});
    if (tiles_m > 1) check_walks_every_tile_once(tiles_m, tiles_n, TileOrder{tiles_m - 1, tiles_n});
    if (tiles_m > 1 && tiles_n > 1) check_walks_every_tile_once(tiles_m, tiles_n, TileOrder{tiles_m - 1, tiles_n - 1});
  }
}

TEST_CASE("tile order: edges last puts the interior first, then the last column, then the last row",
          "[matmul][tile_order]") {
  const TileOrder order{2, 3};  // 3 x 4 tiles
  CHECK(ordered_tile(5, 3, 4, order).col < 3);
  const TileCoord column_edge = ordered_tile(6, 3, 4, order);
  CHECK((column_edge.row == 0 && column_edge.col == 3));
  const TileCoord column_edge_end = ordered_tile(7, 3, 4, order);
  CHECK((column_edge_end.row == 1 && column_edge_end.col == 3));
  const TileCoord corner = ordered_tile(11, 3, 4, order);
  CHECK((corner.row == 2 && corner.col == 3));
}

TEST_CASE("live panels: the 64-wide panels of B an edge tile spans inside N", "[matmul][tile_order]") {
  CHECK(live_panels(2056, 0, 256) == 4);
  CHECK(live_panels(2056, 8, 256) == 1);  // 8 columns
  CHECK(live_panels(2120, 8, 256) == 2);  // 72
  CHECK(live_panels(2240, 8, 256) == 3);  // 192
  CHECK(live_panels(2304, 8, 256) == 4);
  CHECK(live_panels(1544, 8, 192) == 1);
  CHECK(live_panels(1032, 8, 128) == 1);
  CHECK(live_panels(8, 0, 128) == 1);
}

TEST_CASE("tile costs lie on the narrow tiles' line: live panels and warpgroups holding rows",
          "[matmul][tile_order]") {
  CHECK(tile_cost_at({2048, 2048, 64}, 256, {0, 0}) == Approx(1.0));
  CHECK(tile_cost_at({2048, 2048, 64}, 128, {0, 0}) == Approx(kAutoNarrowTileCost));
  CHECK(tile_cost_at({2048, 2304, 64}, 192, {0, 0}) == Approx(kAutoN192TileCost));
  CHECK(tile_cost_at({2048, 2056, 64}, 256, {0, 8}) == Approx(0.3625));       // one live panel
  CHECK(tile_cost_at({2056, 2048, 64}, 256, {16, 0}) == Approx(kAutoNarrowTileCost));  // 8 rows: one warpgroup
  CHECK(tile_cost_at({2120, 2048, 64}, 256, {16, 0}) == Approx(1.0));         // 72 rows: both
}

TEST_CASE("tile schedule: edges go last where the busiest block gains, the grouped order stays elsewhere",
          "[matmul][tile_order]") {
  // 2048x2056 on 128x256: 144 tiles, 16 of one live panel. Grouped, blocks 0-3 take two whole
  // tiles; edges last, 128 whole tiles then the 16 edges: at most a tile and an edge.
  const TileSchedule wide = plan_tile_schedule({2048, 2056, 200}, 256, kSms);
  CHECK(wide.order.interior_rows == 16);
  CHECK(wide.order.interior_cols == 8);
  CHECK(wide.busiest_cost == Approx(1.3625));
  CHECK(busiest_block_cost({2048, 2056, 200}, 256, kSms, TileOrder{}) == Approx(2.0));
  CHECK(plan_tile_schedule({2048, 1544, 200}, 192, kSms).order.interior_cols == 8);
  CHECK(plan_tile_schedule({2048, 1032, 200}, 128, kSms).order.interior_cols == 8);
  const TileSchedule both = plan_tile_schedule({2053, 2120, 72}, 256, kSms);
  CHECK(both.order.interior_rows == 16);
  CHECK(both.order.interior_cols == 8);
  // The grouped order already puts these edges last (one group of tile rows, or the last row), or
  // nothing is an edge: the order stays grouped.
  for (const Dims dims : {Dims{1024, 4104, 520}, Dims{2056, 2048, 136}, Dims{4096, 4096, 4096}, Dims{8192, 8192, 64}}) {
    INFO(dims.m << "x" << dims.n << "x" << dims.k);
    const TileSchedule s = plan_tile_schedule(dims, 256, kSms);
    CHECK(s.order.interior_rows == 0);
    CHECK(s.order.interior_cols == 0);
  }
}

TEST_CASE("tile schedule: without edge tiles, the busiest block is the rounds of whole tiles times the tile's cost",
          "[matmul][tile_order]") {
  for (const Dims dims : {Dims{4096, 4096, 4096}, Dims{2048, 2048, 2048}, Dims{1536, 2816, 200}, Dims{8192, 8192, 1024}}) {
    for (const int tile_n : {256, 128}) {
      INFO(dims.m << "x" << dims.n << " on " << tile_n);
      const std::int64_t tiles = std::int64_t{tiles_along(dims.m, 128)} * tiles_along(dims.n, tile_n);
      const double rounds = static_cast<double>((tiles + kSms - 1) / kSms);
      CHECK(tile_rounds_cost(dims, tile_n, kSms) == Approx(rounds * (tile_n == 256 ? 1.0 : kAutoNarrowTileCost)));
    }
  }
}
