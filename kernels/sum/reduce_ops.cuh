#pragma once
/// Device building blocks shared by the reduction kernels: the reduction operators (always in
/// fp32, whatever the element type), conversions, and warp/block reductions.

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>

namespace kbench::sum {

struct SumOp {
  __device__ static float identity() { return 0.0f; }
  __device__ float operator()(float a, float b) const { return a + b; }
};

struct MaxOp {
  __device__ static float identity() { return -__int_as_float(0x7f800000); }  // -inf
  __device__ float operator()(float a, float b) const { return fmaxf(a, b); }
};

__device__ __forceinline__ float to_float(float x) { return x; }
__device__ __forceinline__ float to_float(__half x) { return __half2float(x); }
__device__ __forceinline__ float to_float(__nv_bfloat16 x) { return __bfloat162float(x); }

template <typename T>
__device__ __forceinline__ T from_float(float x);
template <>
__device__ __forceinline__ float from_float<float>(float x) { return x; }
template <>
__device__ __forceinline__ __half from_float<__half>(float x) { return __float2half_rn(x); }
template <>
__device__ __forceinline__ __nv_bfloat16 from_float<__nv_bfloat16>(float x) { return __float2bfloat16_rn(x); }

/// Elements of T in one 16-byte vector.
template <typename T>
constexpr int kVector = 16 / sizeof(T);

/// Folds the kVector<T> elements of a 16-byte vector into `acc`.
template <typename T, typename Op>
__device__ __forceinline__ float fold_vector(uint4 v, float acc, Op op) {
  T elements[kVector<T>];
  memcpy(elements, &v, 16);
#pragma unroll
  for (int i = 0; i < kVector<T>; ++i) acc = op(acc, to_float(elements[i]));
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

/// Reduces `v` across the 32 lanes of a warp; every lane gets the result.
template <typename Op>
__device__ __forceinline__ float warp_reduce(float v, Op op) {
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1) v = op(v, __shfl_xor_sync(0xffffffffu, v, offset));
  return v;
}

/// Reduces `v` across the block (blockDim.x a multiple of 32, at most 1024); the result is valid
/// in thread 0. `scratch` holds 32 floats of shared memory; the call ends with a barrier so the
/// scratch can be reused.
template <typename Op>
__device__ __forceinline__ float block_reduce(float v, Op op, float* scratch) {
  const int lane = threadIdx.x % 32;
  const int warp = threadIdx.x / 32;
  v = warp_reduce(v, op);
  if (lane == 0) scratch[warp] = v;
  __syncthreads();
  const int warps = blockDim.x / 32;
  v = threadIdx.x < warps ? scratch[threadIdx.x] : Op::identity();
  if (warp == 0) v = warp_reduce(v, op);
  __syncthreads();
  return v;
}

__device__ __forceinline__ bool aligned16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

}  // namespace kbench::sum
