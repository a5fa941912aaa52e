// Stream-K's schedule (matmul_stream_k.hpp): whole rounds first, every step of every tile run
// exactly once, every part saved read by its tile's finisher, one slot a block.
#include "kernels/matmul/matmul_stream_k.hpp"
#include "support/catch.hpp"

#include <algorithm>
#include <stdexcept>
#include <vector>

using namespace kbench::matmul;

namespace {

long long range_begin(const StreamKSchedule& s, int block) { return s.split_steps * block / s.grid; }

/// The most 64-deep steps any block runs under `s` (its whole tiles and its range).
long long stream_k_busiest_steps(const StreamKSchedule& s) {
  long long most = 0;
  for (int b = 0; b < s.grid; ++b) most = std::max(most, range_begin(s, b + 1) - range_begin(s, b));
  return static_cast<long long>(s.whole_tiles / s.grid) * s.steps + most;
}

/// The most blocks whose parts one tile is assembled from, its finisher included.
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

/// Runs the schedule as the kernel walks it: how often each (tile, step) is computed, and for every
/// part saved by a block, whether the tile's finisher (the block holding its first step) adds it.
struct Replay {
  std::vector<int> runs;    // tiles × steps
  int orphan_parts = 0;     // saved parts no finisher reads
  int missing_parts = 0;    // parts a finisher waits for that nobody saves
  int parts_per_block = 0;  // the most parts one block saves
};

Replay replay(const StreamKSchedule& s) {
  Replay r;
  r.runs.assign(static_cast<std::size_t>(s.tiles) * s.steps, 0);
  std::vector<int> saved(static_cast<std::size_t>(s.grid), 0), read(static_cast<std::size_t>(s.grid), 0);
  for (int b = 0; b < s.grid; ++b) {
    for (int tile = b; tile < s.whole_tiles; tile += s.grid) {
      for (int k = 0; k < s.steps; ++k) ++r.runs[static_cast<std::size_t>(tile) * s.steps + k];
    }
    const long long end = range_begin(s, b + 1);
    for (long long at = range_begin(s, b); at < end;) {
      const long long split_tile = at / s.steps;
      const int first = static_cast<int>(at - split_tile * s.steps);
      const int last = static_cast<int>(std::min<long long>(s.steps, first + (end - at)));
      const int tile = s.whole_tiles + static_cast<int>(split_tile);
      for (int k = first; k < last; ++k) ++r.runs[static_cast<std::size_t>(tile) * s.steps + k];
      if (first > 0) ++saved[static_cast<std::size_t>(b)];
      if (first == 0 && last < s.steps) {  // the finisher: the following non-empty ranges inside the tile
        const long long tile_end = (split_tile + 1) * s.steps;
        for (int p = b + 1; p < s.grid && range_begin(s, p) < tile_end; ++p) {
          if (range_begin(s, p + 1) > range_begin(s, p)) ++read[static_cast<std::size_t>(p)];
        }
      }
      at += last - first;
    }
  }
  for (int b = 0; b < s.grid; ++b) {
    r.parts_per_block = std::max(r.parts_per_block, saved[static_cast<std::size_t>(b)]);
    if (saved[static_cast<std::size_t>(b)] > read[static_cast<std::size_t>(b)]) ++r.orphan_parts;
    if (read[static_cast<std::size_t>(b)] > saved[static_cast<std::size_t>(b)]) ++r.missing_parts;
  }
  return r;
}

}  // namespace

TEST_CASE("stream-K schedule: whole rounds, then the last tiles' steps evenly over the grid", "[matmul][stream_k]") {
  // 2048x2056x2056: 16 x 9 = 144 tiles of 33 steps on 132 SMs: all split, 36 steps a block (whole: 2 x 33).
  const StreamKSchedule odd = stream_k_schedule({2048, 2056, 2056}, 256, 132);
  CHECK(odd.tiles == 144);
  CHECK(odd.steps == 33);
  CHECK(odd.whole_tiles == 0);
  CHECK(odd.split_steps == 144 * 33);
  CHECK(stream_k_busiest_steps(odd) == 36);
  CHECK(stream_k_most_parts(odd) == 2);
  // 4096^3: 512 tiles of 64 steps: 2 whole rounds, 248 tiles split (120-121 steps a block).
  const StreamKSchedule square = stream_k_schedule({4096, 4096, 4096}, 256, 132);
  CHECK(square.whole_tiles == 264);
  CHECK(square.split_steps == 248 * 64);
  CHECK(stream_k_busiest_steps(square) == 2 * 64 + 121);
  // Tiles filling the grid exactly: all whole, nothing handed over.
  const StreamKSchedule exact = stream_k_schedule({128 * 12, 256 * 11, 1000}, 256, 132);
  CHECK(exact.whole_tiles == 132);
  CHECK(exact.split_steps == 0);
  CHECK(stream_k_busiest_steps(exact) == 16);
  CHECK(stream_k_most_parts(exact) == 0);
  // Fewer tiles than blocks: every tile split, its 128 steps over ranges of 31-32: 5 blocks at most.
  const StreamKSchedule few = stream_k_schedule({1024, 1024, 8192}, 256, 132);
  CHECK(few.whole_tiles == 0);
  CHECK(stream_k_busiest_steps(few) == 32);  // 32 x 128 = 4096 steps over 132 blocks
  CHECK(stream_k_most_parts(few) == 5);
  CHECK_THROWS_AS(stream_k_schedule({64, 64, 64}, 256, 0), std::invalid_argument);
  CHECK(stream_k_workspace_bytes(132, 256) == 132u * 128 * 256 * 4 + 132u * 2 * 4);
}

TEST_CASE("stream-K schedule: every step of every tile exactly once, every part read by its finisher",
          "[matmul][stream_k]") {
  const std::vector<int> extents{1, 100, 128, 129, 1000, 2056, 4097};
  for (int grid : {1, 7, 78, 132}) {
    for (int m : extents) {
      for (int n : extents) {
        for (int k : {1, 64, 65, 1000, 4096}) {
          const StreamKSchedule s = stream_k_schedule({m, n, k}, 256, grid);
          INFO(m << "x" << n << "x" << k << " on " << grid << " blocks");
          const Replay r = replay(s);
          CHECK(std::all_of(r.runs.begin(), r.runs.end(), [](int runs) { return runs == 1; }));
          CHECK(r.orphan_parts == 0);
          CHECK(r.missing_parts == 0);
          CHECK(r.parts_per_block <= 1);  // one slot a block is enough
          CHECK(s.whole_tiles % grid == 0);
          CHECK(stream_k_busiest_steps(s) * grid >= static_cast<long long>(s.tiles) * s.steps);
          if (s.tiles > grid) CHECK(stream_k_most_parts(s) <= 2);  // ranges at least a tile long
          CHECK(stream_k_busiest_steps(s) <= ((s.tiles + grid - 1) / grid) * static_cast<long long>(s.steps));
        }
      }
    }
  }
}
