#include "kernels/matmul/matmul_stream_k.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace kbench::matmul {

namespace {

constexpr int kTileM = 128, kStepK = 64;

long long range_begin(const StreamKSchedule& s, int block) { return s.split_steps * block / s.grid; }

}  // namespace

StreamKSchedule stream_k_schedule(Dims dims, int tile_n, int grid) {
  if (grid < 1 || tile_n < 1 || dims.m < 1 || dims.n < 1 || dims.k < 1) {
    throw std::invalid_argument("stream_k_schedule: extents, tile width and grid must be positive, got grid " +
                                std::to_string(grid));
  }
  StreamKSchedule s;
  s.grid = grid;
  s.tiles = static_cast<int>(ceil_div64(dims.m, kTileM) * ceil_div64(dims.n, tile_n));
  s.steps = static_cast<int>(ceil_div64(dims.k, kStepK));
  if (s.tiles % grid == 0) {
    s.whole_tiles = s.tiles;
  } else if (s.tiles > grid) {
    s.whole_tiles = (s.tiles / grid - 1) * grid;
  }
  s.split_steps = static_cast<long long>(s.tiles - s.whole_tiles) * s.steps;
  return s;
}

long long stream_k_busiest_steps(const StreamKSchedule& s) {
  long long most = 0;
  for (int b = 0; b < s.grid; ++b) most = std::max(most, range_begin(s, b + 1) - range_begin(s, b));
  return static_cast<long long>(s.whole_tiles / s.grid) * s.steps + most;
}

int stream_k_most_parts(const StreamKSchedule& s) {
  int most = s.split_steps > 0 ? 1 : 0;
  int block = 0;
  for (long long tile_start = 0; tile_start < s.split_steps; tile_start += s.steps) {
    const long long tile_end = tile_start + s.steps;
    while (range_begin(s, block + 1) <= tile_start) ++block;  // the block holding the tile's first step
    int parts = 0;
    for (int b = block; b < s.grid && range_begin(s, b) < tile_end; ++b) {
      if (range_begin(s, b + 1) > range_begin(s, b)) ++parts;
    }
    most = std::max(most, parts);
  }
  return most;
}

std::size_t stream_k_workspace_bytes(int grid, int tile_n) {
  const std::size_t slots = static_cast<std::size_t>(grid) * kTileM * static_cast<std::size_t>(tile_n) * sizeof(float);
  return slots + static_cast<std::size_t>(grid) * 2 * sizeof(unsigned);
}

}  // namespace kbench::matmul
