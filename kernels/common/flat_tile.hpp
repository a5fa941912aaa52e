#pragma once
/// Tiles of whole rows that a block stages in shared memory (flat_tile.cuh): the host side, so
/// that launchers, variants and host tests agree on a tile's rows and bytes. Host and device.
///
/// A tile holds `rows` consecutive rows of `cols` elements: one contiguous stretch of the flat
/// array. `rows` is a multiple of kTileRowMultiple, so that every tile of a 16-byte aligned
/// tensor starts 16-byte aligned too (8 rows x cols x 2 bytes is a multiple of 16 for any cols).

#include <cstddef>
#include <cstdint>

namespace kbench {

/// Rows of a tile are a multiple of this (see above).
constexpr std::int64_t kTileRowMultiple = 8;
/// The bytes a tile aims at: 16 KiB, the tile that measured fastest for bare reads on the H100
/// (256 threads x 4 16-byte vectors, kernels/sum/NOTES.md), 8 resident blocks per SM in 128 KiB.
constexpr std::int64_t kTileTargetBytes = 16 * 1024;

/// Rows per tile for rows of `cols` elements of `element_size` bytes: as many as fit in
/// kTileTargetBytes, rounded down to kTileRowMultiple, at least kTileRowMultiple.
constexpr std::int64_t tile_rows(std::int64_t cols, std::size_t element_size) {
  const std::int64_t row_bytes = cols * static_cast<std::int64_t>(element_size);
  const std::int64_t fit = kTileTargetBytes / (row_bytes > 0 ? row_bytes : 1);
  const std::int64_t rounded = fit / kTileRowMultiple * kTileRowMultiple;
  return rounded > kTileRowMultiple ? rounded : kTileRowMultiple;
}

/// Shared-memory bytes of a tile of `rows` rows, rounded up to whole 16-byte vectors.
constexpr std::int64_t tile_bytes(std::int64_t rows, std::int64_t cols, std::size_t element_size) {
  const std::int64_t bytes = rows * cols * static_cast<std::int64_t>(element_size);
  return (bytes + 15) / 16 * 16;
}

/// Tiles that cover `rows` rows.
constexpr std::int64_t tile_count(std::int64_t rows, std::int64_t rows_per_tile) {
  return (rows + rows_per_tile - 1) / rows_per_tile;
}

/// The smallest power of two at least `cols`, at most 32: the lanes of a warp that share one row
/// when a block works through a tile of short rows (a warp then covers 32 / lanes rows at once,
/// reading consecutive shared-memory words).
constexpr int lanes_per_row(std::int64_t cols) {
  int lanes = 1;
  while (lanes < 32 && lanes < cols) lanes *= 2;
  return lanes;
}

}  // namespace kbench
