// The fused GELU kernels: the whole formula in registers, one read and one write per element.
#include "kernels/gelu/gelu_kernels.hpp"

#include "harness/device/cuda_check.hpp"
#include "kernels/common/vector16.cuh"
#include "kernels/gelu/gelu_math.cuh"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace kbench::gelu {

namespace {

constexpr int kFusedBlock = 256;
/// 16-byte vectors each thread loads before computing any of them: 4 x 16 bytes in flight per
/// thread, as in add's vectorized kernel.
constexpr int kUnroll = 4;

template <typename T, typename F>
__global__ void __launch_bounds__(kFusedBlock) gelu_fused_kernel(const T* __restrict__ x, T* __restrict__ y,
                                                                 std::int64_t n, F f) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * kFusedBlock + threadIdx.x;
  if (i < n) y[i] = f(x[i]);
}

/// Applies `f` to each of the 16 / sizeof(T) elements of a 16-byte vector.
template <typename T, typename F>
__device__ __forceinline__ uint4 apply_vector(uint4 v, F f) {
  T elements[kVector<T>];
  memcpy(elements, &v, 16);
#pragma unroll
  for (int k = 0; k < kVector<T>; ++k) elements[k] = f(elements[k]);
  uint4 out;
  memcpy(&out, elements, 16);
  return out;
}

/// The body works on 16-byte vectors (4 fp32 or 8 fp16/bf16 elements) so that each thread
/// issues 128-bit loads and stores. A grid sized to fill the GPU once strides over the tensor;
/// each pass a thread first loads kUnroll vectors, then computes and stores them. The
/// n % (16 / sizeof(T)) elements past the last whole vector (at most 7) are done one per thread
/// by the first threads of the grid, which always has at least one 256-thread block.
template <typename T, typename F>
__global__ void __launch_bounds__(kVectorizedBlock)
    gelu_vectorized_kernel(const T* __restrict__ x, T* __restrict__ y, std::int64_t n, F f) {
  const std::int64_t vectors = n / kVector<T>;
  const auto* x4 = reinterpret_cast<const uint4*>(x);
  auto* y4 = reinterpret_cast<uint4*>(y);
  const std::int64_t thread = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;

  std::int64_t i = thread;
  for (; i + (kUnroll - 1) * stride < vectors; i += kUnroll * stride) {
    uint4 v[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) v[u] = x4[i + u * stride];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) y4[i + u * stride] = apply_vector<T>(v[u], f);
  }
  for (; i < vectors; i += stride) y4[i] = apply_vector<T>(x4[i], f);

  const std::int64_t tail = vectors * kVector<T> + thread;
  if (tail < n) y[tail] = f(x[tail]);
}

/// The same 16-byte vectors without a grid-stride loop (add's `blocked` layout): block b owns the
/// contiguous tile of kVectorizedBlock x kUnroll vectors starting at vector b x kVectorizedBlock x
/// kUnroll; it loads its kUnroll vectors per thread (each load coalesced across the block), then
/// computes and stores them, and retires. The hardware scheduler balances the blocks. The last
/// n % (16 / sizeof(T)) elements go to the first threads of block 0.
template <typename T, typename F>
__global__ void __launch_bounds__(kVectorizedBlock)
    gelu_blocked_kernel(const T* __restrict__ x, T* __restrict__ y, std::int64_t n, F f) {
  const std::int64_t vectors = n / kVector<T>;
  const auto* x4 = reinterpret_cast<const uint4*>(x);
  auto* y4 = reinterpret_cast<uint4*>(y);
  const std::int64_t base = static_cast<std::int64_t>(blockIdx.x) * kVectorizedBlock * kUnroll + threadIdx.x;

  uint4 v[kUnroll];
#pragma unroll
  for (int u = 0; u < kUnroll; ++u) {
    const std::int64_t i = base + u * kVectorizedBlock;
    if (i < vectors) v[u] = x4[i];
  }
#pragma unroll
  for (int u = 0; u < kUnroll; ++u) {
    const std::int64_t i = base + u * kVectorizedBlock;
    if (i < vectors) y4[i] = apply_vector<T>(v[u], f);
  }
  if (blockIdx.x == 0) {
    const std::int64_t tail = vectors * kVector<T> + threadIdx.x;
    if (tail < n) y[tail] = f(x[tail]);
  }
}

/// Calls `body(functor)` with the functor of `form` for element type T.
template <typename T, typename Body>
void with_functor(Form form, Body&& body) {
  if (form == Form::tanh) body(GeluFunctor<T, GeluTanh>{});
  else body(GeluFunctor<T, GeluErfFor<T>>{});
}

}  // namespace

template <typename T>
void launch_fused(Form form, const T* x, T* y, std::int64_t n, cudaStream_t stream) {
  const std::int64_t blocks = (n + kFusedBlock - 1) / kFusedBlock;
  if (blocks > 0x7FFFFFFF) throw std::invalid_argument("gelu fused: too many elements for a 1-D grid");
  with_functor<T>(form, [&](auto f) {
    gelu_fused_kernel<<<static_cast<unsigned>(blocks), kFusedBlock, 0, stream>>>(x, y, n, f);
    KBENCH_CHECK_LAUNCH();
  });
}

template <typename T>
int vectorized_grid(Form form, std::int64_t n, int sm_count) {
  int blocks_per_sm = 0;
  with_functor<T>(form, [&](auto f) {
    KBENCH_CUDA_CALL(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &blocks_per_sm, gelu_vectorized_kernel<T, decltype(f)>, kVectorizedBlock, 0));
  });
  const std::int64_t vectors = n / kVector<T>;
  const std::int64_t needed = (vectors + kVectorizedBlock * kUnroll - 1) / (kVectorizedBlock * kUnroll);
  const std::int64_t full = static_cast<std::int64_t>(std::max(1, blocks_per_sm)) * sm_count;
  return static_cast<int>(std::max<std::int64_t>(1, std::min(needed, full)));
}

template <typename T>
void launch_vectorized(Form form, const T* x, T* y, std::int64_t n, int grid, cudaStream_t stream) {
  if (!aligned16(x) || !aligned16(y)) throw std::invalid_argument("gelu vectorized: pointers must be 16-byte aligned");
  if (grid < 1) throw std::invalid_argument("gelu vectorized: grid must have at least one block");
  with_functor<T>(form, [&](auto f) {
    gelu_vectorized_kernel<<<grid, kVectorizedBlock, 0, stream>>>(x, y, n, f);
    KBENCH_CHECK_LAUNCH();
  });
}

template <typename T>
void launch_blocked(Form form, const T* x, T* y, std::int64_t n, cudaStream_t stream) {
  if (!aligned16(x) || !aligned16(y)) throw std::invalid_argument("gelu blocked: pointers must be 16-byte aligned");
  const std::int64_t vectors = n / kVector<T>;
  const std::int64_t blocks =
      std::max<std::int64_t>(1, (vectors + kVectorizedBlock * kUnroll - 1) / (kVectorizedBlock * kUnroll));
  if (blocks > 0x7FFFFFFF) throw std::invalid_argument("gelu blocked: too many elements for a 1-D grid");
  with_functor<T>(form, [&](auto f) {
    gelu_blocked_kernel<<<static_cast<unsigned>(blocks), kVectorizedBlock, 0, stream>>>(x, y, n, f);
    KBENCH_CHECK_LAUNCH();
  });
}

#define KBENCH_INSTANTIATE_GELU(T)                                                         \
  template void launch_fused<T>(Form, const T*, T*, std::int64_t, cudaStream_t);           \
  template int vectorized_grid<T>(Form, std::int64_t, int);                                \
  template void launch_vectorized<T>(Form, const T*, T*, std::int64_t, int, cudaStream_t); \
  template void launch_blocked<T>(Form, const T*, T*, std::int64_t, cudaStream_t);

KBENCH_INSTANTIATE_GELU(float)
KBENCH_INSTANTIATE_GELU(__half)
KBENCH_INSTANTIATE_GELU(__nv_bfloat16)

}  // namespace kbench::gelu
