// fp32 SIMT matmul for problems too small to fill the GPU with register_blocked's 128×128 tiles
// (fewer tiles than SMs: 256³ is 4 tiles, 1024³ is 64). register_blocked's launcher hands such
// shapes here when K and N are multiples of 4.
//
// Why another kernel. At 256³ the 128×128 kernel runs 4 blocks on 4 SMs, each doing 4.2 M FMAs
// one after another: 10 µs, where the whole product is 16.8 M FMAs, 0.5 µs of the H100's FP32
// throughput spread over 132 SMs. Smaller tiles alone would starve each block of FMAs per load,
// so the block also splits K.
//
// Block tile 16×32, 8 warps. K is cut into chunks of kChunkK = 16, and warp w owns chunks
// w, w + 8, w + 16, ...: each warp copies its own chunks (A: 16 rows × 16 k, B: 16 k × 32
// columns, 3 KB) into a ring of two buffers of its own with cp.async (16 bytes, zero-filled
// outside the matrices) and waits only for its own copies, so the main loop has no block-wide
// barrier. Lane (ty, tx), ty = lane / 8, tx = lane % 8, owns rows ty + 4i (i = 0..3) and columns
// 4tx .. 4tx+3: 16 accumulators; per 4 k it reads four float4 of A (its four rows) and four of B
// (4 rows of k, its 4 columns) and does 64 FMAs. A pieces are padded to 20 floats a row, so the
// four rows a warp reads at once start in banks 0, 20, 8 and 28; B rows are read as 8
// consecutive float4: both conflict-free. At the end the warps' partial tiles meet in shared
// memory and every thread adds two outputs' eight partials in warp order and stores them.
//
// Measured on the H100 at 256³ in hot mode (NOTES.md): 3.77 µs with 4 slices of 64 threads and
// 2×4 outputs each, 3.38-3.40 µs with 8 one-warp slices interleaved within block-wide steps of
// 32 k (a __syncthreads per step), 2.88-2.90 µs like this (apps/probes/matmul_small_probe.cu and
// the targets run; 1024³ 88 → 70 µs).
#include "harness/cuda_check.hpp"
#include "kernels/matmul/matmul_kernels.hpp"
#include "kernels/matmul/matmul_small_simt.cuh"

namespace kbench::matmul {

namespace {

constexpr int kChunkK = 16;
/// Buffers per warp. The probe measured chunks of 8 k in a ring of 4 and of 16 k in a ring of 3
/// slower at 256³ (3.13, 3.16 against 2.85 µs), and chunks of 32 k slower everywhere.
constexpr int kRing = 2;
using Layout = small_simt::Layout<kChunkK, kRing>;  // 53,248 bytes of shared memory

}  // namespace

void launch_small_simt(const float* a, const float* b, float* c, Dims dims, cudaStream_t stream) {
  // 52 KB of dynamic shared memory, above the 48 KB a kernel gets without asking: asked for once
  // per process, on the device kbench runs on.
  static const bool shared_memory_set = [] {
    KBENCH_CUDA_CALL(cudaFuncSetAttribute(small_simt::kernel<kChunkK, kRing, true>,
                                          cudaFuncAttributeMaxDynamicSharedMemorySize, Layout::kSharedBytes));
    KBENCH_CUDA_CALL(cudaFuncSetAttribute(small_simt::kernel<kChunkK, kRing, false>,
                                          cudaFuncAttributeMaxDynamicSharedMemorySize, Layout::kSharedBytes));
    return true;
  }();
  (void)shared_memory_set;
  const bool whole = dims.m % small_simt::kBM == 0 && dims.n % small_simt::kBN == 0 && dims.k % kChunkK == 0;
  const auto kernel = whole ? small_simt::kernel<kChunkK, kRing, true> : small_simt::kernel<kChunkK, kRing, false>;
  const long long blocks =
      static_cast<long long>(ceil_div(dims.m, small_simt::kBM)) * ceil_div(dims.n, small_simt::kBN);
  kernel<<<static_cast<unsigned>(blocks), small_simt::kThreads, Layout::kSharedBytes, stream>>>(a, b, c, dims.m, dims.n,
                                                                                                dims.k);
  KBENCH_CHECK_LAUNCH();
}

}  // namespace kbench::matmul
