#pragma once
/// The ring of whole-row tiles (row_ring.cuh) that softmax's and the row reductions' `ring_rows`
/// kernels stream short rows of any width through: its host-side shape, so that launchers,
/// variants, `auto` and host tests agree on it. Host and device, pure.
///
/// A tile is `rows_per_tile` consecutive rows: one contiguous stretch of the flat array whose
/// byte length is a multiple of 16 (rows_per_tile is a multiple of 8, and 8 rows of any width of
/// 2- or 4-byte elements are whole 16-byte vectors), so in a 16-byte aligned tensor every tile
/// starts aligned and one bulk copy moves it whatever the row width; only the tensor's last tile
/// may end mid-vector. A persistent grid of `blocks` blocks takes tiles b, b + blocks, ... (at
/// most tiles_per_block each) through kRingStages shared-memory slots of `slot_bytes`.

#include <cstddef>
#include <cstdint>

namespace kbench {

constexpr int kRingBlock = 256;   ///< threads per block
constexpr int kRingStages = 4;    ///< shared-memory slots per block: tiles loading while one is worked on
constexpr int kRingMaxBlocksPerSm = 4;
/// Bytes a tile aims at: 8 KiB, so that a 13 MB tensor is ~1600 tiles and a persistent grid of
/// 4 blocks per SM gives every block about as many (the last round is the imbalance).
constexpr std::int64_t kRingTileTargetBytes = 8 * 1024;
constexpr std::int64_t kRingTileRowMultiple = 8;
/// Widest rows the ring kernels take (their lane groups hold at most 32 x 32 elements).
constexpr std::int64_t kRingMaxCols = 1024;

/// Rows per tile: as many as fit kRingTileTargetBytes, rounded down to kRingTileRowMultiple, at
/// least kRingTileRowMultiple (rows of 1024 fp32 elements: 8 rows, 32 KiB).
constexpr std::int64_t ring_tile_rows(std::int64_t cols, std::size_t element_size) {
  const std::int64_t row_bytes = cols * static_cast<std::int64_t>(element_size);
  const std::int64_t fit = kRingTileTargetBytes / (row_bytes > 0 ? row_bytes : 1);
  const std::int64_t rounded = fit / kRingTileRowMultiple * kRingTileRowMultiple;
  return rounded > kRingTileRowMultiple ? rounded : kRingTileRowMultiple;
}

struct RowRingShape {
  std::int64_t rows_per_tile = 0;
  std::int64_t tiles = 0;
  std::int64_t tiles_per_block = 0;  ///< the most tiles any block takes
  std::int64_t blocks = 0;           ///< the grid: at most the resident blocks given
  std::int64_t slot_bytes = 0;       ///< one tile, rounded up to 128 bytes
  std::int64_t shared_bytes = 0;     ///< kRingStages slots: the kernel's dynamic shared memory
};

/// The shape for `rows` rows of `cols` elements in tiles of `rows_per_tile` rows (a positive
/// multiple of kRingTileRowMultiple) when `resident_blocks` blocks of the kernel fit on the device
/// at once: the fewest rounds of tiles that those blocks cover, then the fewest blocks that cover
/// the tiles in that many rounds (every block takes the same number of tiles but the last few,
/// instead of a quarter of the grid taking one tile more than the rest).
constexpr RowRingShape row_ring_shape_for_tile(std::int64_t rows, std::int64_t cols, std::size_t element_size,
                                               std::int64_t resident_blocks, std::int64_t rows_per_tile) {
  RowRingShape shape;
  shape.rows_per_tile = rows_per_tile;
  shape.tiles = (rows + shape.rows_per_tile - 1) / shape.rows_per_tile;
  const std::int64_t resident = resident_blocks > 0 ? resident_blocks : 1;
  shape.tiles_per_block = shape.tiles > 0 ? (shape.tiles + resident - 1) / resident : 0;
  shape.blocks = shape.tiles > 0 ? (shape.tiles + shape.tiles_per_block - 1) / shape.tiles_per_block : 0;
  const std::int64_t tile = shape.rows_per_tile * cols * static_cast<std::int64_t>(element_size);
  shape.slot_bytes = (tile + 127) / 128 * 128;
  shape.shared_bytes = kRingStages * shape.slot_bytes;
  return shape;
}

/// The same in ring_tile_rows' tiles: the lane-group kernels' shape.
constexpr RowRingShape row_ring_shape(std::int64_t rows, std::int64_t cols, std::size_t element_size,
                                      std::int64_t resident_blocks) {
  return row_ring_shape_for_tile(rows, cols, element_size, resident_blocks, ring_tile_rows(cols, element_size));
}

/// The most dynamic shared memory any ring shape of `element_size`-byte elements asks for: a tile
/// is at most max(kRingTileTargetBytes, 8 rows of kRingMaxCols elements).
constexpr std::int64_t ring_most_shared_bytes(std::size_t element_size) {
  const std::int64_t eight_rows = kRingTileRowMultiple * kRingMaxCols * static_cast<std::int64_t>(element_size);
  const std::int64_t tile = eight_rows > kRingTileTargetBytes ? eight_rows : kRingTileTargetBytes;
  return kRingStages * ((tile + 127) / 128 * 128);
}

/// How a lane group takes a row out of a tile: `lanes` lanes (a power of two, at most 32) per
/// row, lane l holding elements l, l + lanes, ... (`per_lane` slots of registers, 8, 16 or 32):
/// the fewest lanes that hold the row in at most 8 elements each, so that short rows need few
/// shuffles and a warp reads consecutive shared-memory words.
struct RowGroupShape {
  int lanes = 1;
  int per_lane = 8;
};

constexpr RowGroupShape row_group_shape(std::int64_t cols) {
  RowGroupShape shape;
  while (shape.lanes < 32 && (cols + shape.lanes - 1) / shape.lanes > 8) shape.lanes *= 2;
  const std::int64_t per = (cols + shape.lanes - 1) / shape.lanes;
  while (shape.per_lane < per) shape.per_lane *= 2;
  return shape;
}

}  // namespace kbench
