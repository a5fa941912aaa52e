// Outer-axes sums of tensors with many columns (few rows or not): a thread per column, or per
// 16-byte group of columns when every row starts 16-byte aligned, walking down all the rows.
#include "kernels/sum/reduce_ops.cuh"
#include "kernels/sum/sum_kernels.hpp"

#include "harness/device/cuda_check.hpp"

#include <stdexcept>

namespace kbench::sum {

namespace {

constexpr int kWalkBlock = 256;

/// What a thread loads per row: its W columns as one 16-byte vector (W = kVector<T>) or a single
/// element (W = 1).
template <typename T, int W>
struct WalkLoad {
  using type = uint4;
};
template <typename T>
struct WalkLoad<T, 1> {
  using type = T;
};

/// Thread t owns columns [t * W, t * W + W) and adds them over every row, kColumnWalkUnroll rows
/// (or the last rows) loaded before any is added (each load of a warp one contiguous, coalesced stretch of a row:
/// 512 bytes with vectors), in row order, so the result is the same on every call. No partials,
/// no second pass: the grid's columns alone keep the device's bytes in flight, which is what the
/// auto rule asks before picking this kernel (sum_auto.hpp).
template <typename T, int W>
__global__ void __launch_bounds__(kWalkBlock)
    columns_walk_kernel(const T* __restrict__ in, T* __restrict__ out, std::int64_t rows, std::int64_t cols) {
  using Load = typename WalkLoad<T, W>::type;
  const std::int64_t col = (static_cast<std::int64_t>(blockIdx.x) * kWalkBlock + threadIdx.x) * W;
  if (col >= cols) return;
  const T* column = in + col;
  float acc[W];
#pragma unroll
  for (int w = 0; w < W; ++w) acc[w] = 0.0f;
  auto add = [&acc](const Load& v) {
    T elements[W];
    memcpy(elements, &v, sizeof(Load));
#pragma unroll
    for (int w = 0; w < W; ++w) acc[w] += to_float(elements[w]);
  };
  std::int64_t r = 0;
  for (; r + kColumnWalkUnroll <= rows; r += kColumnWalkUnroll) {
    Load held[kColumnWalkUnroll];
#pragma unroll
    for (int u = 0; u < kColumnWalkUnroll; ++u) held[u] = *reinterpret_cast<const Load*>(column + (r + u) * cols);
#pragma unroll
    for (int u = 0; u < kColumnWalkUnroll; ++u) add(held[u]);
  }
  if (r < rows) {  // the last rows, fewer than kColumnWalkUnroll: also all loaded before any is added
    Load held[kColumnWalkUnroll];
#pragma unroll
    for (int u = 0; u < kColumnWalkUnroll; ++u) {
      if (r + u < rows) held[u] = *reinterpret_cast<const Load*>(column + (r + u) * cols);
    }
#pragma unroll
    for (int u = 0; u < kColumnWalkUnroll; ++u) {
      if (r + u < rows) add(held[u]);
    }
  }
#pragma unroll
  for (int w = 0; w < W; ++w) out[col + w] = from_float<T>(acc[w]);
}

template <typename T, int W>
void launch_walk(const T* in, T* out, std::int64_t rows, std::int64_t cols, cudaStream_t stream) {
  const std::int64_t threads = (cols + W - 1) / W;
  const std::int64_t blocks = (threads + kWalkBlock - 1) / kWalkBlock;
  if (blocks > 0x7FFFFFFF) throw std::invalid_argument("sum_outer column walk: too many columns for a 1-D grid");
  columns_walk_kernel<T, W><<<static_cast<unsigned>(blocks), kWalkBlock, 0, stream>>>(in, out, rows, cols);
  KBENCH_CHECK_LAUNCH();
}

}  // namespace

template <typename T>
void launch_columns_walk(const T* in, T* out, std::int64_t rows, std::int64_t cols, cudaStream_t stream) {
  if (cols == 0) return;
  if (aligned16(in) && cols % kVector<T> == 0) launch_walk<T, kVector<T>>(in, out, rows, cols, stream);
  else launch_walk<T, 1>(in, out, rows, cols, stream);
}

template void launch_columns_walk<float>(const float*, float*, std::int64_t, std::int64_t, cudaStream_t);
template void launch_columns_walk<__half>(const __half*, __half*, std::int64_t, std::int64_t, cudaStream_t);
template void launch_columns_walk<__nv_bfloat16>(const __nv_bfloat16*, __nv_bfloat16*, std::int64_t, std::int64_t,
                                                 cudaStream_t);

}  // namespace kbench::sum
