#pragma once
/// A warp's tile of whole 16-byte vectors staged through the warp's own slice of shared memory
/// (vector_rows; kernels/softmax/NOTES.md). The tile's vectors go in with coalesced 16-byte loads
/// (instruction k of the warp reads vectors [32 k, 32 k + 32) of the stretch; all of a lane's
/// loads are issued before its first store to shared memory) and leave with coalesced 16-byte
/// stores. x and y must be 16-byte aligned. Only __syncwarp between the two: no block barrier.

#include "kernels/softmax/softmax_device.cuh"

#include <cstdint>

namespace kbench::softmax {

/// `vectors` 16-byte vectors of a tensor from `first_vector`.
struct WarpTileSpan {
  std::int64_t first_vector = 0;
  int vectors = 0;
};

/// Copies the span's vectors of x into `tile` (32 x kLaneVectors vectors; span.vectors at most
/// that); slots past the span get zeros.
template <typename T, int kLaneVectors>
__device__ __forceinline__ void warp_tile_load(uint4* tile, const T* __restrict__ x, WarpTileSpan span) {
  const int lane = static_cast<int>(threadIdx.x % 32);
  const uint4* xv = reinterpret_cast<const uint4*>(x) + span.first_vector;
  uint4 loaded[kLaneVectors];
#pragma unroll
  for (int k = 0; k < kLaneVectors; ++k) {
    const int v = lane + 32 * k;
    loaded[k] = v < span.vectors ? xv[v] : make_uint4(0u, 0u, 0u, 0u);
  }
#pragma unroll
  for (int k = 0; k < kLaneVectors; ++k) tile[lane + 32 * k] = loaded[k];
}

/// Writes the tile's first span.vectors vectors to the span's place in y.
template <typename T, int kLaneVectors>
__device__ __forceinline__ void warp_tile_store(const uint4* tile, T* __restrict__ y, WarpTileSpan span) {
  const int lane = static_cast<int>(threadIdx.x % 32);
  uint4* yv = reinterpret_cast<uint4*>(y) + span.first_vector;
#pragma unroll
  for (int k = 0; k < kLaneVectors; ++k) {
    const int v = lane + 32 * k;
    if (v >= span.vectors) break;
    yv[v] = tile[v];
  }
}

}  // namespace kbench::softmax
