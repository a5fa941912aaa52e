// The online softmax: one read pass that builds the row's (max, sum of exponentials) pair with
// the online combine rule (see MaxSum in softmax_device.cuh), then one write pass. Rows of up to
// kWarpPerRowMaxCols elements get one warp each (several rows per block, no shared memory, no
// barrier); longer rows get one block each.
#include "kernels/softmax/softmax_kernels.hpp"

#include "harness/device/cuda_check.hpp"
#include "kernels/softmax/softmax_device.cuh"

#include <stdexcept>

namespace kbench::softmax {

namespace {

/// Threads per block of the warp-per-row kernel: 8 warps, 8 rows.
constexpr int kWarpKernelBlock = 256;
constexpr int kRowsPerWarpBlock = kWarpKernelBlock / 32;
/// Loads each thread issues before folding them: 4 x 16 bytes in flight per thread on the vector
/// path, which with full occupancy covers DRAM latency on Hopper.
constexpr int kUnroll = 4;

/// The read pass of `threads` cooperating threads (a warp or a block), this one at index `t`:
/// the thread folds units t, t + threads, t + 2 * threads, ... of the row, kUnroll at a time with
/// all kUnroll loads issued before the first is used, then the remainder one by one. A unit is a
/// 16-byte vector (kVectorized) or one element. Returns this thread's partial state.
template <typename T, bool kVectorized>
__device__ __forceinline__ MaxSum read_pass(const T* __restrict__ row, std::int64_t cols, int t, int threads) {
  MaxSum state = empty_max_sum();
  if constexpr (kVectorized) {
    const auto* in = reinterpret_cast<const uint4*>(row);
    const std::int64_t units = cols / kVector<T>;
    std::int64_t u = t;
    for (; u + (kUnroll - 1) * threads < units; u += kUnroll * threads) {
      uint4 group[kUnroll];
#pragma unroll
      for (int k = 0; k < kUnroll; ++k) group[k] = in[u + k * threads];
      state = fold_vectors<T, kUnroll>(state, group);
    }
    for (; u < units; u += threads) {
      const uint4 one[1] = {in[u]};
      state = fold_vectors<T, 1>(state, one);
    }
  } else {
    std::int64_t u = t;
    for (; u + (kUnroll - 1) * threads < cols; u += kUnroll * threads) {
      float group[kUnroll];
#pragma unroll
      for (int k = 0; k < kUnroll; ++k) group[k] = to_float(row[u + k * threads]);
      state = fold(state, group);
    }
    for (; u < cols; u += threads) {
      const float one[1] = {to_float(row[u])};
      state = fold(state, one);
    }
  }
  return state;
}

/// The write pass: the row read again (from L1/L2: this warp or block just read it) and written
/// as y = e^(x - m) * (1 / d).
template <typename T, bool kVectorized>
__device__ __forceinline__ void write_pass(const T* __restrict__ row, T* __restrict__ out, std::int64_t cols, int t,
                                           int threads, MaxSum total) {
  const float inverse_sum = 1.0f / total.d;
  if constexpr (kVectorized) {
    const auto* in = reinterpret_cast<const uint4*>(row);
    auto* out4 = reinterpret_cast<uint4*>(out);
    const std::int64_t units = cols / kVector<T>;
#pragma unroll 4
    for (std::int64_t u = t; u < units; u += threads) out4[u] = normalize_vector<T>(in[u], total.m, inverse_sum);
  } else {
#pragma unroll 4
    for (std::int64_t u = t; u < cols; u += threads) {
      out[u] = from_float<T>(exp_via_exp2(to_float(row[u]) - total.m) * inverse_sum);
    }
  }
}

/// A warp per row, kRowsPerWarpBlock rows per block. The whole warp shares one row, so a warp
/// past the last row leaves as a unit and the full-mask shuffles of warp_combine stay valid;
/// lanes with no element of a short row hold the empty state (-inf, 0), which combines as zero.
template <typename T, bool kVectorized>
__global__ void __launch_bounds__(kWarpKernelBlock)
    softmax_online_warp_kernel(const T* __restrict__ x, T* __restrict__ y, std::int64_t rows, std::int64_t cols) {
  const std::int64_t row = static_cast<std::int64_t>(blockIdx.x) * kRowsPerWarpBlock + threadIdx.x / 32;
  if (row >= rows) return;
  const int lane = threadIdx.x % 32;
  const std::int64_t offset = row * cols;
  const MaxSum total = warp_combine(read_pass<T, kVectorized>(x + offset, cols, lane, 32));
  write_pass<T, kVectorized>(x + offset, y + offset, cols, lane, 32, total);
}

/// A block per row: the threads' partial states meet in block_combine (one barrier), so every
/// thread holds the row's total for the write pass.
template <typename T, bool kVectorized, int kBlock>
__global__ void __launch_bounds__(kBlock)
    softmax_online_block_kernel(const T* __restrict__ x, T* __restrict__ y, std::int64_t cols) {
  const std::int64_t offset = static_cast<std::int64_t>(blockIdx.x) * cols;
  const MaxSum total = block_combine(read_pass<T, kVectorized>(x + offset, cols, threadIdx.x, kBlock));
  write_pass<T, kVectorized>(x + offset, y + offset, cols, threadIdx.x, kBlock, total);
}

template <typename T, bool kVectorized, int kBlock>
void launch_block_kernel(const T* x, T* y, std::int64_t rows, std::int64_t cols, cudaStream_t stream) {
  softmax_online_block_kernel<T, kVectorized, kBlock><<<static_cast<unsigned>(rows), kBlock, 0, stream>>>(x, y, cols);
  KBENCH_CHECK_LAUNCH();
}

/// Threads per row for the block kernel: about 8 units (vectors or elements) per thread, so each
/// thread runs at least one full group of kUnroll loads, within 128..1024 threads.
template <typename T, bool kVectorized>
void launch_block_per_row(const T* x, T* y, std::int64_t rows, std::int64_t cols, cudaStream_t stream) {
  const std::int64_t units = kVectorized ? cols / kVector<T> : cols;
  if (units <= 8 * 128) launch_block_kernel<T, kVectorized, 128>(x, y, rows, cols, stream);
  else if (units <= 8 * 256) launch_block_kernel<T, kVectorized, 256>(x, y, rows, cols, stream);
  else if (units <= 8 * 512) launch_block_kernel<T, kVectorized, 512>(x, y, rows, cols, stream);
  else launch_block_kernel<T, kVectorized, 1024>(x, y, rows, cols, stream);
}

template <typename T, bool kVectorized>
void launch_path(const T* x, T* y, std::int64_t rows, std::int64_t cols, cudaStream_t stream) {
  if (cols <= kWarpPerRowMaxCols) {
    const std::int64_t blocks = (rows + kRowsPerWarpBlock - 1) / kRowsPerWarpBlock;
    softmax_online_warp_kernel<T, kVectorized>
        <<<static_cast<unsigned>(blocks), kWarpKernelBlock, 0, stream>>>(x, y, rows, cols);
    KBENCH_CHECK_LAUNCH();
  } else {
    launch_block_per_row<T, kVectorized>(x, y, rows, cols, stream);
  }
}

}  // namespace

template <typename T>
void launch_online(const T* x, T* y, std::int64_t rows, std::int64_t cols, cudaStream_t stream) {
  if (rows > 0x7FFFFFFF) throw std::invalid_argument("softmax online: more than 2^31 - 1 rows for a 1-D grid");
  // Every row starts on a 16-byte boundary exactly when the tensor does and a row is a whole
  // number of vectors; otherwise the scalar path (odd widths such as 1, 7 or 1031).
  const bool vectorized = aligned16(x) && aligned16(y) && cols % kVector<T> == 0;
  if (vectorized) launch_path<T, true>(x, y, rows, cols, stream);
  else launch_path<T, false>(x, y, rows, cols, stream);
}

template void launch_online<float>(const float*, float*, std::int64_t, std::int64_t, cudaStream_t);
template void launch_online<__half>(const __half*, __half*, std::int64_t, std::int64_t, cudaStream_t);
template void launch_online<__nv_bfloat16>(const __nv_bfloat16*, __nv_bfloat16*, std::int64_t, std::int64_t,
                                           cudaStream_t);

}  // namespace kbench::softmax
