#pragma once
/// One chunk of a row split over blocks, as split_row and queue_row take it: kSplitChunkVectors
/// 16-byte vectors of the row's aligned body, one round of kSplitUnroll loads per thread of a
/// kSplitBlock-thread block, with the row's head elements in chunk 0 and its tail elements in the
/// last chunk (row_edge_element). Included by the .cu files of kernels/softmax/ only.

#include "kernels/softmax/softmax_auto.hpp"
#include "kernels/softmax/softmax_device.cuh"

#include <cstdint>

namespace kbench::softmax {

constexpr int kSplitBlock = 256;
constexpr int kSplitUnroll = 4;
static_assert(kSplitChunkVectors == kSplitBlock * kSplitUnroll, "a chunk is one round of loads of the block");

struct SplitChunk {
  std::int64_t row = 0;
  std::int64_t index = 0;      ///< within the row
  AlignedSpan span;            ///< of the row
  std::int64_t begin = 0;      ///< first vector of the body
  int count = 0;               ///< vectors
  std::int64_t scalar_at = -1; ///< the row element this thread holds, if any
};

/// Chunk `chunk` of the tensor, row-major: row chunk / chunks_per_row, index chunk % chunks_per_row.
template <typename T>
__device__ __forceinline__ SplitChunk split_chunk(const T* x, std::int64_t cols, std::int64_t chunks_per_row,
                                                  std::int64_t chunk) {
  SplitChunk c;
  c.row = chunk / chunks_per_row;
  c.index = chunk % chunks_per_row;
  c.span = aligned_span(x + c.row * cols, cols);
  c.begin = c.index * kSplitChunkVectors;
  const std::int64_t remaining = c.span.vectors - c.begin;
  c.count = static_cast<int>(remaining < 0 ? 0 : (remaining < kSplitChunkVectors ? remaining : kSplitChunkVectors));
  c.scalar_at = row_edge_element<T>(c.span, c.index == 0, c.index == chunks_per_row - 1);
  return c;
}

/// What a thread holds of its chunk: its vectors and its edge element (0 where it has none).
struct HeldChunk {
  uint4 vectors[kSplitUnroll];
  float scalar = 0.0f;
};

/// Issues the thread's loads of the chunk, all in flight at once. kLastUse marks them as the last
/// read of x (evict first), for a second pass that finds x in L2.
template <typename T, bool kLastUse>
__device__ __forceinline__ HeldChunk load_chunk(const T* x, std::int64_t cols, const SplitChunk& c) {
  HeldChunk held;
  const T* xr = x + c.row * cols;
  const auto* body = reinterpret_cast<const uint4*>(xr + c.span.head) + c.begin;
#pragma unroll
  for (int k = 0; k < kSplitUnroll; ++k) {
    const int v = static_cast<int>(threadIdx.x) + k * kSplitBlock;
    if (v < c.count) held.vectors[k] = kLastUse ? __ldcs(body + v) : body[v];
  }
  if (c.scalar_at >= 0) held.scalar = to_float(xr[c.scalar_at]);
  return held;
}

/// The thread's online (max, sum) of what it holds.
template <typename T>
__device__ __forceinline__ MaxSum fold_chunk(const SplitChunk& c, const HeldChunk& held) {
  MaxSum state = empty_max_sum();
#pragma unroll
  for (int k = 0; k < kSplitUnroll; ++k) {
    if (static_cast<int>(threadIdx.x) + k * kSplitBlock < c.count) {
      const uint4 one[1] = {held.vectors[k]};
      state = fold_vectors<T, 1>(state, one);
    }
  }
  if (c.scalar_at >= 0) {
    const float one[1] = {held.scalar};
    state = fold(state, one);
  }
  return state;
}

/// Writes e^(x - row_max) * inverse_sum over what the thread holds. kStreaming stores with the
/// evict-first hint (y is not read again, and x's lines should outlive it in L2).
template <typename T, bool kStreaming>
__device__ __forceinline__ void write_chunk(T* y, std::int64_t cols, const SplitChunk& c, const HeldChunk& held,
                                            float row_max, float inverse_sum) {
  T* yr = y + c.row * cols;
  auto* out = reinterpret_cast<uint4*>(yr + c.span.head) + c.begin;
#pragma unroll
  for (int k = 0; k < kSplitUnroll; ++k) {
    const int v = static_cast<int>(threadIdx.x) + k * kSplitBlock;
    if (v < c.count) {
      const uint4 result = normalize_vector<T>(held.vectors[k], row_max, inverse_sum);
      if (kStreaming) {
        __stcs(out + v, result);
      } else {
        out[v] = result;
      }
    }
  }
  if (c.scalar_at >= 0) yr[c.scalar_at] = from_float<T>(exp_via_exp2(held.scalar - row_max) * inverse_sum);
}

}  // namespace kbench::softmax
