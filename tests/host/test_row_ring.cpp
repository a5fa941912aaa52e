// The ring of whole-row tiles that softmax's and the row reductions' ring_rows kernels stream
// (kernels/common/row_ring.hpp): every tile but the last is whole 16-byte vectors (so bulk
// copies can move it from an aligned tensor), the tiles cover the rows once, the grid covers the
// tiles within tiles_per_block rounds without idle blocks, the slots fit shared memory, and a
// lane group holds any row up to kRingMaxCols. No GPU needed.
#include "kernels/common/row_ring.hpp"
#include "kernels/softmax/softmax_thread_rows.hpp"
#include "support/catch.hpp"

#include <algorithm>
#include <cstdint>

using namespace kbench;

namespace {

constexpr std::int64_t kH100Sms = 132;
constexpr std::int64_t kSharedPerSm = 227 * 1024;  ///< the H100's dynamic shared memory per SM

}  // namespace

TEST_CASE("ring tiles are whole 16-byte vectors near 8 KiB, and the grid covers them evenly", "[ring_rows]") {
  for (std::int64_t cols : {1, 2, 3, 5, 7, 31, 33, 61, 100, 127, 129, 257, 513, 1000, 1023, 1024}) {
    for (std::size_t size : {2u, 4u}) {
      for (std::int64_t rows : {1, 7, 4099, 65537, 262147, 2097152}) {
        INFO(rows << " x " << cols << ", " << size << "-byte elements");
        const std::int64_t resident = 4 * kH100Sms;
        const RowRingShape s = row_ring_shape(rows, cols, size, resident);
        const std::int64_t tile = s.rows_per_tile * cols * static_cast<std::int64_t>(size);
        CHECK(s.rows_per_tile % kRingTileRowMultiple == 0);
        CHECK(tile % 16 == 0);  // the next tile starts aligned: one bulk copy per tile
        CHECK(tile <= std::max<std::int64_t>(kRingTileTargetBytes, 8 * cols * static_cast<std::int64_t>(size)));
        CHECK(s.tiles * s.rows_per_tile >= rows);
        CHECK((s.tiles - 1) * s.rows_per_tile < rows);  // no empty tile
        CHECK(s.blocks >= 1);
        CHECK(s.blocks <= resident);
        CHECK(s.blocks * s.tiles_per_block >= s.tiles);         // every tile has a block
        CHECK((s.blocks - 1) * s.tiles_per_block < s.tiles);    // and every block a tile
        CHECK(s.tiles_per_block == (s.tiles + resident - 1) / resident);  // no more rounds than needed
        CHECK(s.slot_bytes % 128 == 0);
        CHECK(s.slot_bytes >= tile);
        CHECK(s.shared_bytes == kRingStages * s.slot_bytes);
        CHECK(s.shared_bytes <= ring_most_shared_bytes(size));
        CHECK(ring_most_shared_bytes(size) <= kSharedPerSm);  // one block fits an SM whatever the width
      }
    }
  }
  // The zoo's bf16 65536 x 100: 40 rows of 200 bytes per tile, 1639 tiles in 4 rounds of 410 blocks.
  const RowRingShape zoo = row_ring_shape(65536, 100, 2, 4 * kH100Sms);
  CHECK(zoo.rows_per_tile == 40);
  CHECK(zoo.tiles == 1639);
  CHECK(zoo.tiles_per_block == 4);
  CHECK(zoo.blocks == 410);
  CHECK(row_ring_shape(1, 1024, 4, 1).rows_per_tile == 8);  // 32 KiB: the largest tile
  CHECK(row_ring_shape(0, 7, 2, 528).blocks == 0);
}

TEST_CASE("a ring lane group holds any row up to 1024 elements in at most 32 lanes x 32 elements", "[ring_rows]") {
  for (std::int64_t cols = 1; cols <= kRingMaxCols; ++cols) {
    INFO(cols << " columns");
    const RowGroupShape g = row_group_shape(cols);
    CHECK((g.lanes & (g.lanes - 1)) == 0);
    CHECK(g.lanes <= 32);
    CHECK(static_cast<std::int64_t>(g.lanes) * g.per_lane >= cols);  // the row fits
    CHECK((g.per_lane == 8 || g.per_lane == 16 || g.per_lane == 32));
    if (g.lanes < 32) CHECK(g.per_lane == 8);
    if (g.lanes > 1) CHECK(static_cast<std::int64_t>(g.lanes) / 2 * 8 < cols);  // no fewer lanes would do
  }
  CHECK(row_group_shape(7).lanes == 1);
  CHECK(row_group_shape(61).lanes == 8);
  CHECK(row_group_shape(100).lanes == 16);
  CHECK(row_group_shape(129).lanes == 32);
  CHECK(row_group_shape(257).per_lane == 16);
  CHECK(row_group_shape(1000).per_lane == 32);
}

TEST_CASE("thread_rows cuts every row up to 64 columns into 1-2 parts that fit its slots, the second starting on "
          "the row's word phase, in tiles of whole block rounds",
          "[thread_rows]") {
  for (std::int64_t cols = 1; cols <= softmax::kThreadRowsMaxCols; ++cols) {
    INFO(cols << " columns");
    const softmax::ThreadRowsShape t = softmax::thread_rows_shape(cols);
    CHECK(t.lanes == (cols <= softmax::kThreadRowsOneThreadMaxCols ? 1 : 2));
    CHECK(t.first_part <= t.elements);
    CHECK(t.elements % 2 == 0);
    CHECK(t.elements >= softmax::kThreadRowsMinElements);
    CHECK(t.elements <= softmax::kThreadRowsMaxElements);
    if (t.lanes == 2) {
      CHECK(t.first_part % 2 == 0);  // the second part starts on the row's word phase
      CHECK(t.first_part < cols);    // and is not empty
      CHECK(cols - t.first_part <= t.first_part);
    } else {
      CHECK(t.first_part == cols);
    }
    if (t.elements > softmax::kThreadRowsMinElements) CHECK(t.first_part >= t.elements - 1);  // no empty slot but one
    const std::int64_t round_rows = kRingBlock / t.lanes;  // a row per group of lanes
    CHECK(t.rows_per_tile % round_rows == 0);
    const std::int64_t round_bytes = round_rows * cols * 2;
    CHECK(t.rows_per_tile * cols * 2 <= std::max(softmax::kThreadRowsTileTargetBytes, round_bytes));
    CHECK((t.rows_per_tile + round_rows) * cols * 2 > softmax::kThreadRowsTileTargetBytes);  // no round more fits
    const RowRingShape s = row_ring_shape_for_tile(1000003, cols, 2, 4 * kH100Sms, t.rows_per_tile);
    CHECK(s.rows_per_tile * cols * 2 % 16 == 0);  // whole vectors: one bulk copy a tile
    CHECK(s.shared_bytes <= softmax::kThreadRowsMostSharedBytes);
    CHECK(s.tiles * s.rows_per_tile >= 1000003);
  }
  CHECK(softmax::thread_rows_fits(64, 2));
  CHECK_FALSE(softmax::thread_rows_fits(65, 2));
  CHECK_FALSE(softmax::thread_rows_fits(19, 4));
}
