// fp32 SIMT matmul for problems too small to fill the GPU with register_blocked's 128×128 tiles
// (fewer tiles than SMs: 256³ is 4 tiles, 1024³ is 64). register_blocked's launcher hands such
// shapes here when K and N are multiples of 4.
//
// Why another kernel. At 256³ the 128×128 kernel runs 4 blocks on 4 SMs, each doing 4.2 M FMAs
// one after another: 10 µs, where the whole product is 16.8 M FMAs, 0.5 µs of the H100's FP32
// throughput spread over 132 SMs. Smaller tiles alone would starve each block of FMAs per load,
// so the block also splits K.
//
// Block tile 16×32, K in steps of kBK = 32. Each of the block's 8 warps is a K-slice: warp s
// takes k = 4s .. 4s+3 of every step. Lane (ty, tx), ty = lane / 8, tx = lane % 8, owns rows
// ty + 4i (i = 0..3) and columns 4tx .. 4tx+3: 16 accumulators. Per step a thread reads four
// float4 of A (its four rows, 4 k each) and four float4 of B (4 rows of k, its 4 columns) and does
// 64 FMAs. The A stage is stored as in global memory (rows of K) padded to 36 floats, so the four
// rows a warp reads at once (4i .. 4i+3) start in banks 0, 4, 8, 12; B rows are read as 8
// consecutive float4: both conflict-free. At the end the slices' accumulators meet in shared
// memory and every thread adds two outputs' eight partials in slice order and stores them.
//
// Pipeline: kStages stages filled by cp.async (16 bytes, zero-filled outside the matrices), the
// copies of kStages - 1 steps in flight ahead of the step being computed, as in tensor_core. Each
// thread's copy addresses are worked out once; a step only adds its k offset.
//
// Measured on the H100 at 256³ in hot mode (NOTES.md): 3.77 µs with 4 slices of 64 threads and
// 2×4 outputs each (ncu: stalls waiting on shared loads dominated), 3.38-3.40 µs like this.
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
constexpr int kSlices = kThreads / 32;  // one warp per K-slice
constexpr int kSliceK = kBK / kSlices;  // 4 k per slice and step
/// 4 stages: 9 (a K of 256 in flight from the start) measured slower on the H100 (4.01 against
/// 3.77 µs per call at 256³ in hot mode, with the 2×4 layout), and so did 5 stages with the
/// fragments double-buffered in registers (3.64 against 3.38 µs, this layout; NOTES.md).
constexpr int kStages = 4;
constexpr int kALd = kBK + 4;        // floats per A stage row
constexpr int kBLd = kBN;            // floats per B stage row
constexpr int kAStage = kBM * kALd;  // floats
constexpr int kBStage = kBK * kBLd;
constexpr int kAChunks = kBM * kBK / 4;  // 16-byte copies per stage: 128 of A, 256 of B
constexpr int kBChunks = kBK * kBN / 4;
static_assert(kAChunks <= kThreads && kBChunks == kThreads, "one B chunk per thread, one A chunk for the first 128");
static_assert(kSliceK == 4 && 4 * 4 == kBM && 8 * 4 == kBN, "a warp's 4x8 lanes with 4x4 each cover the tile");
static_assert(kSlices * kBM * kBN <= kStages * (kAStage + kBStage), "the partial tiles fit in the stages");

/// One thread's share of every stage's copies: one 16-byte chunk of B (row r_b of the step, 4
/// columns) and, for the first kAChunks threads, one of A (row r_a of the tile, 4 k). K % 4 == 0
/// and N % 4 == 0, so each chunk is wholly inside the matrix or wholly outside it (then
/// zero-filled).
struct StageCopies {
  const float* a_src;  ///< A's chunk at k = 0 (valid only where a_row_ok)
  const float* b_src;  ///< B's chunk at k = 0 (valid only where b_col_ok)
  int a_dst, b_dst;    ///< offsets within a stage, floats
  int a_k, b_k;        ///< the chunk's k within a step: A's column, B's row
  bool a_copies, a_row_ok, b_col_ok;

  __device__ StageCopies(const float* a, const float* b, int m, int n, int k, int block_row, int block_col) {
    const int tid = static_cast<int>(threadIdx.x);
    const int r_a = tid / (kBK / 4);
    a_k = (tid % (kBK / 4)) * 4;
    a_copies = tid < kAChunks;
    a_row_ok = a_copies && block_row + r_a < m;
    a_src = a + static_cast<long long>(block_row + r_a) * k + a_k;
    a_dst = r_a * kALd + a_k;
    b_k = tid / (kBN / 4);
    const int b_col = (tid % (kBN / 4)) * 4;
    b_col_ok = block_col + b_col < n;
    b_src = b + static_cast<long long>(b_k) * n + block_col + b_col;
    b_dst = kAStage + b_k * kBLd + b_col;
  }

  /// Starts the copies of the step at `k0` into `stage`.
  __device__ __forceinline__ void issue(float* stage, const float* a, const float* b, int n, int k, int k0) const {
    if (a_copies) {
      const bool inside = a_row_ok && k0 + a_k < k;
      cp_async_16(stage + a_dst, inside ? a_src + k0 : a, inside);
    }
    const bool inside = b_col_ok && k0 + b_k < k;
    cp_async_16(stage + b_dst, inside ? b_src + static_cast<long long>(k0) * n : b, inside);
  }
};

__global__ void __launch_bounds__(kThreads)
    matmul_small_simt_kernel(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int m,
                             int n, int k) {
  __shared__ __align__(16) float stages[kStages][kAStage + kBStage];
  const int tiles_n = ceil_div(n, kBN);
  const int block_row = static_cast<int>(blockIdx.x) / tiles_n * kBM;
  const int block_col = static_cast<int>(blockIdx.x) % tiles_n * kBN;
  const int slice = static_cast<int>(threadIdx.x) / 32;
  const int lane = static_cast<int>(threadIdx.x) % 32;
  const int ty = lane / 8, tx = lane % 8;
  const StageCopies copies(a, b, m, n, k, block_row, block_col);

  float acc[4][4] = {};
  const int steps = ceil_div(k, kBK);
#pragma unroll
  for (int s = 0; s < kStages - 1; ++s) {
    if (s < steps) copies.issue(stages[s], a, b, n, k, s * kBK);
    cp_async_commit();
  }
  for (int step = 0; step < steps; ++step) {
    cp_async_wait<kStages - 2>();  // this thread's copies of `step` have landed
    __syncthreads();               // everyone's have, and everyone is done with step - 1
    const int ahead = step + kStages - 1;
    if (ahead < steps) copies.issue(stages[ahead % kStages], a, b, n, k, ahead * kBK);
    cp_async_commit();

    const float* a_rows = stages[step % kStages] + ty * kALd + slice * kSliceK;
    const float* b_rows = stages[step % kStages] + kAStage + slice * kSliceK * kBLd + 4 * tx;
    float4 av[4], bv[4];
#pragma unroll
    for (int i = 0; i < 4; ++i) av[i] = *reinterpret_cast<const float4*>(a_rows + 4 * i * kALd);
#pragma unroll
    for (int j = 0; j < 4; ++j) bv[j] = *reinterpret_cast<const float4*>(b_rows + j * kBLd);
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      const float a_frag[4] = {av[i].x, av[i].y, av[i].z, av[i].w};
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        acc[i][0] = fmaf(a_frag[j], bv[j].x, acc[i][0]);
        acc[i][1] = fmaf(a_frag[j], bv[j].y, acc[i][1]);
        acc[i][2] = fmaf(a_frag[j], bv[j].z, acc[i][2]);
        acc[i][3] = fmaf(a_frag[j], bv[j].w, acc[i][3]);
      }
    }
  }
  cp_async_wait<0>();
  __syncthreads();  // every slice is done reading the stages, which now hold the partial tiles

  float* partial = &stages[0][0];  // [slice][row][col], kSlices × 16 × 32 floats across the stages
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    *reinterpret_cast<float4*>(partial + (slice * kBM + ty + 4 * i) * kBN + 4 * tx) =
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
