#pragma once
/// Moving a contiguous stretch of the flat array between global and shared memory with 16-byte
/// vectors, and the aligned body of a row whose start is not 16-byte aligned. Included by .cu
/// files only; the tile's host-side sizes are in flat_tile.hpp.
///
/// Why: rows of 3, 7 or 33 elements start at every alignment, so a kernel that reads row by row
/// falls back to 2- or 4-byte loads (a warp then moves 64-128 bytes per instruction and too few
/// bytes are in flight to stream). A block that copies whole rows as one contiguous tile uses
/// 16-byte loads whatever the row length, and then works on the rows out of shared memory.

#include "kernels/common/vector16.cuh"

#include <cstdint>

namespace kbench {

/// 16-byte vectors each thread issues before storing any of them.
constexpr int kTileUnroll = 4;

/// Copies n elements from `src` (global) to `dst` (shared, 16-byte aligned) with all blockDim.x
/// threads: 16-byte vectors, kTileUnroll loads in flight per thread, when `src` is 16-byte
/// aligned; elements one by one otherwise and for the n % kVector<T> at the end. No barrier.
template <typename T>
__device__ __forceinline__ void load_tile(const T* __restrict__ src, T* dst, std::int64_t n) {
  const int t = threadIdx.x, threads = blockDim.x;
  std::int64_t done = 0;
  if (aligned16(src)) {
    const std::int64_t vectors = n / kVector<T>;
    const auto* in4 = reinterpret_cast<const uint4*>(src);
    auto* out4 = reinterpret_cast<uint4*>(dst);
    std::int64_t v = t;
    for (; v + (kTileUnroll - 1) * threads < vectors; v += kTileUnroll * threads) {
      uint4 held[kTileUnroll];
#pragma unroll
      for (int u = 0; u < kTileUnroll; ++u) held[u] = in4[v + u * threads];
#pragma unroll
      for (int u = 0; u < kTileUnroll; ++u) out4[v + u * threads] = held[u];
    }
    for (; v < vectors; v += threads) out4[v] = in4[v];
    done = vectors * kVector<T>;
  }
  for (std::int64_t i = done + t; i < n; i += threads) dst[i] = src[i];
}

/// Copies n elements from `src` (shared, 16-byte aligned) to `dst` (global) with all threads:
/// 16-byte vectors when `dst` is 16-byte aligned, elements one by one otherwise. No barrier.
template <typename T>
__device__ __forceinline__ void store_tile(const T* src, T* __restrict__ dst, std::int64_t n) {
  const int t = threadIdx.x, threads = blockDim.x;
  std::int64_t done = 0;
  if (aligned16(dst)) {
    const std::int64_t vectors = n / kVector<T>;
    const auto* in4 = reinterpret_cast<const uint4*>(src);
    auto* out4 = reinterpret_cast<uint4*>(dst);
    for (std::int64_t v = t; v < vectors; v += threads) out4[v] = in4[v];
    done = vectors * kVector<T>;
  }
  for (std::int64_t i = done + t; i < n; i += threads) dst[i] = src[i];
}

/// A row of n elements starting at `row` seen as head + body + tail: `head` elements up to the
/// first 16-byte boundary (fewer than kVector<T>, at most n), `vectors` whole 16-byte vectors
/// from there, and the `tail` elements after them.
struct AlignedSpan {
  std::int64_t head = 0;
  std::int64_t vectors = 0;
  std::int64_t tail = 0;
};

template <typename T>
__host__ __device__ __forceinline__ AlignedSpan aligned_span(const T* row, std::int64_t n) {
  const auto misalignment = static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(row) % 16);
  std::int64_t head = misalignment == 0 ? 0 : (16 - misalignment) / static_cast<std::int64_t>(sizeof(T));
  if (head > n) head = n;
  AlignedSpan span;
  span.head = head;
  span.vectors = (n - head) / kVector<T>;
  span.tail = n - head - span.vectors * kVector<T>;
  return span;
}

}  // namespace kbench
