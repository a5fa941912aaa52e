#pragma once
/// Stream-K for the staged TMA kernel (launch_wgmma_tma_stream_k): where a problem's 128×256 tiles
/// fill the SMs a whole number of times plus a little (144 tiles on 132 SMs run in 2 rounds, the
/// second nearly empty), the last tiles' 64-deep K steps are spread evenly over every block
/// instead. Blocks first run all but the last two rounds of tiles whole, as the staged kernel does; the
/// remaining tiles' steps, taken in tile order as one run of iterations, are cut into equal ranges,
/// one per block. A tile whose steps fall in several ranges is finished by the block that holds its
/// first step (which reaches it last, at the end of its range): every other block that holds some of
/// its steps (reaching them first, at the start of its range) writes its fp32 accumulators to its
/// own slot of the workspace and raises a flag; the finishing block waits for each flag, adds the
/// slot and stores the tile. A block holds at most one such part, so one slot each suffices. All
/// blocks must run at once (one per SM, as the staged kernel already is). Host-only. The schedule
/// and the workspace are inline: the sm_90a library's launcher calls them, and a static library
/// resolves symbols only from libraries linked after it.

#include "kernels/matmul/matmul_problem.hpp"

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <string>

namespace kbench::matmul {

/// The most blocks (SMs) the stream-K variant launches: its workspace bound (the op's scratch
/// estimate) assumes no more.
inline constexpr int kStreamKMostBlocks = 256;

/// The stream-K variant's blocks for `dims` on `sm_count` SMs: one per SM, no more than the
/// 128×256 tiles (fewer tiles than SMs run whole) nor kStreamKMostBlocks.
inline int stream_k_grid(Dims dims, int sm_count) {
  const long long tiles = ceil_div64(dims.m, kWgmmaTileM) * ceil_div64(dims.n, kWgmmaTileN);
  return static_cast<int>(std::max<long long>(1, std::min<long long>({sm_count, tiles, kStreamKMostBlocks})));
}

/// How a stream-K launch divides the work among `grid` blocks.
struct StreamKSchedule {
  int grid = 0;                 ///< blocks, one per SM
  int tiles = 0;                ///< 128×tile_n tiles of C
  int steps = 0;                ///< 64-deep K steps a tile
  int whole_tiles = 0;          ///< the first tiles, run whole in rounds of `grid` (block b: b, b + grid, ...)
  long long split_steps = 0;    ///< steps of the tiles after them, block b taking [split_steps·b/grid, split_steps·(b+1)/grid)
};

/// The schedule of C = A·B of `dims` on tiles `tile_n` wide over `grid` blocks: where the tiles
/// fill the grid exactly, all whole (nothing to even out); where they number fewer than the grid,
/// all split; else all but the last two rounds' worth whole (those, between grid + 1 and
/// 2·grid − 1 tiles, split: each block's range is then at least a tile's steps, so a tile spans at
/// most two blocks).
inline StreamKSchedule stream_k_schedule(Dims dims, int tile_n, int grid) {
  if (grid < 1 || tile_n < 1 || dims.m < 1 || dims.n < 1 || dims.k < 1) {
    throw std::invalid_argument("stream_k_schedule: extents, tile width and grid must be positive, got grid " +
                                std::to_string(grid));
  }
  StreamKSchedule s;
  s.grid = grid;
  s.tiles = static_cast<int>(ceil_div64(dims.m, kWgmmaTileM) * ceil_div64(dims.n, tile_n));
  s.steps = static_cast<int>(ceil_div64(dims.k, kWgmmaStepK));
  if (s.tiles % grid == 0) {
    s.whole_tiles = s.tiles;
  } else if (s.tiles > grid) {
    s.whole_tiles = (s.tiles / grid - 1) * grid;
  }
  s.split_steps = static_cast<long long>(s.tiles - s.whole_tiles) * s.steps;
  return s;
}

/// Workspace of a stream-K launch of `grid` blocks on tiles `tile_n` wide: a slot of 128 × tile_n
/// fp32 accumulators per block, then a 4-byte flag per block and consumer warpgroup (two), which
/// must be zero before the first launch; every launch leaves them zero.
inline std::size_t stream_k_workspace_bytes(int grid, int tile_n) {
  const std::size_t slots =
      static_cast<std::size_t>(grid) * kWgmmaTileM * static_cast<std::size_t>(tile_n) * sizeof(float);
  return slots + static_cast<std::size_t>(grid) * 2 * sizeof(unsigned);
}

}  // namespace kbench::matmul
