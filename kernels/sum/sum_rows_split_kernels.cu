// Inner-axis reductions of few long rows: each row split over many blocks, so that 16 rows of 4M
// elements fill the GPU instead of 16 of its SMs; each block takes 1-4 consecutive 16 KiB tiles.
#include "kernels/common/flat_tile.cuh"
#include "kernels/sum/reduce_ops.cuh"
#include "kernels/sum/sum_kernels.hpp"

#include "harness/device/cuda_check.hpp"

#include <algorithm>
#include <stdexcept>

namespace kbench::sum {

namespace {

constexpr int kSplitBlock = 256;
constexpr int kSplitUnroll = 4;
/// 16-byte vectors of a tile: 256 threads x 4 loads in flight, 16 KiB, the tile that measured
/// fastest for bare reads on the H100 (sum/NOTES.md, "The layout probe").
constexpr std::int64_t kSplitVectors = std::int64_t{kSplitBlock} * kSplitUnroll;
/// The rule's divisor, blocks of kSplitBlock threads an SM could hold by threads alone (ptxas's
/// 34-36 registers let 6 reside), and the most tiles one block takes.
constexpr std::int64_t kSplitResidentBlocksPerSm = 2048 / kSplitBlock;
constexpr std::int64_t kSplitMostTilesPerBlock = 4;

/// Block b folds split b % splits of row b / splits: vectors [split x split_vectors, +split_vectors)
/// of the row's 16-byte aligned body (aligned_span; rows of odd length start at any alignment),
/// split 0 also the head before the body and the tail after it. Thread 0 writes the block's
/// partial, fences, and draws a ticket on the row's counter; the block that draws the last one
/// folds the row's partials (thread t takes splits t, t + 256, ..., then a fixed tree: the same
/// result whichever block came last), writes out[row] and resets the counter.
template <typename T, typename Op>
__global__ void __launch_bounds__(kSplitBlock)
    rows_split_kernel(const T* __restrict__ in, T* __restrict__ out, std::int64_t cols, std::int64_t splits,
                      std::int64_t split_vectors, float* __restrict__ partials, unsigned* __restrict__ counters,
                      Op op) {
  __shared__ float scratch[32];
  __shared__ bool last_block;
  const std::int64_t row = blockIdx.x / splits;
  const std::int64_t split = blockIdx.x % splits;
  const T* p = in + row * cols;
  const AlignedSpan span = aligned_span(p, cols);
  float acc[kSplitUnroll];
#pragma unroll
  for (int u = 0; u < kSplitUnroll; ++u) acc[u] = Op::identity();
  const std::int64_t begin = split * split_vectors;
  const std::int64_t end = min(span.vectors, begin + split_vectors);
  fold_vectors_strided<T>(reinterpret_cast<const uint4*>(p + span.head), begin + threadIdx.x, end, kSplitBlock, acc,
                          op);
  if (split == 0) {
    if (threadIdx.x < span.head) acc[1] = op(acc[1], to_float(p[threadIdx.x]));
    if (threadIdx.x < span.tail) {
      acc[2] = op(acc[2], to_float(p[span.head + span.vectors * kVector<T> + threadIdx.x]));
    }
  }
  const float block_value = block_reduce(op(op(acc[0], acc[1]), op(acc[2], acc[3])), op, scratch);
  if (splits == 1) {
    if (threadIdx.x == 0) out[row] = from_float<T>(block_value);
    return;
  }
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = block_value;
    __threadfence();  // the partial is visible device-wide before the ticket is drawn
    last_block = atomicAdd(counters + row, 1u) == splits - 1;
  }
  __syncthreads();
  if (!last_block) return;
  __threadfence();
  float total = Op::identity();
  for (std::int64_t s = threadIdx.x; s < splits; s += kSplitBlock) {
    total = op(total, __ldcg(partials + row * splits + s));  // L2, not a stale L1 line
  }
  total = block_reduce(total, op, scratch);
  if (threadIdx.x == 0) {
    out[row] = from_float<T>(total);
    counters[row] = 0;  // no block of this call draws on it again; the next call starts after this one
  }
}

template <typename T, typename Op>
void rows_split(const T* in, T* out, std::int64_t rows, std::int64_t cols, float* partials, unsigned* counters,
                RowsSplitShape shape, Op op, cudaStream_t stream) {
  const std::int64_t splits = shape.splits;
  if (rows * splits > 0x7FFFFFFF) throw std::invalid_argument("sum split rows: too many blocks for a 1-D grid");
  rows_split_kernel<T><<<static_cast<unsigned>(rows * splits), kSplitBlock, 0, stream>>>(
      in, out, cols, splits, shape.tiles_per_block * kSplitVectors, partials, counters, op);
  KBENCH_CHECK_LAUNCH();
}

}  // namespace

std::int64_t rows_split_tiles(std::int64_t cols, std::size_t element_size) {
  // A row's body has at most cols / kVector whole vectors, whatever its alignment.
  const std::int64_t vectors = cols / static_cast<std::int64_t>(16 / element_size);
  return std::max<std::int64_t>(1, (vectors + kSplitVectors - 1) / kSplitVectors);
}

RowsSplitShape rows_split_shape(std::int64_t rows, std::int64_t cols, std::size_t element_size, int sm_count) {
  if (sm_count < 1) throw std::invalid_argument("sum split rows: sm_count must be at least 1");
  // Where the tiles fill those slots at least twice, a block takes several: its launch,
  // block reduction and ticket cost the same for 64 KiB as for 16 KiB (NOTES.md, "Tiles per
  // block for split_row").
  const std::int64_t tiles = rows_split_tiles(cols, element_size);
  const std::int64_t resident = kSplitResidentBlocksPerSm * sm_count;
  const std::int64_t per_block = std::clamp<std::int64_t>(rows * tiles / resident, 1, kSplitMostTilesPerBlock);
  return {(tiles + per_block - 1) / per_block, per_block};
}

template <typename T>
void launch_rows_split(const T* in, T* out, std::int64_t rows, std::int64_t cols, float* partials,
                       unsigned* counters, RowsSplitShape shape, Reduction reduction, cudaStream_t stream) {
  if (reduction == Reduction::sum) rows_split(in, out, rows, cols, partials, counters, shape, SumOp{}, stream);
  else rows_split(in, out, rows, cols, partials, counters, shape, MaxOp{}, stream);
}

template void launch_rows_split<float>(const float*, float*, std::int64_t, std::int64_t, float*, unsigned*,
                                       RowsSplitShape, Reduction, cudaStream_t);
template void launch_rows_split<__half>(const __half*, __half*, std::int64_t, std::int64_t, float*, unsigned*,
                                        RowsSplitShape, Reduction, cudaStream_t);
template void launch_rows_split<__nv_bfloat16>(const __nv_bfloat16*, __nv_bfloat16*, std::int64_t, std::int64_t,
                                               float*, unsigned*, RowsSplitShape, Reduction, cudaStream_t);

}  // namespace kbench::sum
