// Shared-memory tiling, the textbook step after the naive kernel. A block of 32×32 threads owns a
// 32×32 tile of C. It walks K in steps of 32: each thread copies one element of the A tile and
// one of the B tile into shared memory, the block synchronises, and each thread then runs a
// 32-long dot product out of shared memory. Every element fetched from global memory is now used
// 32 times instead of once, which cuts global traffic by 32×.
//
// Bounds: tile elements outside A or B are written as zeros, so the dot product needs no guards
// and partial tiles (M, N or K not a multiple of 32) add nothing; only the store of C is guarded.
//
// Banks: a warp is one row of the block (fixed threadIdx.y). a_tile[ty][i] is then the same word
// for the whole warp (a broadcast) and b_tile[i][tx] is 32 consecutive words (32 banks): no
// conflicts, no padding needed.
#include "kernels/matmul/matmul_kernels.hpp"

#include "harness/device/cuda_check.hpp"
#include "kernels/matmul/matmul_device.cuh"

namespace kbench::matmul {

namespace {

constexpr int kTile = 32;

template <typename T>
__global__ void __launch_bounds__(kTile * kTile)
    matmul_tiled_kernel(const T* __restrict__ a, const T* __restrict__ b, T* __restrict__ c, int m, int n, int k) {
  __shared__ float a_tile[kTile][kTile];
  __shared__ float b_tile[kTile][kTile];

  const int tiles_n = ceil_div(n, kTile);
  const int tile_row = static_cast<int>(blockIdx.x) / tiles_n;
  const int tile_col = static_cast<int>(blockIdx.x) - tile_row * tiles_n;
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = tile_row * kTile + ty;
  const int col = tile_col * kTile + tx;

  float acc = 0.0f;
  for (int k0 = 0; k0 < k; k0 += kTile) {
    a_tile[ty][tx] = (row < m && k0 + tx < k) ? to_float(a[row * k + k0 + tx]) : 0.0f;
    b_tile[ty][tx] = (k0 + ty < k && col < n) ? to_float(b[(k0 + ty) * n + col]) : 0.0f;
    __syncthreads();  // the tiles are complete
#pragma unroll
    for (int i = 0; i < kTile; ++i) acc = fmaf(a_tile[ty][i], b_tile[i][tx], acc);
    __syncthreads();  // nobody still reads them when the next step overwrites them
  }
  if (row < m && col < n) c[row * n + col] = from_float<T>(acc);
}

}  // namespace

template <typename T>
void launch_tiled(const T* a, const T* b, T* c, Dims dims, cudaStream_t stream) {
  const long long blocks = static_cast<long long>(ceil_div(dims.m, kTile)) * ceil_div(dims.n, kTile);
  matmul_tiled_kernel<T><<<static_cast<unsigned>(blocks), dim3(kTile, kTile), 0, stream>>>(a, b, c, dims.m, dims.n,
                                                                                         dims.k);
  KBENCH_CHECK_LAUNCH();
}

template void launch_tiled<float>(const float*, const float*, float*, Dims, cudaStream_t);
template void launch_tiled<__half>(const __half*, const __half*, __half*, Dims, cudaStream_t);
template void launch_tiled<__nv_bfloat16>(const __nv_bfloat16*, const __nv_bfloat16*, __nv_bfloat16*, Dims,
                                          cudaStream_t);

}  // namespace kbench::matmul
