// Inner-axis reductions: each row of a rows x cols tensor into one value.
#include "kernels/common/flat_tile.cuh"
#include "kernels/sum/reduce_ops.cuh"
#include "kernels/sum/sum_kernels.hpp"

#include "harness/device/cuda_check.hpp"

#include <stdexcept>

namespace kbench::sum {

namespace {

constexpr int kNaiveBlock = 256;
constexpr int kRowsBlock = 256;  ///< threads per block of the warp-per-row kernel
constexpr int kWarpsPerBlock = kRowsBlock / 32;
constexpr int kRowUnroll = 4;  ///< 16-byte loads each thread keeps in flight along a row

template <typename T, typename Op>
__global__ void rows_naive_kernel(const T* __restrict__ in, T* __restrict__ out, std::int64_t rows, std::int64_t cols,
                                  Op op) {
  const std::int64_t row = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  out[row] = from_float<T>(fold_elements(in + row * cols, cols, op));
}

/// Folds the elements of `row` that thread `first` of `stride` threads owns: the 16-byte vectors
/// of the row's aligned body (aligned_span: a row of odd length starts at any alignment, so its
/// first elements up to a 16-byte boundary are the head) with kRowUnroll loads in flight into as
/// many accumulators, and the head and the tail element by element (each shorter than kVector,
/// so stride >= 32 covers them in one round). The head and tail are loaded before the body, and
/// the last 1-3 vectors (after the groups of 4) together: a thread of a 128-thread block over an
/// fp32 row of 1571 columns holds 3 vectors, which one at a time cost 3 round trips, and now 1.
template <typename T, typename Op>
__device__ __forceinline__ float fold_row(const T* __restrict__ row, std::int64_t cols, int first, int stride, Op op) {
  float acc[kRowUnroll];
#pragma unroll
  for (int u = 0; u < kRowUnroll; ++u) acc[u] = Op::identity();
  const AlignedSpan span = aligned_span(row, cols);
  const bool has_head = first < span.head, has_tail = first < span.tail;
  const T head = has_head ? row[first] : T{};
  const T tail = has_tail ? row[span.head + span.vectors * kVector<T> + first] : T{};
  const uint4* body = reinterpret_cast<const uint4*>(row + span.head);
  std::int64_t i = first;
  for (; i + (kRowUnroll - 1) * stride < span.vectors; i += kRowUnroll * stride) {
    uint4 v[kRowUnroll];
#pragma unroll
    for (int u = 0; u < kRowUnroll; ++u) v[u] = body[i + u * stride];
#pragma unroll
    for (int u = 0; u < kRowUnroll; ++u) acc[u] = fold_vector<T>(v[u], acc[u], op);
  }
  uint4 last[kRowUnroll - 1];
#pragma unroll
  for (int u = 0; u < kRowUnroll - 1; ++u) {
    if (i + u * stride < span.vectors) last[u] = body[i + u * stride];
  }
#pragma unroll
  for (int u = 0; u < kRowUnroll - 1; ++u) {
    if (i + u * stride < span.vectors) acc[u] = fold_vector<T>(last[u], acc[u], op);
  }
  if (has_head) acc[1] = op(acc[1], to_float(head));
  if (has_tail) acc[2] = op(acc[2], to_float(tail));
  return op(op(acc[0], acc[1]), op(acc[2], acc[3]));
}

/// Short rows: each warp of the block owns one row; lanes stride over it, then a warp shuffle.
template <typename T, typename Op>
__global__ void __launch_bounds__(kRowsBlock)
    rows_warp_kernel(const T* __restrict__ in, T* __restrict__ out, std::int64_t rows, std::int64_t cols, Op op) {
  const int lane = threadIdx.x % 32;
  const std::int64_t row = static_cast<std::int64_t>(blockIdx.x) * kWarpsPerBlock + threadIdx.x / 32;
  if (row >= rows) return;  // whole warps leave together: the shuffle below stays full-warp
  const float acc = warp_allreduce(fold_row(in + row * cols, cols, lane, 32, op), op);
  if (lane == 0) out[row] = from_float<T>(acc);
}

/// Long rows: one block of kBlock threads per row.
template <typename T, typename Op, int kBlock>
__global__ void __launch_bounds__(kBlock)
    rows_block_kernel(const T* __restrict__ in, T* __restrict__ out, std::int64_t cols, Op op) {
  __shared__ float scratch[32];
  const std::int64_t row = blockIdx.x;
  const float acc = block_reduce(fold_row(in + row * cols, cols, threadIdx.x, kBlock, op), op, scratch);
  if (threadIdx.x == 0) out[row] = from_float<T>(acc);
}

template <typename T, typename Op>
void rows_parallel(const T* in, T* out, std::int64_t rows, std::int64_t cols, Op op, cudaStream_t stream) {
  if (cols <= warp_row_max_cols(sizeof(T))) {
    const std::int64_t blocks = (rows + kWarpsPerBlock - 1) / kWarpsPerBlock;
    rows_warp_kernel<T><<<static_cast<unsigned>(blocks), kRowsBlock, 0, stream>>>(in, out, rows, cols, op);
  } else {
    if (rows > 0x7FFFFFFF) throw std::invalid_argument("sum rows: too many rows for one grid");
    // 256 threads, 128 for rows of at most 128 x kRowUnroll vectors (each thread then still has
    // a whole group of loads). Measured at 8192^2 on the H100 (cold, % of peak): fp16 rows (1024
    // vectors) 85.2 with 256 threads against 84.2 with 128; fp32 rows (2048 vectors) 89.9 with
    // 256 against 88.7 with 512 (one group per thread), although sum_layout_probe's bare row
    // kernel had 512 ahead there (91.2 against 89.9).
    const auto grid = static_cast<unsigned>(rows);
    if (cols / kVector<T> <= 128 * kRowUnroll) {
      rows_block_kernel<T, Op, 128><<<grid, 128, 0, stream>>>(in, out, cols, op);
    } else {
      rows_block_kernel<T, Op, 256><<<grid, 256, 0, stream>>>(in, out, cols, op);
    }
  }
  KBENCH_CHECK_LAUNCH();
}

}  // namespace

template <typename T>
void launch_rows_naive(const T* in, T* out, std::int64_t rows, std::int64_t cols, Reduction reduction,
                       cudaStream_t stream) {
  const auto blocks = static_cast<unsigned>((rows + kNaiveBlock - 1) / kNaiveBlock);
  if (reduction == Reduction::sum) rows_naive_kernel<T><<<blocks, kNaiveBlock, 0, stream>>>(in, out, rows, cols, SumOp{});
  else rows_naive_kernel<T><<<blocks, kNaiveBlock, 0, stream>>>(in, out, rows, cols, MaxOp{});
  KBENCH_CHECK_LAUNCH();
}

template <typename T>
void launch_rows_parallel(const T* in, T* out, std::int64_t rows, std::int64_t cols, Reduction reduction,
                          cudaStream_t stream) {
  if (reduction == Reduction::sum) rows_parallel(in, out, rows, cols, SumOp{}, stream);
  else rows_parallel(in, out, rows, cols, MaxOp{}, stream);
}

#define KBENCH_INSTANTIATE_ROWS(T)                                                                            \
  template void launch_rows_naive<T>(const T*, T*, std::int64_t, std::int64_t, Reduction, cudaStream_t);      \
  template void launch_rows_parallel<T>(const T*, T*, std::int64_t, std::int64_t, Reduction, cudaStream_t);

KBENCH_INSTANTIATE_ROWS(float)
KBENCH_INSTANTIATE_ROWS(__half)
KBENCH_INSTANTIATE_ROWS(__nv_bfloat16)

}  // namespace kbench::sum
