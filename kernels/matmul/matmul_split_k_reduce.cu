// The second kernel of a split-K product: C = Σ_s partials[s], rounded once to C's type.
//
// A split-K kernel leaves `splits` fp32 slices of M×N each, slice s holding the products over
// its range of K. Here a block of 8 warps owns 32 positions of C (32 float4s, or 32 floats when
// M·N is not a multiple of 4): warp w adds slices w, w + 8, w + 16, ... in order, each warp's
// loads of one slice being 32 consecutive vectors (coalesced), and warp 0 then adds the 8 warp
// sums in warp order. The order of the additions is fixed, so a call's result never varies.
// Splitting the slices over the warps keeps 8 times more loads in flight than a thread per
// position would: 64 slices of 256×256 are 16 MB read from L2, most of which must be in flight
// at once to take a couple of microseconds rather than ten.
//
// With few slices (at most kFewSplits) that layout leaves most warps idle and runs a block per 32
// positions: 2 slices of 3000×1000 were 23,438 blocks of 256 threads, 192 threads of each without
// a load (and 3001×997, M·N odd, 93,500 blocks of one float a lane). There a thread owns its
// positions outright instead (one float4, or 4 floats a block's width apart), issues every slice's
// loads before the first add, and adds them in slice order: as fixed an order as the other path's,
// with no shared memory or barrier.
#include "kernels/matmul/matmul_kernels.hpp"

#include "harness/device/cuda_check.hpp"
#include "kernels/common/launch_attributes.cuh"
#include "kernels/common/dtype_convert.cuh"
#include "kernels/common/vector16.cuh"
#include "kernels/matmul/matmul_device.cuh"

#include <cstdint>
#include <stdexcept>
#include <string>

namespace kbench::matmul {

namespace {

constexpr int kWarps = 8;
constexpr int kThreads = 32 * kWarps;

/// Width positions of C per lane: 4 (float4 loads) or 1.
template <int Width>
struct Lane;
template <>
struct Lane<4> {
  using Vector = float4;
  __device__ static float4 zero() { return make_float4(0.0f, 0.0f, 0.0f, 0.0f); }
  __device__ static void add(float4& x, float4 y) {
    x.x += y.x;
    x.y += y.y;
    x.z += y.z;
    x.w += y.w;
  }
};
template <>
struct Lane<1> {
  using Vector = float;
  __device__ static float zero() { return 0.0f; }
  __device__ static void add(float& x, float y) { x += y; }
};

template <typename T>
__device__ __forceinline__ void store(T* c, float4 v) {
  if constexpr (sizeof(T) == 4) {
    *reinterpret_cast<float4*>(c) = v;
  } else {
    *reinterpret_cast<uint2*>(c) = make_uint2(pack_pair<T>(v.x, v.y), pack_pair<T>(v.z, v.w));
  }
}

template <typename T>
__device__ __forceinline__ void store(T* c, float v) {
  *c = from_float<T>(v);
}

template <typename T, int Width>
__global__ void __launch_bounds__(kThreads)
    split_k_reduce_kernel(const float* __restrict__ partials, int splits, std::int64_t elements, T* __restrict__ c) {
  using Vector = typename Lane<Width>::Vector;
  __shared__ Vector warp_sums[kWarps][32];
  const int warp = static_cast<int>(threadIdx.x) / 32, lane = static_cast<int>(threadIdx.x) % 32;
  const std::int64_t position = (static_cast<std::int64_t>(blockIdx.x) * 32 + lane) * Width;
  const bool inside = position < elements;
  wait_for_primary();

  Vector sum = Lane<Width>::zero();
  if (inside) {
#pragma unroll 4
    for (int s = warp; s < splits; s += kWarps) {
      Lane<Width>::add(sum, *reinterpret_cast<const Vector*>(partials + s * elements + position));
    }
  }
  warp_sums[warp][lane] = sum;
  __syncthreads();
  if (warp != 0 || !inside) return;
#pragma unroll
  for (int w = 1; w < kWarps; ++w) Lane<Width>::add(sum, warp_sums[w][lane]);
  store(c + position, sum);
}

/// The most slices the few-slices kernel takes (its loads are unrolled over them).
constexpr int kFewSplits = 8;

/// Positions a thread owns in the few-slices kernel: one float4, or 4 floats kThreads apart
/// (a warp's loads stay coalesced, and a thread still has 4 loads a slice in flight).
template <int Width>
constexpr int kFewPositions = Width == 4 ? 1 : 4;

template <typename T, int Width>
__global__ void __launch_bounds__(kThreads)
    split_k_reduce_few_kernel(const float* __restrict__ partials, int splits, std::int64_t elements, T* __restrict__ c) {
  using Vector = typename Lane<Width>::Vector;
  constexpr int kPositions = kFewPositions<Width>;
  const std::int64_t first =
      (static_cast<std::int64_t>(blockIdx.x) * kThreads * kPositions + static_cast<int>(threadIdx.x)) * Width;
  Vector slice[kFewSplits][kPositions];
  wait_for_primary();
#pragma unroll
  for (int s = 0; s < kFewSplits; ++s) {
#pragma unroll
    for (int i = 0; i < kPositions; ++i) {
      const std::int64_t position = first + std::int64_t{i} * kThreads * Width;
      slice[s][i] = s < splits && position < elements
                        ? *reinterpret_cast<const Vector*>(partials + s * elements + position)
                        : Lane<Width>::zero();
    }
  }
#pragma unroll
  for (int i = 0; i < kPositions; ++i) {
    const std::int64_t position = first + std::int64_t{i} * kThreads * Width;
    if (position >= elements) break;
    Vector sum = slice[0][i];
#pragma unroll
    for (int s = 1; s < kFewSplits; ++s)
      if (s < splits) Lane<Width>::add(sum, slice[s][i]);
    store(c + position, sum);
  }
}

template <typename T, int Width>
void launch_width(const float* partials, int splits, std::int64_t elements, T* c, cudaStream_t stream) {
  if (splits <= kFewSplits) {
    const std::int64_t per_block = std::int64_t{kThreads} * kFewPositions<Width> * Width;
    const std::int64_t blocks = (elements + per_block - 1) / per_block;
    const dim3 grid(static_cast<unsigned>(blocks));
    launch_dependent<split_k_reduce_few_kernel<T, Width>>(grid, dim3(kThreads), 0, stream, partials, splits, elements, c);
  } else {
    const std::int64_t blocks = (elements + 32 * Width - 1) / (32 * Width);
    const dim3 grid(static_cast<unsigned>(blocks));
    launch_dependent<split_k_reduce_kernel<T, Width>>(grid, dim3(kThreads), 0, stream, partials, splits, elements, c);
  }
}

template <typename T>
void launch_reduce(const float* partials, int splits, T* c, Dims dims, cudaStream_t stream) {
  if (splits < 1) throw std::invalid_argument("split-K reduce: splits must be >= 1, got " + std::to_string(splits));
  const std::int64_t elements = std::int64_t{dims.m} * dims.n;
  // Four positions per lane when every slice starts 16-byte aligned and C takes 4-element stores.
  const bool vectors = elements % 4 == 0 && aligned16(partials) &&
                       reinterpret_cast<std::uintptr_t>(c) % (4 * sizeof(T)) == 0;
  if (vectors) {
    launch_width<T, 4>(partials, splits, elements, c, stream);
  } else {
    launch_width<T, 1>(partials, splits, elements, c, stream);
  }
}

}  // namespace

void launch_split_k_reduce(const float* partials, int splits, float* c, Dims dims, cudaStream_t stream) {
  launch_reduce(partials, splits, c, dims, stream);
}

void launch_split_k_reduce(const float* partials, int splits, __half* c, Dims dims, cudaStream_t stream) {
  launch_reduce(partials, splits, c, dims, stream);
}

void launch_split_k_reduce(const float* partials, int splits, __nv_bfloat16* c, Dims dims, cudaStream_t stream) {
  launch_reduce(partials, splits, c, dims, stream);
}

}  // namespace kbench::matmul
