#pragma once
/// A warp's tile of the flat array staged through the warp's own slice of shared memory: the
/// staging that `vector_rows` and `staged_rows` share (kernels/softmax/NOTES.md). The 16-byte
/// vectors that cover elements [first, end) go in with coalesced 16-byte loads (instruction k of
/// the warp reads vectors [32 k, 32 k + 32) of the stretch; all of a lane's loads are issued before
/// its first store to shared memory) and leave with coalesced 16-byte stores. x and y must be
/// 16-byte aligned.
///
/// A tile of whole rows of odd width starts and ends inside a vector. Its first and last vectors
/// are read whole (they lie in the tensor; a neighbouring tile may read them too) except a vector
/// that passes the tensor's last element, which is read element by element; a vector only partly
/// in [first, end) is written element by element, so two tiles never write the same element.
/// Only __syncwarp: no block barrier, no wait.

#include "kernels/softmax/softmax_device.cuh"

#include <cstdint>

namespace kbench::softmax {

/// The 16-byte vectors that cover elements [first, end) of a tensor: `vectors` of them from
/// `first_vector`.
struct WarpTileSpan {
  std::int64_t first_vector = 0;
  int vectors = 0;
};

template <typename T>
__device__ __forceinline__ WarpTileSpan warp_tile_span(std::int64_t first, std::int64_t end) {
  const std::int64_t first_vector = first / kVector<T>;
  const std::int64_t end_vector = (end + kVector<T> - 1) / kVector<T>;
  return {first_vector, static_cast<int>(end_vector - first_vector)};
}

/// The `count` (< kVector<T>) elements at `x` as one vector, zero past them.
template <typename T>
__device__ __forceinline__ uint4 load_partial_vector(const T* __restrict__ x, std::int64_t count) {
  T elements[kVector<T>];
#pragma unroll
  for (int i = 0; i < kVector<T>; ++i) elements[i] = i < count ? x[i] : from_float<T>(0.0f);
  uint4 v;
  memcpy(&v, elements, 16);
  return v;
}

/// Copies the span's vectors of x into `tile` (32 x kLaneVectors vectors; span.vectors at most
/// that). `elements`: the tensor's length, past which nothing is read. kPartialEnds = false: the
/// caller's tiles are whole vectors inside the tensor (vector_rows), and no vector is checked.
template <typename T, int kLaneVectors, bool kPartialEnds = true>
__device__ __forceinline__ void warp_tile_load(uint4* tile, const T* __restrict__ x, WarpTileSpan span,
                                               std::int64_t elements) {
  const int lane = static_cast<int>(threadIdx.x % 32);
  const uint4* xv = reinterpret_cast<const uint4*>(x) + span.first_vector;
  uint4 loaded[kLaneVectors];
#pragma unroll
  for (int k = 0; k < kLaneVectors; ++k) {
    const int v = lane + 32 * k;
    loaded[k] = make_uint4(0u, 0u, 0u, 0u);
    if (v < span.vectors) {
      const std::int64_t e = (span.first_vector + v) * kVector<T>;
      loaded[k] = !kPartialEnds || e + kVector<T> <= elements ? xv[v] : load_partial_vector(x + e, elements - e);
    }
  }
#pragma unroll
  for (int k = 0; k < kLaneVectors; ++k) tile[lane + 32 * k] = loaded[k];
}

/// Writes the tile's elements [first, end) of the tensor (the span of warp_tile_span(first, end))
/// to y: whole vectors by 16-byte stores, the partial first and last ones element by element.
/// kPartialEnds = false: [first, end) is the span's whole vectors, and no vector is checked.
template <typename T, int kLaneVectors, bool kPartialEnds = true>
__device__ __forceinline__ void warp_tile_store(const uint4* tile, T* __restrict__ y, WarpTileSpan span,
                                                std::int64_t first, std::int64_t end) {
  const int lane = static_cast<int>(threadIdx.x % 32);
  uint4* yv = reinterpret_cast<uint4*>(y) + span.first_vector;
#pragma unroll
  for (int k = 0; k < kLaneVectors; ++k) {
    const int v = lane + 32 * k;
    if (v >= span.vectors) break;
    const std::int64_t e = (span.first_vector + v) * kVector<T>;
    const uint4 value = tile[v];
    if (!kPartialEnds || (e >= first && e + kVector<T> <= end)) {
      yv[v] = value;
    } else {
      T elements[kVector<T>];
      memcpy(elements, &value, 16);
#pragma unroll
      for (int i = 0; i < kVector<T>; ++i) {
        if (e + i >= first && e + i < end) y[e + i] = elements[i];
      }
    }
  }
}

}  // namespace kbench::softmax
