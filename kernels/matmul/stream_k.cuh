#pragma once
/// The device half of stream-K (matmul_stream_k.hpp describes the schedule): a block's walk over its
/// units of work, and the hand-over of a tile's parts between blocks through the workspace's slots
/// and flags; and the split-K walk of the same kernel (SplitKWalk). Everything here is inlined: a
/// call in a wgmma kernel serialises its wgmmas (C7510).

#include "kernels/common/device_flags.cuh"
#include "kernels/matmul/tile_order.hpp"
#include "kernels/matmul/tma.cuh"

#include <cstdint>

namespace kbench::matmul::stream_k {

/// A launch's division of the work (StreamKSchedule's whole_tiles and split_steps) and its
/// workspace; a launch without split steps runs the staged kernel's schedule and needs none.
/// Split-K launches (SplitKWalk) use whole_tiles, partials, k_splits and steps_per_split.
struct Work {
  int whole_tiles = 0;        ///< stream-K: the tiles run whole; split-K: every tile of C
  long long split_steps = 0;  ///< stream-K: the steps of the tiles after them
  /// Stream-K: a slot of 2 consumers × kAccumulators × 128 threads fp32 per block; split-K: the
  /// k_splits fp32 M×N slices, row-major, one after another.
  float* partials = nullptr;
  unsigned* flags = nullptr;  ///< stream-K: one per block and consumer warpgroup, zero between launches
  int k_splits = 0;           ///< split-K: the splits of each tile's K
  int steps_per_split = 0;    ///< split-K: 64-deep steps a split, at least 1
  TileOrder order;            ///< where unit.tile lies in C (the default: grouped order)
  int tail_tiles = 0;         ///< tail split: the tiles after whole_tiles, each split k_splits ways
};

/// Steps [first, last) of tile `tile`.
struct Unit {
  int tile, first, last;
};

__device__ __forceinline__ long long range_begin(const Work& w, int block) {
  return w.split_steps * block / static_cast<long long>(gridDim.x);
}

/// A block's units in order: its whole tiles (blockIdx.x, + gridDim.x, ...), then (kSplit) its
/// range of the split steps cut at tile boundaries. Only the range's first unit can start past a
/// tile's first step, and only its last can end before a tile's last. Without kSplit the walk is
/// the staged kernel's loop over whole tiles and keeps no range.
template <bool kSplit>
class Walk {
 public:
  __device__ __forceinline__ Walk(const Work& w, int steps)
      : next_whole_(static_cast<int>(blockIdx.x)), whole_tiles_(w.whole_tiles), steps_(steps) {
    if constexpr (kSplit) {
      at_ = range_begin(w, static_cast<int>(blockIdx.x));
      end_ = range_begin(w, static_cast<int>(blockIdx.x) + 1);
    }
  }

  __device__ __forceinline__ bool next(Unit& unit) {
    if (next_whole_ < whole_tiles_) {
      unit = {next_whole_, 0, steps_};
      next_whole_ += static_cast<int>(gridDim.x);
      return true;
    }
    if constexpr (!kSplit) return false;
    if (at_ >= end_) return false;
    const long long tile = at_ / steps_;
    const int first = static_cast<int>(at_ - tile * steps_);
    const int last = static_cast<int>(min(static_cast<long long>(steps_), first + (end_ - at_)));
    unit = {whole_tiles_ + static_cast<int>(tile), first, last};
    at_ += last - first;
    return true;
  }

 private:
  int next_whole_, whole_tiles_, steps_;
  long long at_ = 0, end_ = 0;
};

/// A split-K launch's units: unit u is split u / tiles of tile u % tiles (split-major, so that the
/// blocks running at once share the split's panels of A and B in L2), steps [s · steps_per_split,
/// min(steps, (s + 1) · steps_per_split)); block b takes units b, b + gridDim.x, ... A unit past K
/// is empty (first == last == s · steps_per_split: first is never clamped, so split_of divides it
/// back): its split's slice gets zeros.
class SplitKWalk {
 public:
  __device__ __forceinline__ SplitKWalk(const Work& w, int steps)
      : next_(static_cast<int>(blockIdx.x)), tiles_(w.whole_tiles), units_(w.whole_tiles * w.k_splits),
        per_split_(w.steps_per_split), steps_(steps) {}

  __device__ __forceinline__ int split_of(const Unit& unit) const { return unit.first / per_split_; }

  __device__ __forceinline__ bool next(Unit& unit) {
    if (next_ >= units_) return false;
    const int split = next_ / tiles_;
    const int first = split * per_split_;
    unit = {next_ - split * tiles_, first, max(first, min(steps_, first + per_split_))};
    next_ += static_cast<int>(gridDim.x);
    return true;
  }

 private:
  int next_, tiles_, units_, per_split_, steps_;
};

/// A tail-split launch's units (matmul_tile_schedule.hpp, TailSplit): the first whole_tiles tiles
/// whole, as the staged walk takes them (whole_tiles is a multiple of gridDim.x, so each block runs
/// the same number), then the tail_tiles tiles after them, each split into k_splits runs of
/// steps_per_split steps, split-major: unit whole_tiles + v is split v / tail_tiles of tile
/// whole_tiles + v % tail_tiles. A split past K is an empty unit, as in SplitKWalk.
class TailSplitWalk {
 public:
  __device__ __forceinline__ TailSplitWalk(const Work& w, int steps)
      : next_(static_cast<int>(blockIdx.x)), whole_(w.whole_tiles), tail_(w.tail_tiles),
        units_(w.whole_tiles + w.tail_tiles * w.k_splits), per_split_(w.steps_per_split), steps_(steps) {}

  /// The split of a tail unit (unit.tile >= whole_tiles).
  __device__ __forceinline__ int split_of(const Unit& unit) const { return unit.first / per_split_; }

  __device__ __forceinline__ bool next(Unit& unit) {
    if (next_ >= units_) return false;
    if (next_ < whole_) {
      unit = {next_, 0, steps_};
    } else {
      const int v = next_ - whole_, split = v / tail_;
      const int first = split * per_split_;
      unit = {whole_ + v - split * tail_, first, max(first, min(steps_, first + per_split_))};
    }
    next_ += static_cast<int>(gridDim.x);
    return true;
  }

 private:
  int next_, whole_, tail_, units_, per_split_, steps_;
};

__device__ __forceinline__ float* slot_of(const Work& w, int block, int consumer, int accumulators) {
  return w.partials + (static_cast<std::size_t>(block) * 2 + static_cast<std::size_t>(consumer)) *
                          static_cast<std::size_t>(accumulators) * 128;
}

/// A consumer warpgroup's part of a tile another block finishes: its accumulators into this block's
/// slot (elements 4j .. 4j+3 of thread t as the float4 at j · 128 + t, so each store is one
/// coalesced 512-byte row per warp), then its flag.
template <int N>
__device__ __forceinline__ void save_part(const float (&acc)[N], const Work& w, int consumer, int thread_in_group) {
  static_assert(N % 32 == 0, "parts move in chunks of 8 float4 a thread");
  float4* slot = reinterpret_cast<float4*>(slot_of(w, static_cast<int>(blockIdx.x), consumer, N)) + thread_in_group;
#pragma unroll
  for (int j = 0; j < N / 4; ++j) __stcg(slot + j * 128, make_float4(acc[4 * j], acc[4 * j + 1], acc[4 * j + 2], acc[4 * j + 3]));
  __threadfence();
  tma::named_barrier(1u + static_cast<unsigned>(consumer), 128);
  if (thread_in_group == 0) store_release(w.flags + blockIdx.x * 2 + consumer, 1u);
}

/// The finishing block's consumer warpgroup adds the parts of its tile (split index `split_tile`:
/// tile − whole_tiles) that the following blocks hold, waiting for each one's flag and clearing it
/// for the next launch. Traps (a launch failure, not a hang) if a flag never rises.
template <int N>
__device__ __forceinline__ void add_parts(float (&acc)[N], const Work& w, int split_tile, int steps, int consumer,
                                          int thread_in_group) {
  const long long tile_end = (static_cast<long long>(split_tile) + 1) * steps;
  for (int p = static_cast<int>(blockIdx.x) + 1; p < static_cast<int>(gridDim.x); ++p) {
    const long long begin = range_begin(w, p);
    if (begin >= tile_end) break;
    if (range_begin(w, p + 1) == begin) continue;  // an empty range holds no part
    if (thread_in_group == 0) {
      unsigned* flag = w.flags + p * 2 + consumer;
      const long long start = clock64();
      while (load_acquire(flag) == 0) {
        if (clock64() - start > tma::kHangCycles) __trap();
      }
      *reinterpret_cast<volatile unsigned*>(flag) = 0u;
    }
    tma::named_barrier(1u + static_cast<unsigned>(consumer), 128);
    const float4* slot = reinterpret_cast<const float4*>(slot_of(w, p, consumer, N)) + thread_in_group;
#pragma unroll
    for (int chunk = 0; chunk < N / 32; ++chunk) {  // 8 loads in flight, then their adds
      float4 part[8];
#pragma unroll
      for (int j = 0; j < 8; ++j) part[j] = __ldcg(slot + (chunk * 8 + j) * 128);
#pragma unroll
      for (int j = 0; j < 8; ++j) {
        const int e = (chunk * 8 + j) * 4;
        acc[e] += part[j].x;
        acc[e + 1] += part[j].y;
        acc[e + 2] += part[j].z;
        acc[e + 3] += part[j].w;
      }
    }
  }
}

}  // namespace kbench::matmul::stream_k
