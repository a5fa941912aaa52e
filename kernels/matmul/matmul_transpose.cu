// The pre-pass of the TF32 wgmma kernel: Bᵀ written to a workspace. TF32 wgmma reads both of its
// shared operands K-major, and B (K×N, row-major) has N contiguous; its transpose (N×K, row-major)
// has K contiguous, as A does, so TMA can load both in the same 128-byte-swizzled boxes.
//
// A block of 32×8 threads moves a 32×32 tile through shared memory: each warp reads 128-byte runs
// of a source row and writes 128-byte runs of a destination row. The tile's rows are padded to 33
// floats so that the column reads of the write phase fall in 32 different banks.
#include "kernels/matmul/matmul_kernels.hpp"

#include "harness/device/cuda_check.hpp"
#include "kernels/matmul/matmul_device.cuh"

#include <cstdint>

namespace kbench::matmul {

namespace {

constexpr int kTile = 32;
constexpr int kRowsPerPass = 8;

__global__ void __launch_bounds__(kTile * kRowsPerPass)
    transpose_kernel(const float* __restrict__ src, float* __restrict__ dst, int rows, int cols, int tiles_across) {
  __shared__ float tile[kTile][kTile + 1];
  // A 1-D grid (rows / 32 may pass gridDim.y's 65535): block b is tile (b / tiles_across, b % tiles_across).
  const int tile_row = static_cast<int>(blockIdx.x) / tiles_across, tile_col = static_cast<int>(blockIdx.x) % tiles_across;
  const int x = static_cast<int>(threadIdx.x), y = static_cast<int>(threadIdx.y);
  const int col = tile_col * kTile + x;
#pragma unroll
  for (int j = y; j < kTile; j += kRowsPerPass) {
    const int row = tile_row * kTile + j;
    if (row < rows && col < cols) tile[j][x] = src[static_cast<std::int64_t>(row) * cols + col];
  }
  __syncthreads();
  const int dst_col = tile_row * kTile + x;  // a source row
#pragma unroll
  for (int j = y; j < kTile; j += kRowsPerPass) {
    const int dst_row = tile_col * kTile + j;  // a source column
    if (dst_row < cols && dst_col < rows) dst[static_cast<std::int64_t>(dst_row) * rows + dst_col] = tile[x][j];
  }
}

}  // namespace

void launch_transpose(const float* src, float* dst, int rows, int cols, cudaStream_t stream) {
  const int tiles_down = ceil_div(rows, kTile), tiles_across = ceil_div(cols, kTile);
  const std::int64_t blocks = static_cast<std::int64_t>(tiles_down) * tiles_across;  // <= 2^31 / 1024 by the shape limits
  transpose_kernel<<<static_cast<unsigned>(blocks), dim3(kTile, kRowsPerPass), 0, stream>>>(src, dst, rows, cols,
                                                                                         tiles_across);
  KBENCH_CHECK_LAUNCH();
}

}  // namespace kbench::matmul
