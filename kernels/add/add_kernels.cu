#include "kernels/add/add_kernels.hpp"

#include "harness/device/cuda_check.hpp"
#include "kernels/common/vector16.cuh"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <stdexcept>

namespace kbench::add {

namespace {

constexpr int kNaiveBlock = 256;
/// 16-byte vectors each thread keeps in flight per input: 4 x 2 loads of 16 bytes before the
/// first add, enough to cover DRAM latency on Hopper at full occupancy.
constexpr int kUnroll = 4;

template <typename T>
__global__ void add_naive_kernel(const T* __restrict__ a, const T* __restrict__ b, T* __restrict__ c, std::int64_t n) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

/// Adds two 16-byte vectors lane by lane, in the element type's native arithmetic.
template <typename T>
__device__ __forceinline__ uint4 add_vector(uint4 x, uint4 y);

template <>
__device__ __forceinline__ uint4 add_vector<float>(uint4 x, uint4 y) {
  return make_uint4(__float_as_uint(__uint_as_float(x.x) + __uint_as_float(y.x)),
                    __float_as_uint(__uint_as_float(x.y) + __uint_as_float(y.y)),
                    __float_as_uint(__uint_as_float(x.z) + __uint_as_float(y.z)),
                    __float_as_uint(__uint_as_float(x.w) + __uint_as_float(y.w)));
}

/// Two 16-bit lanes packed in one 32-bit word, added with one paired instruction (HADD2).
template <typename Pair>
__device__ __forceinline__ unsigned add_pair(unsigned x, unsigned y) {
  Pair px, py;
  memcpy(&px, &x, 4);
  memcpy(&py, &y, 4);
  const Pair sum = __hadd2(px, py);
  unsigned out;
  memcpy(&out, &sum, 4);
  return out;
}

template <>
__device__ __forceinline__ uint4 add_vector<__half>(uint4 x, uint4 y) {
  return make_uint4(add_pair<__half2>(x.x, y.x), add_pair<__half2>(x.y, y.y), add_pair<__half2>(x.z, y.z),
                    add_pair<__half2>(x.w, y.w));
}

template <>
__device__ __forceinline__ uint4 add_vector<__nv_bfloat16>(uint4 x, uint4 y) {
  return make_uint4(add_pair<__nv_bfloat162>(x.x, y.x), add_pair<__nv_bfloat162>(x.y, y.y),
                    add_pair<__nv_bfloat162>(x.z, y.z), add_pair<__nv_bfloat162>(x.w, y.w));
}

/// The body works on 16-byte vectors (4 fp32 or 8 fp16/bf16 elements) so that each thread issues
/// 128-bit loads and stores (LDG.E.128 / STG.E.128). A grid sized to fill the GPU once strides
/// over the tensor; each pass a thread first loads kUnroll vectors of each input, then adds and
/// stores them, so 2 x kUnroll independent loads are in flight. The n % (16 / sizeof(T))
/// elements past the last whole vector are added one per thread by the first threads of the grid.
template <typename T>
__global__ void __launch_bounds__(kVectorizedBlock)
    add_vectorized_kernel(const T* __restrict__ a, const T* __restrict__ b, T* __restrict__ c, std::int64_t n) {
  const std::int64_t vectors = n / kVector<T>;
  const auto* a4 = reinterpret_cast<const uint4*>(a);
  const auto* b4 = reinterpret_cast<const uint4*>(b);
  auto* c4 = reinterpret_cast<uint4*>(c);
  const std::int64_t thread = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;

  std::int64_t i = thread;
  for (; i + (kUnroll - 1) * stride < vectors; i += kUnroll * stride) {
    uint4 va[kUnroll], vb[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      va[u] = a4[i + u * stride];
      vb[u] = b4[i + u * stride];
    }
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) c4[i + u * stride] = add_vector<T>(va[u], vb[u]);
  }
  for (; i < vectors; i += stride) c4[i] = add_vector<T>(a4[i], b4[i]);

  const std::int64_t tail = vectors * kVector<T> + thread;
  if (tail < n) c[tail] = a[tail] + b[tail];
}

/// The same 16-byte vectors without a grid-stride loop: one launch covers the tensor with as many
/// blocks as it needs, block b owning the contiguous tile [b, b + 1) x kVectorizedBlock x kUnroll
/// vectors, each of its kUnroll loads per input coalesced across the block. Every block streams
/// one short contiguous stretch and retires, so the DRAM pages in use at any moment stay few and
/// the hardware scheduler, not a loop, balances the work (the persistent grid-stride version keeps
/// 4 streams a stride apart per thread). The tail vectors are guarded; the last n % (16 /
/// sizeof(T)) elements go to the first threads of block 0.
template <typename T>
__global__ void __launch_bounds__(kVectorizedBlock)
    add_blocked_kernel(const T* __restrict__ a, const T* __restrict__ b, T* __restrict__ c, std::int64_t n) {
  const std::int64_t vectors = n / kVector<T>;
  const auto* a4 = reinterpret_cast<const uint4*>(a);
  const auto* b4 = reinterpret_cast<const uint4*>(b);
  auto* c4 = reinterpret_cast<uint4*>(c);
  const std::int64_t base = static_cast<std::int64_t>(blockIdx.x) * kVectorizedBlock * kUnroll + threadIdx.x;

  uint4 va[kUnroll], vb[kUnroll];
  if (base + (kUnroll - 1) * kVectorizedBlock < vectors) {
    // This thread's vectors all lie inside the tensor (every thread but some of the last block's):
    // no guard between the loads, so all 2 x kUnroll are issued before the first add.
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      va[u] = a4[base + u * kVectorizedBlock];
      vb[u] = b4[base + u * kVectorizedBlock];
    }
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) c4[base + u * kVectorizedBlock] = add_vector<T>(va[u], vb[u]);
  } else {
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const std::int64_t i = base + u * kVectorizedBlock;
      if (i < vectors) {
        va[u] = a4[i];
        vb[u] = b4[i];
      }
    }
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const std::int64_t i = base + u * kVectorizedBlock;
      if (i < vectors) c4[i] = add_vector<T>(va[u], vb[u]);
    }
  }
  if (blockIdx.x == 0) {
    const std::int64_t tail = vectors * kVector<T> + threadIdx.x;
    if (tail < n) c[tail] = a[tail] + b[tail];
  }
}

}  // namespace

template <typename T>
void launch_naive(const T* a, const T* b, T* c, std::int64_t n, cudaStream_t stream) {
  const std::int64_t blocks = (n + kNaiveBlock - 1) / kNaiveBlock;
  if (blocks > 0x7FFFFFFF) throw std::invalid_argument("add naive: too many elements for a 1-D grid");
  add_naive_kernel<T><<<static_cast<unsigned>(blocks), kNaiveBlock, 0, stream>>>(a, b, c, n);
  KBENCH_CHECK_LAUNCH();
}

template <typename T>
int vectorized_grid(std::int64_t n, int sm_count) {
  int blocks_per_sm = 0;
  KBENCH_CUDA_CALL(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, add_vectorized_kernel<T>,
                                                                 kVectorizedBlock, 0));
  const std::int64_t vectors = n / kVector<T>;
  const std::int64_t needed = (vectors + kVectorizedBlock * kUnroll - 1) / (kVectorizedBlock * kUnroll);
  const std::int64_t full = static_cast<std::int64_t>(std::max(1, blocks_per_sm)) * sm_count;
  return static_cast<int>(std::max<std::int64_t>(1, std::min(needed, full)));
}

template <typename T>
void launch_vectorized(const T* a, const T* b, T* c, std::int64_t n, int grid, cudaStream_t stream) {
  if (!aligned16(a) || !aligned16(b) || !aligned16(c)) {
    throw std::invalid_argument("add vectorized: pointers must be 16-byte aligned");
  }
  add_vectorized_kernel<T><<<grid, kVectorizedBlock, 0, stream>>>(a, b, c, n);
  KBENCH_CHECK_LAUNCH();
}

template <typename T>
void launch_blocked(const T* a, const T* b, T* c, std::int64_t n, cudaStream_t stream) {
  if (!aligned16(a) || !aligned16(b) || !aligned16(c)) {
    throw std::invalid_argument("add blocked: pointers must be 16-byte aligned");
  }
  const std::int64_t vectors = n / kVector<T>;
  const std::int64_t blocks = std::max<std::int64_t>(1, (vectors + kVectorizedBlock * kUnroll - 1) / (kVectorizedBlock * kUnroll));
  if (blocks > 0x7FFFFFFF) throw std::invalid_argument("add blocked: too many elements for a 1-D grid");
  add_blocked_kernel<T><<<static_cast<unsigned>(blocks), kVectorizedBlock, 0, stream>>>(a, b, c, n);
  KBENCH_CHECK_LAUNCH();
}

#define KBENCH_INSTANTIATE_ADD(T)                                                           \
  template void launch_naive<T>(const T*, const T*, T*, std::int64_t, cudaStream_t);        \
  template void launch_vectorized<T>(const T*, const T*, T*, std::int64_t, int, cudaStream_t); \
  template int vectorized_grid<T>(std::int64_t, int);                                       \
  template void launch_blocked<T>(const T*, const T*, T*, std::int64_t, cudaStream_t);

KBENCH_INSTANTIATE_ADD(float)
KBENCH_INSTANTIATE_ADD(__half)
KBENCH_INSTANTIATE_ADD(__nv_bfloat16)

}  // namespace kbench::add
