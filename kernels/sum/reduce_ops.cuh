#pragma once
/// Device building blocks shared by the reduction kernels: folding 16-byte vectors into an fp32
/// accumulator. The operators (always in fp32, whatever the element type), conversions, warp and
/// block reductions and kVector come from kernels/common/.

#include "kernels/common/dtype_convert.cuh"
#include "kernels/common/reductions.cuh"
#include "kernels/common/vector16.cuh"

#include <cstdint>

namespace kbench::sum {

/// Folds the kVector<T> elements of a 16-byte vector into `acc`.
template <typename T, typename Op>
__device__ __forceinline__ float fold_vector(uint4 v, float acc, Op op) {
  T elements[kVector<T>];
  memcpy(elements, &v, 16);
#pragma unroll
  for (int i = 0; i < kVector<T>; ++i) acc = op(acc, to_float(elements[i]));
  return acc;
}

/// Folds a row's `cols` elements one by one, in order, from Op's identity: the thread-per-row walk.
template <typename T, typename Op>
__device__ __forceinline__ float fold_elements(const T* __restrict__ row, std::int64_t cols, Op op) {
  float acc = Op::identity();
  for (std::int64_t c = 0; c < cols; ++c) acc = op(acc, to_float(row[c]));
  return acc;
}

/// Folds the 16-byte vectors i, i + stride, ... below `end` into acc with `op`: kUnroll loads
/// issued before any is folded, each into its own accumulator, then the remainder one by one
/// into acc[0].
template <typename T, int kUnroll, typename Op>
__device__ __forceinline__ void fold_vectors_strided(const uint4* __restrict__ in4, std::int64_t i, std::int64_t end,
                                                     std::int64_t stride, float (&acc)[kUnroll], Op op) {
  for (; i + (kUnroll - 1) * stride < end; i += kUnroll * stride) {
    uint4 v[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) v[u] = in4[i + u * stride];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) acc[u] = fold_vector<T>(v[u], acc[u], op);
  }
  for (; i < end; i += stride) acc[0] = fold_vector<T>(in4[i], acc[0], op);
}

}  // namespace kbench::sum
