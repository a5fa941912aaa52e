#pragma once
/// The order in which the TMA kernel's blocks walk the tiles of C, and what an edge tile holds;
/// host and device (the launchers' cost model replays the order the kernel walks).

#if defined(__CUDACC__)
#define KBENCH_TILE_ORDER_FN __host__ __device__ __forceinline__
#else
#define KBENCH_TILE_ORDER_FN inline
#endif

namespace kbench::matmul {

struct TileCoord {
  int row;  ///< tile index along M
  int col;  ///< tile index along N
};

/// Maps a 1-D block index to a tile of C (a 2-D grid would cap M at 65535 tile rows). Blocks
/// run roughly in index order, so plain row-major order would have one wave of blocks read a few
/// rows of A but all of B. Grouped order walks `group` tile rows column by column instead: a
/// wave then touches `group` row panels of A and a matching run of B's column panels, and both
/// stay in L2 while the wave reuses them.
KBENCH_TILE_ORDER_FN TileCoord grouped_tile(int block, int tiles_m, int tiles_n, int group) {
  const int per_group = group * tiles_n;
  const int first_row = (block / per_group) * group;
  const int left = tiles_m - first_row;
  const int rows_here = group < left ? group : left;  // the last group may be shorter
  const int in_group = block - (block / per_group) * per_group;
  return {first_row + in_group % rows_here, in_group / rows_here};
}

/// A launch's tile order: the first interior_rows × interior_cols tiles in grouped order, then the
/// edge tiles: the last column's (rows 0 .. interior_rows − 1) where interior_cols < tiles_n, then
/// the last row's where interior_rows < tiles_m. Zeros (the default): every tile in grouped order.
/// Otherwise interior_rows is tiles_m or tiles_m − 1 and interior_cols tiles_n or tiles_n − 1 (as
/// edges_last_order makes them); other values do not reach every tile.
struct TileOrder {
  int interior_rows = 0;
  int interior_cols = 0;
};

/// Unit `tile`'s place in C under `order` (8 tile rows a group).
KBENCH_TILE_ORDER_FN TileCoord ordered_tile(int tile, int tiles_m, int tiles_n, TileOrder order) {
  const int rows = order.interior_rows > 0 ? order.interior_rows : tiles_m;
  const int cols = order.interior_cols > 0 ? order.interior_cols : tiles_n;
  const int interior = rows * cols;
  if (tile < interior) return grouped_tile(tile, rows, cols, 8);
  int edge = tile - interior;
  if (cols < tiles_n) {
    if (edge < rows) return {edge, cols};
    edge -= rows;
  }
  return {rows, edge};
}

/// The 64-wide panels of B that the tile at column `col` (of tiles `tile_n` wide) spans inside N:
/// what its MMAs cover and its producer loads.
KBENCH_TILE_ORDER_FN int live_panels(int n, int col, int tile_n) {
  const int left = n - col * tile_n;
  const int live = (left + 63) / 64, all = tile_n / 64;
  return live < all ? live : all;
}

}  // namespace kbench::matmul

#undef KBENCH_TILE_ORDER_FN
