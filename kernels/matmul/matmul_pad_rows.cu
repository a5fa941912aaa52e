// fp32 rows copied to a longer pitch with zeros after them: `auto`'s copy of A for the small-tile
// SIMT kernel where K is not a multiple of 4 (matmul_small_simt.cu then reads A in 16-byte copies;
// A of at most 64 rows and kAutoWorkspaceCapBytes) and for wgmma_tf32 (TMA's 16-byte rows; any A,
// as its Bᵀ copy); one thread per destination element. (matmul_repitch.cu's 16-bit copy-in could
// do this on A's 16-bit halves with 16-byte stores; this simpler kernel is the one measured and
// checked on the GPU.)
#include "kernels/matmul/matmul_kernels.hpp"

#include "harness/device/cuda_check.hpp"

#include <stdexcept>

namespace kbench::matmul {

namespace {

constexpr int kThreads = 256;

__global__ void pad_rows_kernel(const float* __restrict__ src, int cols, float* __restrict__ dst, int pitch,
                                long long total) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < total;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const long long row = i / pitch;
    const int col = static_cast<int>(i - row * pitch);
    dst[i] = col < cols ? src[row * cols + col] : 0.0f;
  }
}

}  // namespace

void launch_pad_rows_fp32(const float* src, int rows, int cols, float* dst, int pitch, cudaStream_t stream) {
  if (rows < 0 || cols < 0 || pitch < cols) throw std::invalid_argument("pad_rows: the pitch is shorter than a row");
  const long long total = static_cast<long long>(rows) * pitch;
  if (total == 0) return;
  const long long blocks = (total + kThreads - 1) / kThreads;
  pad_rows_kernel<<<static_cast<unsigned>(blocks < 1024 ? blocks : 1024), kThreads, 0, stream>>>(src, cols, dst, pitch,
                                                                                                   total);
  KBENCH_CHECK_LAUNCH();
}

}  // namespace kbench::matmul
