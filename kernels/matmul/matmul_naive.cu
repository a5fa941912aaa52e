// The first matmul anyone writes: one thread per element of C, reading its row of A and its
// column of B straight from global memory. Neighbouring threads take neighbouring columns, so
// the loads of B and the stores of C coalesce and the loads of A are broadcasts; every element of
// A and B is still fetched from L2 or DRAM once per output that uses it.
#include "kernels/matmul/matmul_kernels.hpp"

#include "harness/device/cuda_check.hpp"
#include "kernels/matmul/matmul_device.cuh"

namespace kbench::matmul {

namespace {

constexpr int kNaiveBlock = 256;

template <typename T>
__global__ void __launch_bounds__(kNaiveBlock)
    matmul_naive_kernel(const T* __restrict__ a, const T* __restrict__ b, T* __restrict__ c, int m, int n, int k) {
  // A 1-D grid over C in row-major order: no 65535 limit on the rows.
  const long long index = static_cast<long long>(blockIdx.x) * kNaiveBlock + threadIdx.x;
  if (index >= static_cast<long long>(m) * n) return;
  const int row = static_cast<int>(index / n);
  const int col = static_cast<int>(index - static_cast<long long>(row) * n);
  const T* a_row = a + row * k;
  float acc = 0.0f;
  for (int i = 0; i < k; ++i) acc = fmaf(to_float(a_row[i]), to_float(b[i * n + col]), acc);
  c[row * n + col] = from_float<T>(acc);
}

}  // namespace

template <typename T>
void launch_naive(const T* a, const T* b, T* c, Dims dims, cudaStream_t stream) {
  const long long blocks = (static_cast<long long>(dims.m) * dims.n + kNaiveBlock - 1) / kNaiveBlock;
  matmul_naive_kernel<T><<<static_cast<unsigned>(blocks), kNaiveBlock, 0, stream>>>(a, b, c, dims.m, dims.n, dims.k);
  KBENCH_CHECK_LAUNCH();
}

template void launch_naive<float>(const float*, const float*, float*, Dims, cudaStream_t);
template void launch_naive<__half>(const __half*, const __half*, __half*, Dims, cudaStream_t);
template void launch_naive<__nv_bfloat16>(const __nv_bfloat16*, const __nv_bfloat16*, __nv_bfloat16*, Dims,
                                          cudaStream_t);

}  // namespace kbench::matmul
