// Outer-axes sums of tensors with few columns (cols <= kNarrowColumnsMaxCols, many rows): tiles of
// whole rows read as one contiguous, 16-byte-vector stretch of the flat array.
#include "kernels/common/flat_tile.cuh"
#include "kernels/common/flat_tile.hpp"
#include "kernels/sum/reduce_ops.cuh"
#include "kernels/sum/sum_kernels.hpp"

#include "harness/device/cuda_check.hpp"

#include <stdexcept>

namespace kbench::sum {

namespace {

constexpr int kNarrowBlock = 256;
constexpr int kFinishUnroll = 4;

/// Block b copies rows [b * rows_per_tile, +rows_per_tile) into shared memory as one tile, then
/// thread t adds column t % cols over the tile's rows t / cols, t / cols + lanes, ... (lanes =
/// 256 / cols row lanes: at least 2, and every thread but the last 256 % cols has a column; in the
/// first round the threads read shared-memory words t, so no bank conflicts). The lanes' sums meet
/// in shared memory and the first cols threads add them in lane order into
/// partials[col * gridDim.x + b]: one contiguous stretch per column for the finishing kernel.
template <typename T>
__global__ void __launch_bounds__(kNarrowBlock)
    columns_narrow_kernel(const T* __restrict__ in, float* __restrict__ partials, std::int64_t rows,
                          std::int64_t cols, std::int64_t rows_per_tile) {
  extern __shared__ uint4 narrow_columns_tile[];
  __shared__ float lane_sums[kNarrowBlock];
  T* tile = reinterpret_cast<T*>(narrow_columns_tile);
  const std::int64_t first_row = static_cast<std::int64_t>(blockIdx.x) * rows_per_tile;
  const int tile_rows = static_cast<int>(min(rows_per_tile, rows - first_row));
  const int width = static_cast<int>(cols);
  load_tile(in + first_row * cols, tile, static_cast<std::int64_t>(tile_rows) * width);
  __syncthreads();
  const int lanes = kNarrowBlock / width;
  const int col = threadIdx.x % width;
  const int lane = threadIdx.x / width;
  float acc = 0.0f;
  if (lane < lanes) {
    for (int r = lane; r < tile_rows; r += lanes) acc += to_float(tile[r * width + col]);
  }
  lane_sums[threadIdx.x] = acc;
  __syncthreads();
  if (threadIdx.x < width) {
    float sum = 0.0f;
    for (int l = 0; l < lanes; ++l) sum += lane_sums[l * width + threadIdx.x];
    partials[static_cast<std::int64_t>(threadIdx.x) * gridDim.x + blockIdx.x] = sum;
  }
}

/// Block c adds column c's `tiles` partials (thread t takes t, t + 256, ... with kFinishUnroll
/// loads in flight, then a fixed tree) and writes out[c].
template <typename T>
__global__ void __launch_bounds__(kNarrowBlock)
    columns_narrow_finish_kernel(const float* __restrict__ partials, T* __restrict__ out, std::int64_t tiles) {
  __shared__ float scratch[32];
  const float* column = partials + static_cast<std::int64_t>(blockIdx.x) * tiles;
  float acc[kFinishUnroll] = {};
  std::int64_t i = threadIdx.x;
  for (; i + (kFinishUnroll - 1) * kNarrowBlock < tiles; i += kFinishUnroll * kNarrowBlock) {
#pragma unroll
    for (int u = 0; u < kFinishUnroll; ++u) acc[u] += column[i + u * kNarrowBlock];
  }
  for (; i < tiles; i += kNarrowBlock) acc[0] += column[i];
  const float total = block_reduce((acc[0] + acc[1]) + (acc[2] + acc[3]), SumOp{}, scratch);
  if (threadIdx.x == 0) out[blockIdx.x] = from_float<T>(total);
}

}  // namespace

std::int64_t narrow_column_tiles(std::int64_t rows, std::int64_t cols, std::size_t element_size) {
  return tile_count(rows, tile_rows(cols, element_size));
}

template <typename T>
void launch_columns_narrow(const T* in, T* out, std::int64_t rows, std::int64_t cols, float* partials, int sm_count,
                           cudaStream_t stream) {
  if (cols > kNarrowColumnsMaxCols) {
    // 256 threads would give a column fewer than 2 row lanes; wide tensors are two_stage's.
    launch_columns_two_stage(in, out, rows, cols, partials, column_chunks(rows, cols, sm_count, sizeof(T)), stream);
    return;
  }
  const std::int64_t rows_per_tile = tile_rows(cols, sizeof(T));
  const std::int64_t tiles = tile_count(rows, rows_per_tile);
  if (tiles > 0x7FFFFFFF) throw std::invalid_argument("sum_outer narrow columns: too many tiles for a 1-D grid");
  const auto bytes = static_cast<std::size_t>(tile_bytes(rows_per_tile, cols, sizeof(T)));
  columns_narrow_kernel<T><<<static_cast<unsigned>(tiles), kNarrowBlock, bytes, stream>>>(in, partials, rows, cols,
                                                                                         rows_per_tile);
  KBENCH_CHECK_LAUNCH();
  columns_narrow_finish_kernel<T><<<static_cast<unsigned>(cols), kNarrowBlock, 0, stream>>>(partials, out, tiles);
  KBENCH_CHECK_LAUNCH();
}

template void launch_columns_narrow<float>(const float*, float*, std::int64_t, std::int64_t, float*, int,
                                           cudaStream_t);
template void launch_columns_narrow<__half>(const __half*, __half*, std::int64_t, std::int64_t, float*, int,
                                            cudaStream_t);
template void launch_columns_narrow<__nv_bfloat16>(const __nv_bfloat16*, __nv_bfloat16*, std::int64_t, std::int64_t,
                                                   float*, int, cudaStream_t);

}  // namespace kbench::sum
