#pragma once
/// Groups of short rows that are exactly whole 16-byte vectors: the index arithmetic of the
/// vector-rows kernels (softmax_vector_rows.cu, sum_rows_vector_kernels.cu). Host and device.
///
/// R = 16 / gcd(row bytes, 16) consecutive rows span exactly V = R x row bytes / 16 vectors, and no
/// fewer rows do (V is odd unless the row is itself whole vectors). In a 16-byte aligned tensor
/// every group then starts on a vector, so a lane can own R whole rows as V 16-byte vectors: 16-bit
/// 7 columns 8 rows in 7 vectors, 3 columns 8 in 3, 6 columns 4 in 3, fp32 7 columns 4 in 7, 16-bit
/// 8 or fp32 4 columns a row per vector.

#include <cstdint>

namespace kbench {

struct VectorRowGroup {
  int rows = 0;     ///< R; 0 for rows of no bytes
  int vectors = 0;  ///< V
};

/// The group of rows of `row_bytes` bytes (at least 1, at most 2^31 / 16).
constexpr VectorRowGroup vector_row_group(std::int64_t row_bytes) {
  VectorRowGroup group;
  if (row_bytes < 1) return group;
  int gcd = 16;
  while (row_bytes % gcd != 0) gcd /= 2;
  group.rows = 16 / gcd;
  group.vectors = static_cast<int>(group.rows * row_bytes / 16);
  return group;
}

/// Groups per lane in a warp's tile so that a lane holds at least `lane_vectors` vectors: one
/// group when a group is already that long.
constexpr int vector_row_group_spans(int vectors, int lane_vectors) {
  return vectors < lane_vectors ? lane_vectors / vectors : 1;
}

/// A vector-rows kernel's tile: groups of R whole rows in V whole vectors, `spans` x 32 groups
/// per warp (a lane owns `spans` groups).
struct VectorRowTile {
  int group_rows = 0;  ///< R; 0: rows outside the kernel's class
  int vectors = 0;     ///< V, 16-byte vectors per group
  int spans = 0;       ///< groups per lane in a warp's tile
};

constexpr VectorRowTile vector_row_tile(std::int64_t row_bytes, int lane_vectors) {
  const VectorRowGroup group = vector_row_group(row_bytes);
  if (group.rows == 0) return {};
  return {group.rows, group.vectors, vector_row_group_spans(group.vectors, lane_vectors)};
}

/// A vector-rows kernel's launch over `rows` rows: its whole groups, the rows past them (fewer
/// than R, done row by row by the last warp), a warp per tile (at least one: the tail alone) and
/// blocks of `block_warps` warps.
struct VectorRowGrid {
  std::int64_t groups = 0;
  int tail_rows = 0;
  std::int64_t warps = 0;
  std::int64_t blocks = 0;
};

constexpr VectorRowGrid vector_row_grid(std::int64_t rows, VectorRowTile tile, int block_warps) {
  VectorRowGrid grid;
  grid.groups = rows / tile.group_rows;
  grid.tail_rows = static_cast<int>(rows % tile.group_rows);
  const std::int64_t tile_groups = 32 * tile.spans;
  grid.warps = (grid.groups + tile_groups - 1) / tile_groups;
  if (grid.warps == 0) grid.warps = 1;
  grid.blocks = (grid.warps + block_warps - 1) / block_warps;
  return grid;
}

}  // namespace kbench
