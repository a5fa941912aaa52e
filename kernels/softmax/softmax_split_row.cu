// Softmax of rows too long, or too few, for a cluster (4 rows of 1M elements, 8 rows of 256K):
// every row split over many blocks in two kernels. The second reads x again; a tensor that fits
// in L2 (the H100 has 50 MiB) is then served from there, so DRAM still sees about one read.
#include "kernels/softmax/softmax_auto.hpp"
#include "kernels/softmax/softmax_kernels.hpp"

#include "harness/device/cuda_check.hpp"
#include "kernels/common/launch_attributes.cuh"
#include "kernels/common/flat_tile.cuh"
#include "kernels/softmax/softmax_device.cuh"

#include <cstdint>
#include <stdexcept>

namespace kbench::softmax {

namespace {

constexpr int kSplitBlock = 256;
constexpr int kSplitUnroll = 4;
static_assert(kSplitChunkVectors == kSplitBlock * kSplitUnroll, "a chunk is one round of loads of the block");

/// The part of row blockIdx.x / chunks that block blockIdx.x works on: chunk c holds vectors
/// [c x kSplitChunkVectors, +kSplitChunkVectors) of the row's aligned body; chunk 0 also the head
/// elements (threads 0..head - 1) and the last chunk the tail elements (threads 32..32 + tail - 1).
struct Chunk {
  std::int64_t row = 0;
  std::int64_t index = 0;
  AlignedSpan span;
  std::int64_t begin = 0;   ///< first vector of the body
  int count = 0;            ///< vectors
  std::int64_t scalar_at = -1;  ///< the row element this thread holds, if any
};

template <typename T>
__device__ __forceinline__ Chunk chunk_of(const T* x, std::int64_t cols, std::int64_t chunks) {
  Chunk c;
  c.row = blockIdx.x / chunks;
  c.index = blockIdx.x % chunks;
  c.span = aligned_span(x + c.row * cols, cols);
  c.begin = c.index * kSplitChunkVectors;
  const std::int64_t remaining = c.span.vectors - c.begin;
  c.count = static_cast<int>(remaining < 0 ? 0 : (remaining < kSplitChunkVectors ? remaining : kSplitChunkVectors));
  c.scalar_at = row_edge_element<T>(c.span, c.index == 0, c.index == chunks - 1);
  return c;
}

/// Kernel 1: the chunk's online (max, sum), folded from one round of 16-byte loads per thread
/// (all in flight), written as states[block] (max) and states[gridDim.x + block] (sum).
template <typename T>
__global__ void __launch_bounds__(kSplitBlock)
    softmax_split_states_kernel(const T* __restrict__ x, std::int64_t cols, std::int64_t chunks,
                                float* __restrict__ states) {
  allow_dependents();  // kernel 2's blocks may be placed, and load x, once every block of this one runs
  const Chunk c = chunk_of(x, cols, chunks);
  const T* xr = x + c.row * cols;
  const auto* body = reinterpret_cast<const uint4*>(xr + c.span.head) + c.begin;
  uint4 held[kSplitUnroll];
#pragma unroll
  for (int k = 0; k < kSplitUnroll; ++k) {
    const int v = threadIdx.x + k * kSplitBlock;
    if (v < c.count) held[k] = body[v];
  }
  MaxSum state = empty_max_sum();
#pragma unroll
  for (int k = 0; k < kSplitUnroll; ++k) {
    if (static_cast<int>(threadIdx.x) + k * kSplitBlock < c.count) {
      const uint4 one[1] = {held[k]};
      state = fold_vectors<T, 1>(state, one);
    }
  }
  if (c.scalar_at >= 0) {
    const float one[1] = {to_float(xr[c.scalar_at])};
    state = fold(state, one);
  }
  const MaxSum total = block_combine(state);
  if (threadIdx.x == 0) {
    states[blockIdx.x] = total.m;
    states[gridDim.x + blockIdx.x] = total.d;
  }
}

/// Kernel 2: the row's chunk states combined (thread t takes chunks t, t + 256, ..., then the
/// block's fixed tree: every block of the row gets the same total), then the chunk written as
/// e^(x - max) / sum, x read again.
template <typename T>
__global__ void __launch_bounds__(kSplitBlock)
    softmax_split_write_kernel(const T* __restrict__ x, T* __restrict__ y, std::int64_t cols, std::int64_t chunks,
                               const float* __restrict__ states) {
  const Chunk c = chunk_of(x, cols, chunks);
  const T* xr = x + c.row * cols;
  T* yr = y + c.row * cols;
  const auto* body = reinterpret_cast<const uint4*>(xr + c.span.head) + c.begin;
  uint4 held[kSplitUnroll];
#pragma unroll
  for (int k = 0; k < kSplitUnroll; ++k) {
    const int v = threadIdx.x + k * kSplitBlock;
    if (v < c.count) held[k] = body[v];  // issued before the combine, so their latency overlaps it
  }
  wait_for_primary();  // x is only read by kernel 1, so its loads may go before kernel 1 has finished
  MaxSum state = empty_max_sum();
  const std::int64_t first = c.row * chunks;
  for (std::int64_t k = threadIdx.x; k < chunks; k += kSplitBlock) {
    state = combine(state, MaxSum{states[first + k], states[gridDim.x + first + k]});
  }
  const MaxSum total = block_combine(state);
  const float inverse_sum = fast_reciprocal(total.d);
  auto* out = reinterpret_cast<uint4*>(yr + c.span.head) + c.begin;
#pragma unroll
  for (int k = 0; k < kSplitUnroll; ++k) {
    const int v = threadIdx.x + k * kSplitBlock;
    if (v < c.count) out[v] = normalize_vector<T>(held[k], total.m, inverse_sum);
  }
  if (c.scalar_at >= 0) yr[c.scalar_at] = from_float<T>(exp_via_exp2(to_float(xr[c.scalar_at]) - total.m) * inverse_sum);
}

}  // namespace

template <typename T>
void launch_split_row(const T* x, T* y, std::int64_t rows, std::int64_t cols, float* states, cudaStream_t stream) {
  if (reinterpret_cast<std::uintptr_t>(x) % 16 != reinterpret_cast<std::uintptr_t>(y) % 16) {
    launch_online(x, y, rows, cols, stream);  // the aligned body of x's rows would not be aligned in y
    return;
  }
  const std::int64_t chunks = split_row_chunks(cols, sizeof(T));
  if (rows * chunks > 0x7FFFFFFF) throw std::invalid_argument("softmax split_row: too many blocks for a 1-D grid");
  const auto grid = static_cast<unsigned>(rows * chunks);
  softmax_split_states_kernel<T><<<grid, kSplitBlock, 0, stream>>>(x, cols, chunks, states);
  KBENCH_CHECK_LAUNCH();
  launch_dependent<softmax_split_write_kernel<T>>(dim3(grid), dim3(kSplitBlock), 0, stream, x, y, cols, chunks,
                                                  states);
}

template void launch_split_row<float>(const float*, float*, std::int64_t, std::int64_t, float*, cudaStream_t);
template void launch_split_row<__half>(const __half*, __half*, std::int64_t, std::int64_t, float*, cudaStream_t);
template void launch_split_row<__nv_bfloat16>(const __nv_bfloat16*, __nv_bfloat16*, std::int64_t, std::int64_t,
                                              float*, cudaStream_t);

}  // namespace kbench::softmax
