#pragma once
/// Warp and block reductions of fp32 values, and the operators kbench's kernels reduce with
/// (sum and max, always in fp32 whatever the element type). Included by .cu files only.
///
/// Contract: every function here must be called by all 32 lanes of each warp involved (full
/// shuffle mask), and the block forms by every thread of a block whose blockDim.x is a multiple
/// of 32 (at most 1024). An operator is a functor (float, float) -> float with a static
/// identity().

namespace kbench {

/// -inf, without <cmath>'s host INFINITY.
__device__ __forceinline__ float negative_infinity() { return -__int_as_float(0x7f800000); }

/// a + b; identity 0.
struct SumOp {
  __device__ static float identity() { return 0.0f; }
  __device__ float operator()(float a, float b) const { return a + b; }
};

/// max(a, b) as fmaxf: a NaN operand is dropped, so a reduction gives the largest of the other
/// elements (-inf where all are NaN), unlike PyTorch's max, which gives NaN. max.NaN.f32 would
/// propagate it but ran span_rows' 16-bit short rows 13-15 % slower on the H200 (sum NOTES,
/// twenty-sixth session). Identity -inf.
struct MaxOp {
  __device__ static float identity() { return negative_infinity(); }
  __device__ float operator()(float a, float b) const { return fmaxf(a, b); }
};

/// Butterfly reduction over the 32 lanes of a warp: after log2(32) = 5 xor-shuffles every lane
/// holds the result.
template <typename Op>
__device__ __forceinline__ float warp_allreduce(float v, Op op) {
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1) v = op(v, __shfl_xor_sync(0xffffffffu, v, offset));
  return v;
}

/// Reduces `v` over the whole block; every thread gets the result. `scratch` is 32 floats of
/// shared memory; the closing barrier lets the caller reuse it for the next reduction.
template <typename Op>
__device__ __forceinline__ float block_allreduce(float v, Op op, float* scratch) {
  const int lane = threadIdx.x % 32;
  const int warp = threadIdx.x / 32;
  const int warps = blockDim.x / 32;
  v = warp_allreduce(v, op);
  if (lane == 0) scratch[warp] = v;
  __syncthreads();
  v = lane < warps ? scratch[lane] : Op::identity();
  v = warp_allreduce(v, op);  // every warp folds the same partials, so no broadcast is needed
  __syncthreads();
  return v;
}

/// Reduces `v` over the whole block; the result is valid in thread 0 only (warp 0 alone folds
/// the warps' partials, one warp's work less than block_allreduce). `scratch` is 32 floats of
/// shared memory; the closing barrier lets the caller reuse it.
template <typename Op>
__device__ __forceinline__ float block_reduce(float v, Op op, float* scratch) {
  const int lane = threadIdx.x % 32;
  const int warp = threadIdx.x / 32;
  v = warp_allreduce(v, op);
  if (lane == 0) scratch[warp] = v;
  __syncthreads();
  const int warps = blockDim.x / 32;
  v = threadIdx.x < warps ? scratch[threadIdx.x] : Op::identity();
  if (warp == 0) v = warp_allreduce(v, op);
  __syncthreads();
  return v;
}

}  // namespace kbench
