// Softmax of rows too long, or too few, for a cluster (4 rows of 1M elements, 8 rows of 256K):
// every row split over many blocks in two kernels. The second reads x again; a tensor that fits
// in L2 (the H100 has 50 MiB) is then served from there, so DRAM still sees about one read.
#include "kernels/softmax/softmax_auto.hpp"
#include "kernels/softmax/softmax_kernels.hpp"

#include "harness/device/cuda_check.hpp"
#include "kernels/softmax/softmax_split_chunk.cuh"

#include <cstdint>
#include <stdexcept>

namespace kbench::softmax {

namespace {

/// Kernel 1: chunk blockIdx.x's online (max, sum), folded from one round of 16-byte loads per
/// thread (all in flight), written as states[block] (max) and states[gridDim.x + block] (sum).
template <typename T>
__global__ void __launch_bounds__(kSplitBlock)
    softmax_split_states_kernel(const T* __restrict__ x, std::int64_t cols, std::int64_t chunks,
                                float* __restrict__ states) {
  const SplitChunk c = split_chunk(x, cols, chunks, blockIdx.x);
  const MaxSum total = block_combine(fold_chunk<T>(c, load_chunk<T, false>(x, cols, c)));
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
  const SplitChunk c = split_chunk(x, cols, chunks, blockIdx.x);
  const HeldChunk held = load_chunk<T, false>(x, cols, c);  // issued before the combine, so their latency overlaps it
  MaxSum state = empty_max_sum();
  const std::int64_t first = c.row * chunks;
  for (std::int64_t k = threadIdx.x; k < chunks; k += kSplitBlock) {
    state = combine(state, MaxSum{states[first + k], states[gridDim.x + first + k]});
  }
  const MaxSum total = block_combine(state);
  write_chunk<T, false>(y, cols, c, held, total.m, fast_reciprocal(total.d));
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
  softmax_split_write_kernel<T><<<grid, kSplitBlock, 0, stream>>>(x, y, cols, chunks, states);
  KBENCH_CHECK_LAUNCH();
}

template void launch_split_row<float>(const float*, float*, std::int64_t, std::int64_t, float*, cudaStream_t);
template void launch_split_row<__half>(const __half*, __half*, std::int64_t, std::int64_t, float*, cudaStream_t);
template void launch_split_row<__nv_bfloat16>(const __nv_bfloat16*, __nv_bfloat16*, std::int64_t, std::int64_t,
                                              float*, cudaStream_t);

}  // namespace kbench::softmax
