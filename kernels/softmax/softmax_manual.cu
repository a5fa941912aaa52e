// The manual softmax: the five kernels a framework's naive code runs, one per step, each reading
// its input from memory and writing its result back. With M rows of N elements it reads 5MN + 2M
// and writes 3MN + 2M elements where the fused kernels read MN and write MN: the fusion lesson.
#include "kernels/softmax/softmax_kernels.hpp"

#include "harness/device/cuda_check.hpp"
#include "kernels/softmax/softmax_device.cuh"

#include <algorithm>
#include <stdexcept>

namespace kbench::softmax {

namespace {

constexpr int kBlock = 256;

/// Steps 1 and 4: one block per row folds the row with `Op` in fp32 and writes one float.
template <typename T, typename Op>
__global__ void __launch_bounds__(kBlock) row_reduce_kernel(const T* __restrict__ in, float* __restrict__ out,
                                                            std::int64_t cols, Op op) {
  __shared__ float scratch[32];
  const T* row = in + static_cast<std::int64_t>(blockIdx.x) * cols;
  float acc = Op::identity();
  for (std::int64_t i = threadIdx.x; i < cols; i += kBlock) acc = op(acc, to_float(row[i]));
  acc = block_allreduce(acc, op, scratch);
  if (threadIdx.x == 0) out[blockIdx.x] = acc;
}

struct Subtract {
  __device__ float operator()(float x, float row_value) const { return x - row_value; }
};
struct Divide {
  __device__ float operator()(float x, float row_value) const { return x / row_value; }
};

/// Steps 2 and 5: out = op(in, row_value[row]), a broadcast of one value per row. A 2-D grid
/// (column blocks x rows, rows strided past the 65535 limit of gridDim.y) gives every thread its
/// row without a per-element division.
template <typename T, typename Op>
__global__ void __launch_bounds__(kBlock) broadcast_kernel(const T* __restrict__ in, const float* __restrict__ row_value,
                                                           T* __restrict__ out, std::int64_t rows, std::int64_t cols,
                                                           Op op) {
  const std::int64_t col = static_cast<std::int64_t>(blockIdx.x) * kBlock + threadIdx.x;
  if (col >= cols) return;
  for (std::int64_t row = blockIdx.y; row < rows; row += gridDim.y) {
    const std::int64_t i = row * cols + col;
    out[i] = from_float<T>(op(to_float(in[i]), row_value[row]));
  }
}

/// Step 3: out = e^in, one element per thread. expf, as a framework's exp kernel calls it.
template <typename T>
__global__ void __launch_bounds__(kBlock) exp_kernel(const T* __restrict__ in, T* __restrict__ out, std::int64_t n) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * kBlock + threadIdx.x;
  if (i < n) out[i] = from_float<T>(expf(to_float(in[i])));
}

constexpr std::int64_t kMaxGridX = 0x7FFFFFFF;
constexpr std::int64_t kMaxGridY = 65535;

template <typename T, typename Op>
void launch_row_reduce(const T* in, float* out, std::int64_t rows, std::int64_t cols, Op op, cudaStream_t stream) {
  row_reduce_kernel<T, Op><<<static_cast<unsigned>(rows), kBlock, 0, stream>>>(in, out, cols, op);
  KBENCH_CHECK_LAUNCH();
}

template <typename T, typename Op>
void launch_broadcast(const T* in, const float* row_value, T* out, std::int64_t rows, std::int64_t cols, Op op,
                      cudaStream_t stream) {
  const dim3 grid(static_cast<unsigned>((cols + kBlock - 1) / kBlock), static_cast<unsigned>(std::min(rows, kMaxGridY)));
  broadcast_kernel<T, Op><<<grid, kBlock, 0, stream>>>(in, row_value, out, rows, cols, op);
  KBENCH_CHECK_LAUNCH();
}

}  // namespace

template <typename T>
void launch_manual(const T* x, T* y, const ManualScratch<T>& scratch, std::int64_t rows, std::int64_t cols,
                   cudaStream_t stream) {
  const std::int64_t n = rows * cols;
  const std::int64_t elementwise_blocks = (n + kBlock - 1) / kBlock;
  if (rows > kMaxGridX || elementwise_blocks > kMaxGridX) {
    throw std::invalid_argument("softmax manual: too many rows or elements for a 1-D grid");
  }
  launch_row_reduce(x, scratch.row_max, rows, cols, MaxOp{}, stream);                         // 1. max
  launch_broadcast(x, scratch.row_max, scratch.shifted, rows, cols, Subtract{}, stream);      // 2. x - max
  exp_kernel<T><<<static_cast<unsigned>(elementwise_blocks), kBlock, 0, stream>>>(scratch.shifted,
                                                                                   scratch.exponentials, n);
  KBENCH_CHECK_LAUNCH();                                                                      // 3. exp
  launch_row_reduce(scratch.exponentials, scratch.row_sum, rows, cols, SumOp{}, stream);      // 4. sum
  launch_broadcast(scratch.exponentials, scratch.row_sum, y, rows, cols, Divide{}, stream);   // 5. divide
}

template void launch_manual<float>(const float*, float*, const ManualScratch<float>&, std::int64_t, std::int64_t,
                                   cudaStream_t);
template void launch_manual<__half>(const __half*, __half*, const ManualScratch<__half>&, std::int64_t, std::int64_t,
                                    cudaStream_t);
template void launch_manual<__nv_bfloat16>(const __nv_bfloat16*, __nv_bfloat16*, const ManualScratch<__nv_bfloat16>&,
                                           std::int64_t, std::int64_t, cudaStream_t);

}  // namespace kbench::softmax
