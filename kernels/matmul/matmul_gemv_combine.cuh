#pragma once
/// The end of a GEMV block that wrote a fp32 slice (matmul_gemv.hpp): the strip's chunks meet on a
/// ticket, and the last block to arrive adds the strip's slices in chunk order into C. Shared by
/// the SIMT GEMV kernels (matmul_gemv.cu) and the tensor-core one (matmul_gemv_mma.cu). Included
/// by .cu files only.

#include "kernels/common/dtype_convert.cuh"
#include "kernels/matmul/matmul_gemv.hpp"

namespace kbench::matmul {

/// Called by every thread of a block (strip blockIdx.x, chunk blockIdx.y) once its slice is
/// stored; `last_block` is a __shared__ flag of the kernel's. The last block of the strip adds
/// the strip's Strip columns of every row of C over the gridDim.y slices, in chunk order (a
/// thread loads up to kGemvInKernelMaxChunks slices before adding any: one round trip), writes
/// C and zeroes the strip's ticket for the next call.
template <typename T, int Strip>
__device__ __forceinline__ void combine_strip_slices(const float* __restrict__ slices, unsigned* __restrict__ tickets,
                                                     T* __restrict__ c, int m, int n, int first_col, bool& last_block) {
  constexpr int kBatch = kGemvInKernelMaxChunks;
  __threadfence();  // this block's slice is visible device-wide before its ticket is taken
  __syncthreads();
  if (threadIdx.x == 0) last_block = atomicAdd(tickets + blockIdx.x, 1u) == gridDim.y - 1;
  __syncthreads();
  if (!last_block) return;
  __threadfence();
  const int chunks = static_cast<int>(gridDim.y);
  const long long slice_stride = static_cast<long long>(m) * n;
  for (int o = static_cast<int>(threadIdx.x); o < m * Strip; o += static_cast<int>(blockDim.x)) {
    const int r = o / Strip, col = first_col + o % Strip;
    if (col >= n) continue;
    const float* p = slices + static_cast<long long>(r) * n + col;
    float sum = 0.0f;
    for (int s = 0; s < chunks; s += kBatch) {
      float v[kBatch];
#pragma unroll
      for (int u = 0; u < kBatch; ++u) v[u] = s + u < chunks ? __ldcg(p + (s + u) * slice_stride) : 0.0f;
#pragma unroll
      for (int u = 0; u < kBatch; ++u) {
        if (s + u < chunks) sum += v[u];  // chunk order; L2 reads (other blocks wrote them)
      }
    }
    c[static_cast<long long>(r) * n + col] = from_float<T>(sum);
  }
  if (threadIdx.x == 0) tickets[blockIdx.x] = 0;
}

}  // namespace kbench::matmul
