// fp32 SIMT matmul for problems too small to fill the GPU with register_blocked's 128×128 tiles
// (fewer tiles than SMs: 256³ is 4 tiles, 1024³ is 64). register_blocked's launcher hands such
// shapes here when K and N are multiples of 4.
//
// Why another kernel. At 256³ the 128×128 kernel runs 4 blocks on 4 SMs, each doing 4.2 M FMAs
// one after another: 10 µs, where the whole product is 16.8 M FMAs, 0.5 µs of the H100's FP32
// throughput spread over 132 SMs. Smaller tiles alone would starve each block of FMAs per load,
// so the block also splits K.
//
// Block tile 16×32, K in steps of kBK = 32. The block's 256 threads are 4 K-slices of 64: slice s
// takes k = 8s .. 8s+7 of every step, and within a slice thread (ty, tx), ty = 0..7, tx = 0..7,
// owns rows 2ty, 2ty+1 and columns 4tx .. 4tx+3 (8 accumulators). Per 4 k a thread reads two
// float4 of A (its two rows, 4 k each) and four float4 of B (4 rows of k, its 4 columns) and does
// 32 FMAs. The A stage is stored as in global memory (rows of K) padded to 36 floats, so the four
// rows a warp reads at once start in banks 0, 8, 16, 24; B rows are read as 8 consecutive float4:
// both conflict-free. At the end the slices' accumulators meet in shared memory and every thread
// adds two outputs' four partials in slice order and stores them.
//
// Pipeline: kStages stages filled by cp.async (16 bytes, zero-filled outside the matrices), the
// copies of kStages - 1 steps in flight ahead of the step being computed, as in tensor_core.
#include "kernels/matmul/matmul_kernels.hpp"

#include "harness/cuda_check.hpp"
#include "kernels/matmul/cp_async.cuh"
#include "kernels/matmul/matmul_device.cuh"

namespace kbench::matmul {

namespace {

constexpr int kBM = 16;
constexpr int kBN = 32;
constexpr int kBK = 32;
constexpr int kThreads = 256;
constexpr int kSlices = 4;                  // K-slices of 64 threads
constexpr int kSliceK = kBK / kSlices;      // k per slice and step
/// 4 stages: 9 (a K of 256 in flight from the start) measured slower on the H100, 4.01 against
/// 3.77 µs per call at 256³ in hot mode (NOTES.md).
constexpr int kStages = 4;
constexpr int kALd = kBK + 4;               // floats per A stage row
constexpr int kBLd = kBN;                   // floats per B stage row
constexpr int kAStage = kBM * kALd;         // floats
constexpr int kBStage = kBK * kBLd;
static_assert(kSlices * kBM * kBN <= kStages * (kAStage + kBStage), "the partial tiles fit in the stages");
constexpr int kAChunks = kBM * kBK / 4;     // 16-byte copies per stage: 128 of A, 256 of B
constexpr int kBChunks = kBK * kBN / 4;
static_assert(kAChunks <= kThreads && kBChunks == kThreads, "one B chunk per thread, one A chunk for the first 128");
static_assert(kSlices * 64 == kThreads && 8 * 2 == kBM && 8 * 4 == kBN, "a slice's 8x8 threads cover the tile");

/// Starts the copies of the step at `k0` into one stage. K % 4 == 0 and N % 4 == 0, so each
/// 16-byte chunk is wholly inside the matrix or wholly outside it (then zero-filled).
__device__ __forceinline__ void load_stage(float* a_stage, float* b_stage, const float* __restrict__ a,
                                           const float* __restrict__ b, int m, int n, int k, int block_row,
                                           int block_col, int k0) {
  const int tid = static_cast<int>(threadIdx.x);
  if (tid < kAChunks) {
    const int r = tid / (kBK / 4), col = (tid % (kBK / 4)) * 4;
    const bool inside = block_row + r < m && k0 + col < k;
    cp_async_16(a_stage + r * kALd + col, inside ? a + static_cast<long long>(block_row + r) * k + k0 + col : a, inside);
  }
  const int r = tid / (kBN / 4), col = (tid % (kBN / 4)) * 4;
  const bool inside = k0 + r < k && block_col + col < n;
  cp_async_16(b_stage + r * kBLd + col, inside ? b + static_cast<long long>(k0 + r) * n + block_col + col : b, inside);
}

__global__ void __launch_bounds__(kThreads)
    matmul_small_simt_kernel(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int m,
                             int n, int k) {
  __shared__ __align__(16) float stages[kStages][kAStage + kBStage];
  const int tiles_n = ceil_div(n, kBN);
  const int block_row = static_cast<int>(blockIdx.x) / tiles_n * kBM;
  const int block_col = static_cast<int>(blockIdx.x) % tiles_n * kBN;
  const int slice = static_cast<int>(threadIdx.x) / 64;
  const int ty = static_cast<int>(threadIdx.x) % 64 / 8;
  const int tx = static_cast<int>(threadIdx.x) % 8;

  float acc[2][4] = {};
  const int steps = ceil_div(k, kBK);
#pragma unroll
  for (int s = 0; s < kStages - 1; ++s) {
    if (s < steps) load_stage(stages[s], stages[s] + kAStage, a, b, m, n, k, block_row, block_col, s * kBK);
    cp_async_commit();
  }
  for (int step = 0; step < steps; ++step) {
    cp_async_wait<kStages - 2>();  // this thread's copies of `step` have landed
    __syncthreads();               // everyone's have, and everyone is done with step - 1
    const int ahead = step + kStages - 1;
    if (ahead < steps) {
      float* stage = stages[ahead % kStages];
      load_stage(stage, stage + kAStage, a, b, m, n, k, block_row, block_col, ahead * kBK);
    }
    cp_async_commit();

    const float* a_rows = stages[step % kStages] + 2 * ty * kALd + slice * kSliceK;
    const float* b_rows = stages[step % kStages] + kAStage + slice * kSliceK * kBLd + 4 * tx;
#pragma unroll
    for (int kk = 0; kk < kSliceK; kk += 4) {
      const float4 a0 = *reinterpret_cast<const float4*>(a_rows + kk);
      const float4 a1 = *reinterpret_cast<const float4*>(a_rows + kALd + kk);
      const float a_frag[2][4] = {{a0.x, a0.y, a0.z, a0.w}, {a1.x, a1.y, a1.z, a1.w}};
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        const float4 bv = *reinterpret_cast<const float4*>(b_rows + (kk + j) * kBLd);
#pragma unroll
        for (int i = 0; i < 2; ++i) {
          acc[i][0] = fmaf(a_frag[i][j], bv.x, acc[i][0]);
          acc[i][1] = fmaf(a_frag[i][j], bv.y, acc[i][1]);
          acc[i][2] = fmaf(a_frag[i][j], bv.z, acc[i][2]);
          acc[i][3] = fmaf(a_frag[i][j], bv.w, acc[i][3]);
        }
      }
    }
  }
  cp_async_wait<0>();
  __syncthreads();  // every slice is done reading the stages, which now hold the partial tiles

  float* partial = &stages[0][0];  // [slice][row][col], kSlices × 16 × 32 floats across the stages
#pragma unroll
  for (int i = 0; i < 2; ++i) {
    *reinterpret_cast<float4*>(partial + (slice * kBM + 2 * ty + i) * kBN + 4 * tx) =
        make_float4(acc[i][0], acc[i][1], acc[i][2], acc[i][3]);
  }
  __syncthreads();
  // Thread t adds the partials of row t / 16, columns 2 (t % 16) and + 1, in slice order.
  const int r = static_cast<int>(threadIdx.x) / 16, col = 2 * (static_cast<int>(threadIdx.x) % 16);
  float2 sum = make_float2(0.0f, 0.0f);
#pragma unroll
  for (int s = 0; s < kSlices; ++s) {
    const float2 p = *reinterpret_cast<const float2*>(partial + (s * kBM + r) * kBN + col);
    sum.x += p.x;
    sum.y += p.y;
  }
  const int row = block_row + r, out_col = block_col + col;
  // N % 4 == 0: col is even, so both columns are inside or both outside, and the pair is aligned.
  if (row < m && out_col < n) *reinterpret_cast<float2*>(c + static_cast<long long>(row) * n + out_col) = sum;
}

}  // namespace

void launch_small_simt(const float* a, const float* b, float* c, Dims dims, cudaStream_t stream) {
  const long long blocks = static_cast<long long>(ceil_div(dims.m, kBM)) * ceil_div(dims.n, kBN);
  matmul_small_simt_kernel<<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(a, b, c, dims.m, dims.n, dims.k);
  KBENCH_CHECK_LAUNCH();
}

}  // namespace kbench::matmul
