// Outer-axes sums of rows that are not whole 16-byte vectors and too wide for narrow_columns
// (kNarrowColumnsMaxCols < cols <= kColumnTilesMaxCols, e.g. 16 x 16384 x 257): chunks of whole
// rows read as flat 16-byte vectors through shared memory, then a pass per column.
#include "kernels/common/flat_tile.cuh"
#include "kernels/common/flat_tile.hpp"
#include "kernels/sum/reduce_ops.cuh"
#include "kernels/sum/sum_kernels.hpp"

#include "harness/device/cuda_check.hpp"

#include <algorithm>
#include <stdexcept>

namespace kbench::sum {

namespace {

constexpr int kTilesBlock = 256;
constexpr int kFinishBlock = 256;

/// Block b sums columns over its chunk of rows: tiles of rows_per_tile whole rows (one contiguous,
/// 16-byte aligned stretch of the flat array when the tensor is aligned, whatever cols is) are
/// copied into shared memory with 16-byte loads (load_tile: 4 in flight per thread), then thread t
/// adds columns t, t + 256, ... (kPerThread of them) over the tile's rows, reading consecutive
/// shared-memory words across the warp; after the chunk, partials[b][col].
template <typename T, int kPerThread>
__global__ void __launch_bounds__(kTilesBlock)
    columns_tiles_kernel(const T* __restrict__ in, float* __restrict__ partials, std::int64_t rows, int cols,
                         int rows_per_tile, std::int64_t tiles_per_chunk) {
  extern __shared__ uint4 column_tiles_tile[];
  T* tile = reinterpret_cast<T*>(column_tiles_tile);
  float acc[kPerThread];
#pragma unroll
  for (int k = 0; k < kPerThread; ++k) acc[k] = 0.0f;
  const std::int64_t chunk_first = static_cast<std::int64_t>(blockIdx.x) * tiles_per_chunk * rows_per_tile;
  const std::int64_t chunk_end = min(rows, chunk_first + tiles_per_chunk * rows_per_tile);
  for (std::int64_t first_row = chunk_first; first_row < chunk_end; first_row += rows_per_tile) {
    const int tile_rows = static_cast<int>(min(static_cast<std::int64_t>(rows_per_tile), chunk_end - first_row));
    load_tile(in + first_row * cols, tile, static_cast<std::int64_t>(tile_rows) * cols);
    __syncthreads();
    for (int r = 0; r < tile_rows; ++r) {
#pragma unroll
      for (int k = 0; k < kPerThread; ++k) {
        const int c = static_cast<int>(threadIdx.x) + k * kTilesBlock;
        if (c < cols) acc[k] += to_float(tile[r * cols + c]);
      }
    }
    __syncthreads();  // the next tile overwrites this one
  }
#pragma unroll
  for (int k = 0; k < kPerThread; ++k) {
    const int c = static_cast<int>(threadIdx.x) + k * kTilesBlock;
    if (c < cols) partials[static_cast<std::int64_t>(blockIdx.x) * cols + c] = acc[k];
  }
}

/// A thread per column adds the chunks' partials in chunk order and writes the column.
template <typename T>
__global__ void __launch_bounds__(kFinishBlock)
    columns_tiles_finish_kernel(const float* __restrict__ partials, T* __restrict__ out, int cols, int chunks) {
  const int col = static_cast<int>(blockIdx.x) * kFinishBlock + static_cast<int>(threadIdx.x);
  if (col >= cols) return;
  float acc = 0.0f;
  for (int k = 0; k < chunks; ++k) acc += partials[static_cast<std::int64_t>(k) * cols + col];
  out[col] = from_float<T>(acc);
}

template <typename T, int kPerThread>
void launch_tiles(const T* in, T* out, std::int64_t rows, std::int64_t cols, float* partials, int chunks,
                  cudaStream_t stream) {
  const std::int64_t rows_per_tile = tile_rows(cols, sizeof(T));
  const std::int64_t tiles = tile_count(rows, rows_per_tile);
  const std::int64_t tiles_per_chunk = (tiles + chunks - 1) / chunks;
  const auto bytes = static_cast<std::size_t>(tile_bytes(rows_per_tile, cols, sizeof(T)));
  columns_tiles_kernel<T, kPerThread><<<static_cast<unsigned>(chunks), kTilesBlock, bytes, stream>>>(
      in, partials, rows, static_cast<int>(cols), static_cast<int>(rows_per_tile), tiles_per_chunk);
  KBENCH_CHECK_LAUNCH();
  const auto blocks = static_cast<unsigned>((cols + kFinishBlock - 1) / kFinishBlock);
  columns_tiles_finish_kernel<T><<<blocks, kFinishBlock, 0, stream>>>(partials, out, static_cast<int>(cols), chunks);
  KBENCH_CHECK_LAUNCH();
}

}  // namespace

int column_tiles_chunks(std::int64_t rows, std::int64_t cols, int sm_count, std::size_t element_size) {
  if (cols > kColumnTilesMaxCols) return column_chunks(rows, cols, sm_count, element_size);  // two_stage runs
  // 4 blocks per SM, as the column strips measured best (sum/NOTES.md, "The layout probe"), never
  // more than the tiles; chunks are whole tiles, so every chunk after the first starts aligned.
  const std::int64_t tiles = tile_count(rows, tile_rows(cols, element_size));
  const std::int64_t wanted = std::min<std::int64_t>(tiles, 4 * static_cast<std::int64_t>(sm_count));
  const std::int64_t tiles_per_chunk = (tiles + std::max<std::int64_t>(wanted, 1) - 1) / std::max<std::int64_t>(wanted, 1);
  return static_cast<int>(std::max<std::int64_t>(1, (tiles + tiles_per_chunk - 1) / tiles_per_chunk));
}

template <typename T>
void launch_columns_tiles(const T* in, T* out, std::int64_t rows, std::int64_t cols, float* partials, int chunks,
                          cudaStream_t stream) {
  if (cols > kColumnTilesMaxCols) {
    launch_columns_two_stage(in, out, rows, cols, partials, chunks, stream);  // a tile of 8 rows would pass 32 KiB
    return;
  }
  if (rows == 0 || cols == 0) return;
  const std::int64_t per_thread = (cols + kTilesBlock - 1) / kTilesBlock;
  if (per_thread <= 1) launch_tiles<T, 1>(in, out, rows, cols, partials, chunks, stream);
  else if (per_thread <= 2) launch_tiles<T, 2>(in, out, rows, cols, partials, chunks, stream);
  else launch_tiles<T, 4>(in, out, rows, cols, partials, chunks, stream);
}

template void launch_columns_tiles<float>(const float*, float*, std::int64_t, std::int64_t, float*, int,
                                          cudaStream_t);
template void launch_columns_tiles<__half>(const __half*, __half*, std::int64_t, std::int64_t, float*, int,
                                           cudaStream_t);
template void launch_columns_tiles<__nv_bfloat16>(const __nv_bfloat16*, __nv_bfloat16*, std::int64_t, std::int64_t,
                                                  float*, int, cudaStream_t);

}  // namespace kbench::sum
