// register_blocked's 128×128 fp32 SIMT tile (matmul_register_blocked.cu: 256 threads, 8×8 C per
// thread as two 4×4 groups 64 apart, A transposed and padded in shared memory, K steps of 8,
// grouped block order, 2 blocks per SM) with its panels copied by cp.async instead of through
// registers.
//
// Why. In register_blocked's SASS (sm_90, CUDA 13.0) ptxas places the next step's two LDG.128
// after the step's 512 FFMAs, not before them as the source asks (at the 128-register cap the
// fragments take the registers the loaded values would need), and the panel stores that follow
// wait on them: each step ends with a global load's full latency before its barrier. Here the
// copies go straight to shared memory and do not block: step s + 2's panels are issued at the start
// of step s into a 3-stage ring, and a thread waits only for step s's (cp.async.wait_group 1),
// issued two steps (~3,500 cycles each) earlier. One barrier per step, as before.
//
// The copies. A's 128×8 panel lands transposed (a_tile[k][m]) through 4-byte copies: copy j of
// thread t moves A[row0 + 32j + t/8][k0 + t%8], so a warp reads 4 rows × 32 bytes (4 sectors, as
// one LDG.128 per thread did) and writes banks (4·(t%8) + row) mod 32: all 32 distinct (rows are
// padded to 132 floats). B's 8×128 panel: one 16-byte copy per thread where N % 4 == 0 and B, C are
// 16-byte aligned, else four 4-byte ones; K has no alignment condition (A moves in 4-byte pieces).
// Copies outside A or B write zeros (source size 0), so the FFMA loop needs no guards.
//
// Warp shape. register_blocked's warps are 2 (ty) × 16 (tx) threads: a warp's B fragment loads
// read 16 float4s, 256 bytes, two shared wavefronts each. kWarps4x8 makes them 4 × 8: B reads
// 8 float4s (128 bytes, one wavefront) and A 4 (64 bytes, one), so a warp's 4 fragment loads per k
// take 4 wavefronts instead of 6. Thread (ty, tx) owns the same outputs either way.
//
// Split K (kPartial): block (x, y) computes tile x over the y-th range of K, [y·k_per_split,
// (y + 1)·k_per_split) clipped to K, as a product of its own (A and B start at the range, A's rows
// keep their length k), and writes its unrounded sums to slice y of the M×N fp32 workspace; an
// empty range writes zeros.
#include "kernels/matmul/matmul_kernels.hpp"

#include "harness/device/cuda_check.hpp"
#include "kernels/common/launch_attributes.cuh"
#include "kernels/common/vector16.cuh"
#include "kernels/matmul/cp_async.cuh"
#include "kernels/matmul/matmul_device.cuh"

namespace kbench::matmul {

namespace {

constexpr int kBM = 128;    // rows of C per block
constexpr int kBN = 128;    // columns of C per block
constexpr int kBK = 8;      // K per step
constexpr int kThreads = 256;
constexpr int kAPad = 4;    // floats of padding per a_tile row
constexpr int kGroup = 8;   // tile rows per group of the block order (grouped_tile)
constexpr int kStages = 3;  // shared-memory ring: step s computes while s + 1 and s + 2 land

static_assert(kBM == 128 && kBN == 128 && kThreads == 256, "the 16x16 thread grid with 8x8 per thread covers 128x128");
static_assert(kBM * kBK == 4 * kThreads && kBK * kBN == 4 * kThreads, "each thread copies 4 floats of each panel");

/// The ring of panels: A transposed (a[stage][k][m]), B as it is.
struct Ring {
  float a[kStages][kBK][kBM + kAPad];
  float b[kStages][kBK][kBN];
};

/// Where this thread's copies of a step come from. Source addresses are kept inside A and B even
/// for the zero-filled copies (rows and columns clamped), as 32-bit element offsets from the
/// matrix's start: each address is then one wide multiply-add, with no pointer selects.
struct CopyPlan {
  int a_row_offset[4];  ///< copy j: min(row0 + 32j + t/8, M - 1) · K
  int a_rows_inside;    ///< how many of those 4 rows are inside A
  int a_col;            ///< t % 8: this thread's column of A's panel
  int b_row;            ///< its (first) row of B's panel: t/32 (16-byte copies) or t/128 (copy j adds 2j)
  int b_col;            ///< its B column (of 4 with 16-byte copies), clamped to 0 when outside B
  bool b_col_inside;
};

/// Issues this thread's cp.async copies of the step starting at k0 into `stage` (zeros outside A,
/// B, and past `k_end`, the end of the block's range of K).
template <bool kVectorized>
__device__ __forceinline__ void copy_step(Ring& ring, int stage, const CopyPlan& p, const float* a, const float* b,
                                          int k0, int n, int k_end) {
  const int t = static_cast<int>(threadIdx.x);
  const bool a_col_inside = k0 + p.a_col < k_end;
  const int a_col = min(k0 + p.a_col, k_end - 1);
#pragma unroll
  for (int j = 0; j < 4; ++j) {
    cp_async_4(&ring.a[stage][p.a_col][j * 32 + t / 8], a + (p.a_row_offset[j] + a_col),
               a_col_inside && j < p.a_rows_inside);
  }
  if constexpr (kVectorized) {
    const int row = k0 + p.b_row;
    cp_async_16(&ring.b[stage][p.b_row][(t % 32) * 4], b + (min(row, k_end - 1) * n + p.b_col),
                p.b_col_inside && row < k_end);
  } else {
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const int row = k0 + p.b_row + 2 * j;
      cp_async_4(&ring.b[stage][p.b_row + 2 * j][t % 128], b + (min(row, k_end - 1) * n + p.b_col),
                 p.b_col_inside && row < k_end);
    }
  }
}

/// acc += one step's products for thread (ty, tx): acc[i][j], i < 4 row ty*4 + i, i >= 4 row
/// 64 + ty*4 + (i - 4); likewise j for columns.
__device__ __forceinline__ void multiply_step(float (&acc)[8][8], const float (&a_tile)[kBK][kBM + kAPad],
                                              const float (&b_tile)[kBK][kBN], int ty, int tx) {
#pragma unroll
  for (int kk = 0; kk < kBK; ++kk) {
    const float4 a_lo = *reinterpret_cast<const float4*>(&a_tile[kk][ty * 4]);
    const float4 a_hi = *reinterpret_cast<const float4*>(&a_tile[kk][64 + ty * 4]);
    const float4 b_lo = *reinterpret_cast<const float4*>(&b_tile[kk][tx * 4]);
    const float4 b_hi = *reinterpret_cast<const float4*>(&b_tile[kk][64 + tx * 4]);
    const float a_frag[8] = {a_lo.x, a_lo.y, a_lo.z, a_lo.w, a_hi.x, a_hi.y, a_hi.z, a_hi.w};
    const float b_frag[8] = {b_lo.x, b_lo.y, b_lo.z, b_lo.w, b_hi.x, b_hi.y, b_hi.z, b_hi.w};
#pragma unroll
    for (int i = 0; i < 8; ++i)
#pragma unroll
      for (int j = 0; j < 8; ++j) acc[i][j] = fmaf(a_frag[i], b_frag[j], acc[i][j]);
  }
}

// kVectorized: 16-byte copies of B and float4 stores of C (N % 4 == 0, B and C 16-byte aligned).
// Every instantiation fits 128 registers, so each runs 2 blocks (16 warps) per SM.
template <bool kVectorized, bool kWarps4x8, bool kPartial>
__global__ void __launch_bounds__(kThreads, 2)
    matmul_register_blocked_async_kernel(const float* __restrict__ a, const float* __restrict__ b,
                                         float* __restrict__ c, int m, int n, int k, int k_per_split) {
  __shared__ __align__(16) Ring ring;
  if constexpr (kPartial) allow_dependents();  // launch_split_k_reduce's blocks may be placed

  const TileCoord tile = grouped_tile(static_cast<int>(blockIdx.x), ceil_div(m, kBM), ceil_div(n, kBN), kGroup);
  const int block_row = tile.row * kBM;
  const int block_col = tile.col * kBN;
  const int t = static_cast<int>(threadIdx.x);
  int ty = t / 16;
  int tx = t % 16;
  if constexpr (kWarps4x8) {
    const int warp = t / 32, lane = t % 32;
    ty = (warp / 2) * 4 + lane / 8;
    tx = (warp % 2) * 8 + lane % 8;
  }

  int k_end = k;
  if constexpr (kPartial) k_end = enter_k_split(a, b, c, m, n, k, k_per_split);

  CopyPlan plan;
  const int a_row = block_row + t / 8;
#pragma unroll
  for (int j = 0; j < 4; ++j) plan.a_row_offset[j] = min(a_row + 32 * j, m - 1) * k;
  plan.a_rows_inside = a_row < m ? min(4, (m - a_row + 31) / 32) : 0;
  plan.a_col = t % 8;
  plan.b_row = kVectorized ? t / 32 : t / 128;
  const int b_col = block_col + (kVectorized ? (t % 32) * 4 : t % 128);
  plan.b_col_inside = b_col < n;
  plan.b_col = plan.b_col_inside ? b_col : 0;

  float acc[8][8];
#pragma unroll
  for (int i = 0; i < 8; ++i)
#pragma unroll
    for (int j = 0; j < 8; ++j) acc[i][j] = 0.0f;

  const int steps = ceil_div(k_end, kBK);
#pragma unroll
  for (int s = 0; s < kStages - 1; ++s) {
    if (s < steps) copy_step<kVectorized>(ring, s, plan, a, b, s * kBK, n, k_end);
    cp_async_commit();  // empty groups too, so that every step waits on the same count
  }

  int stage = 0;             // the stage step reads
  int fill = kStages - 1;    // the stage step + kStages - 1 lands in
  for (int step = 0; step < steps; ++step) {
    // This thread's copies of `step` are done once at most kStages - 2 newer groups are pending;
    // the barrier makes every thread's visible, and tells that all finished step - 1, whose stage
    // (`fill`) is overwritten below.
    cp_async_wait<kStages - 2>();
    __syncthreads();
    if (step + kStages - 1 < steps) {
      copy_step<kVectorized>(ring, fill, plan, a, b, (step + kStages - 1) * kBK, n, k_end);
    }
    cp_async_commit();

    multiply_step(acc, ring.a[stage], ring.b[stage], ty, tx);
    stage = stage + 1 == kStages ? 0 : stage + 1;
    fill = fill + 1 == kStages ? 0 : fill + 1;
  }

#pragma unroll
  for (int i = 0; i < 8; ++i) {
    const int row = block_row + (i / 4) * 64 + ty * 4 + i % 4;
    if (row >= m) continue;
#pragma unroll
    for (int half = 0; half < 2; ++half) {
      const int col = block_col + half * 64 + tx * 4;
      const float* v = &acc[i][half * 4];
      if constexpr (kVectorized) {
        if (col < n) *reinterpret_cast<float4*>(c + row * n + col) = make_float4(v[0], v[1], v[2], v[3]);
      } else {
#pragma unroll
        for (int j = 0; j < 4; ++j)
          if (col + j < n) c[row * n + col + j] = v[j];
      }
    }
  }
}

template <bool kWarps4x8>
void launch_kernel(const float* a, const float* b, float* c, Dims dims, bool vectorized, unsigned blocks,
                   cudaStream_t stream) {
  if (vectorized) {
    matmul_register_blocked_async_kernel<true, kWarps4x8, false>
        <<<blocks, kThreads, 0, stream>>>(a, b, c, dims.m, dims.n, dims.k, dims.k);
  } else {
    matmul_register_blocked_async_kernel<false, kWarps4x8, false>
        <<<blocks, kThreads, 0, stream>>>(a, b, c, dims.m, dims.n, dims.k, dims.k);
  }
}

}  // namespace

void launch_register_blocked_async(const float* a, const float* b, float* c, Dims dims, SimtWarps warps,
                                   cudaStream_t stream) {
  const long long blocks = static_cast<long long>(ceil_div(dims.m, kBM)) * ceil_div(dims.n, kBN);
  // The same small-problem rule as launch_register_blocked, so that the two differ only in the
  // 128×128 kernel.
  const bool small_simt_fits = dims.k % 4 == 0 && dims.n % 4 == 0 && aligned16(a) && aligned16(b) && aligned16(c);
  if (small_simt_fits && blocks < launch_sm_count()) {
    launch_small_simt(a, b, c, dims, stream);
    return;
  }
  const bool vectorized = dims.n % 4 == 0 && aligned16(b) && aligned16(c);
  if (warps == SimtWarps::rows4_cols8) {
    launch_kernel<true>(a, b, c, dims, vectorized, static_cast<unsigned>(blocks), stream);
  } else {
    launch_kernel<false>(a, b, c, dims, vectorized, static_cast<unsigned>(blocks), stream);
  }
  KBENCH_CHECK_LAUNCH();
}

void launch_register_blocked_async_partials(const float* a, const float* b, float* partials, Dims dims, int splits,
                                            cudaStream_t stream) {
  check_split_count("register_blocked_async split-K", splits);
  const long long tiles = static_cast<long long>(ceil_div(dims.m, kBM)) * ceil_div(dims.n, kBN);
  const bool vectorized = dims.n % 4 == 0 && aligned16(b) && aligned16(partials);
  const int k_per_split = ceil_div(ceil_div(dims.k, kBK), splits) * kBK;
  const dim3 grid(static_cast<unsigned>(tiles), static_cast<unsigned>(splits));
  if (vectorized) {
    matmul_register_blocked_async_kernel<true, true, true>
        <<<grid, kThreads, 0, stream>>>(a, b, partials, dims.m, dims.n, dims.k, k_per_split);
  } else {
    matmul_register_blocked_async_kernel<false, true, true>
        <<<grid, kThreads, 0, stream>>>(a, b, partials, dims.m, dims.n, dims.k, k_per_split);
  }
  KBENCH_CHECK_LAUNCH();
}

}  // namespace kbench::matmul
