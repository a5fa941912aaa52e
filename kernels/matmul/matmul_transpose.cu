// The pre-pass of the TF32 wgmma kernel: Bᵀ written to a workspace. TF32 wgmma reads both of its
// shared operands K-major, and B (K×N, row-major) has N contiguous; its transpose (N×K, row-major)
// has K contiguous, as A does, so TMA can load both in the same 128-byte-swizzled boxes. Also the
// pre-pass of the outer-product SIMT kernel (matmul_outer_simt.cu): Aᵀ, padded with zeros.
//
// A block of 32×8 threads moves a 32×32 tile through shared memory: each warp reads 128-byte runs
// of a source row and writes 128-byte runs of a destination row. The tile's rows are padded to 33
// floats so that the column reads of the write phase fall in 32 different banks.
#include "kernels/matmul/matmul_kernels.hpp"

#include "harness/device/cuda_check.hpp"
#include "kernels/matmul/matmul_device.cuh"

#include <cstdint>
#include <stdexcept>

namespace kbench::matmul {

namespace {

constexpr int kTile = 32;
constexpr int kRowsPerPass = 8;

__global__ void __launch_bounds__(kTile * kRowsPerPass)
    transpose_kernel(const float* __restrict__ src, int src_pitch, int rows, int cols, float* __restrict__ dst,
                     int dst_rows, int dst_cols, int tiles_across) {
  __shared__ float tile[kTile][kTile + 1];
  // A 1-D grid (rows / 32 may pass gridDim.y's 65535): block b is tile (b / tiles_across, b % tiles_across)
  // of the source extended to dst_cols × dst_rows with zeros.
  const int tile_row = static_cast<int>(blockIdx.x) / tiles_across;
  const int tile_col = static_cast<int>(blockIdx.x) % tiles_across;
  const int x = static_cast<int>(threadIdx.x), y = static_cast<int>(threadIdx.y);
  const int col = tile_col * kTile + x;
#pragma unroll
  for (int j = y; j < kTile; j += kRowsPerPass) {
    const int row = tile_row * kTile + j;
    tile[j][x] = row < rows && col < cols ? src[static_cast<std::int64_t>(row) * src_pitch + col] : 0.0f;
  }
  __syncthreads();
  const int dst_col = tile_row * kTile + x;  // a source row
#pragma unroll
  for (int j = y; j < kTile; j += kRowsPerPass) {
    const int dst_row = tile_col * kTile + j;  // a source column
    if (dst_row < dst_rows && dst_col < dst_cols) {
      dst[static_cast<std::int64_t>(dst_row) * dst_cols + dst_col] = tile[x][j];
    }
  }
}

}  // namespace

void launch_transpose_padded(const float* src, int rows, int cols, int src_pitch, float* dst, int dst_rows,
                             int dst_cols, cudaStream_t stream) {
  if (src_pitch < cols || dst_rows < cols || dst_cols < rows) {
    throw std::invalid_argument("transpose: the source's pitch or the destination's extents are too short");
  }
  const int tiles_down = ceil_div(dst_cols, kTile), tiles_across = ceil_div(dst_rows, kTile);
  const std::int64_t blocks = static_cast<std::int64_t>(tiles_down) * tiles_across;
  if (blocks == 0) return;
  if (blocks > 0x7FFFFFFF) throw std::invalid_argument("transpose: too many tiles for a 1-D grid");
  transpose_kernel<<<static_cast<unsigned>(blocks), dim3(kTile, kRowsPerPass), 0, stream>>>(
      src, src_pitch, rows, cols, dst, dst_rows, dst_cols, tiles_across);
  KBENCH_CHECK_LAUNCH();
}

void launch_transpose(const float* src, float* dst, int rows, int cols, cudaStream_t stream) {
  launch_transpose_padded(src, rows, cols, cols, dst, cols, rows, stream);
}

}  // namespace kbench::matmul
