#include "kernels/matmul/matmul_stream_k.hpp"

#include <algorithm>

namespace kbench::matmul {

namespace {

long long range_begin(const StreamKSchedule& s, int block) { return s.split_steps * block / s.grid; }

}  // namespace

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

}  // namespace kbench::matmul
