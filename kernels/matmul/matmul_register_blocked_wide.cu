// register_blocked_wide: register_blocked's fp32 SIMT design (true FFMA; no tensor cores, no TF32)
// with twice the outputs per thread, for large problems.
//
// Why wider. register_blocked's 8×8 per thread does 64 FFMAs per 4 shared loads, and its two
// blocks per SM cap it at 128 registers, so the compiler cannot hold the next k's fragments while
// it multiplies. Here each thread owns 8×16 outputs (128 accumulators): per step k it loads 8
// values of A's column k and 16 of B's row k (six 16-byte shared loads) for 128 FFMAs, 21 per load,
// and the fragments of k + 1 are loaded into a second set of registers while k's FFMAs run. Per
// 8-deep step a thread issues 1024 FFMAs against ~90 other instructions (shared and global loads,
// the panel stores, address arithmetic, the barrier), where register_blocked issues 512 against
// ~65: the FFMAs' share of issue slots rises from ~89 % to ~92 % (NOTES.md has the count).
//
// Block tile. 256 threads own a 128×256 tile of C, one block per SM (~200 registers a thread),
// and walk K in steps of kBK = 8: per step a 128×8 panel of A (one 16-byte global load a thread)
// and an 8×256 panel of B (two), double-buffered in shared memory through registers as in
// register_blocked (24,832 bytes of shared memory).
//
// Thread layout. Threads form a 16×16 grid (ty, tx); thread (ty, tx) owns rows ty*4 .. ty*4+3 and
// 64 + the same, and columns tx*4 .. tx*4+3 plus 64, 128 and 192 more: groups of four, so each
// group is one float4 in shared memory. A warp covers 4 values of ty and 8 of tx (not 2 × 16 as in
// register_blocked): its A loads read 4 distinct float4s (64 bytes) and its B loads 8 consecutive
// float4s (128 contiguous bytes, all 32 banks once), so no load has a bank conflict and each B
// load needs one shared-memory wavefront instead of two.
//
// A is stored transposed (a_tile[k][m]) so that four consecutive rows of A's column k are one
// float4; rows padded by 4 floats keep the transposing scalar stores free of bank conflicts.
//
// Bounds as in register_blocked: panel elements outside A or B are stored as zeros; the vectorized
// instantiation needs K % 4 == 0, N % 4 == 0 and 16-byte aligned pointers, any other shape runs the
// scalar one, which loads and stores element by element. Unlike register_blocked's launcher this one
// always runs the wide tile (no small-problem kernel), so the variant is this kernel on every shape.
#include "kernels/matmul/matmul_kernels.hpp"

#include "harness/device/cuda_check.hpp"
#include "kernels/common/vector16.cuh"
#include "kernels/matmul/matmul_device.cuh"

namespace kbench::matmul {

namespace {

constexpr int kBM = kSimtWideTileM;  // rows of C per block
constexpr int kBN = kSimtWideTileN;  // columns of C per block
constexpr int kBK = 8;               // K per step
constexpr int kThreads = 256;
constexpr int kAPad = 4;             // floats of padding per a_tile row
constexpr int kGroup = 8;            // tile rows per group of the block order (grouped_tile)
constexpr int kRows = 8;             // rows of C per thread: two float4 groups 64 apart
constexpr int kCols = 16;            // columns of C per thread: four float4 groups 64 apart

// Global-to-shared copies per thread and step, in float4s.
constexpr int kALoads = kBM * kBK / 4 / kThreads;
constexpr int kBLoads = kBK * kBN / 4 / kThreads;
static_assert(kALoads * 4 * kThreads == kBM * kBK && kBLoads * 4 * kThreads == kBK * kBN,
              "every thread copies the same number of float4s");
static_assert(kBM == 16 * 4 * (kRows / 4) && kBN == 16 * 4 * (kCols / 4) && kThreads == 256,
              "the 16x16 thread grid with 8x16 per thread covers the block tile");

struct Panels {
  float4 a[kALoads];  // A elements (row, k .. k+3) as loaded, not yet transposed
  float4 b[kBLoads];
};

/// Loads step `k0`'s panels of A and B into registers, zeros outside the matrices.
template <bool kVectorized>
__device__ __forceinline__ void load_panels(Panels& p, const float* __restrict__ a, const float* __restrict__ b,
                                            int m, int n, int k, int block_row, int block_col, int k0) {
#pragma unroll
  for (int l = 0; l < kALoads; ++l) {
    const int f = static_cast<int>(threadIdx.x) + l * kThreads;
    const int row = block_row + f / (kBK / 4);
    const int col = k0 + (f % (kBK / 4)) * 4;
    if constexpr (kVectorized) {
      p.a[l] = (row < m && col < k) ? *reinterpret_cast<const float4*>(a + row * k + col) : make_float4(0, 0, 0, 0);
    } else {
      const bool row_ok = row < m;
      p.a[l].x = (row_ok && col + 0 < k) ? a[row * k + col + 0] : 0.0f;
      p.a[l].y = (row_ok && col + 1 < k) ? a[row * k + col + 1] : 0.0f;
      p.a[l].z = (row_ok && col + 2 < k) ? a[row * k + col + 2] : 0.0f;
      p.a[l].w = (row_ok && col + 3 < k) ? a[row * k + col + 3] : 0.0f;
    }
  }
#pragma unroll
  for (int l = 0; l < kBLoads; ++l) {
    const int f = static_cast<int>(threadIdx.x) + l * kThreads;
    const int row = k0 + f / (kBN / 4);
    const int col = block_col + (f % (kBN / 4)) * 4;
    if constexpr (kVectorized) {
      p.b[l] = (row < k && col < n) ? *reinterpret_cast<const float4*>(b + row * n + col) : make_float4(0, 0, 0, 0);
    } else {
      const bool row_ok = row < k;
      p.b[l].x = (row_ok && col + 0 < n) ? b[row * n + col + 0] : 0.0f;
      p.b[l].y = (row_ok && col + 1 < n) ? b[row * n + col + 1] : 0.0f;
      p.b[l].z = (row_ok && col + 2 < n) ? b[row * n + col + 2] : 0.0f;
      p.b[l].w = (row_ok && col + 3 < n) ? b[row * n + col + 3] : 0.0f;
    }
  }
}

/// Stores the panels in registers into one shared-memory buffer: A transposed, B as it is.
__device__ __forceinline__ void store_panels(const Panels& p, float (*a_tile)[kBM + kAPad], float (*b_tile)[kBN]) {
#pragma unroll
  for (int l = 0; l < kALoads; ++l) {
    const int f = static_cast<int>(threadIdx.x) + l * kThreads;
    const int row = f / (kBK / 4);
    const int col = (f % (kBK / 4)) * 4;
    a_tile[col + 0][row] = p.a[l].x;
    a_tile[col + 1][row] = p.a[l].y;
    a_tile[col + 2][row] = p.a[l].z;
    a_tile[col + 3][row] = p.a[l].w;
  }
#pragma unroll
  for (int l = 0; l < kBLoads; ++l) {
    const int f = static_cast<int>(threadIdx.x) + l * kThreads;
    *reinterpret_cast<float4*>(&b_tile[f / (kBN / 4)][(f % (kBN / 4)) * 4]) = p.b[l];
  }
}

/// One thread's operands for one k: A's 8 rows and B's 16 columns.
struct Fragments {
  float a[kRows];
  float b[kCols];
};

__device__ __forceinline__ void load_fragments(Fragments& f, const float (*a_tile)[kBM + kAPad],
                                               const float (*b_tile)[kBN], int kk, int ty, int tx) {
#pragma unroll
  for (int g = 0; g < kRows / 4; ++g) {
    const float4 v = *reinterpret_cast<const float4*>(&a_tile[kk][g * 64 + ty * 4]);
    f.a[g * 4 + 0] = v.x, f.a[g * 4 + 1] = v.y, f.a[g * 4 + 2] = v.z, f.a[g * 4 + 3] = v.w;
  }
#pragma unroll
  for (int g = 0; g < kCols / 4; ++g) {
    const float4 v = *reinterpret_cast<const float4*>(&b_tile[kk][g * 64 + tx * 4]);
    f.b[g * 4 + 0] = v.x, f.b[g * 4 + 1] = v.y, f.b[g * 4 + 2] = v.z, f.b[g * 4 + 3] = v.w;
  }
}

// One block per SM: up to 255 registers a thread, which the 128 accumulators, two sets of
// fragments (48) and the staged panels (12) fit.
template <bool kVectorized>
__global__ void __launch_bounds__(kThreads, 1)
    matmul_register_blocked_wide_kernel(const float* __restrict__ a, const float* __restrict__ b,
                                        float* __restrict__ c, int m, int n, int k) {
  __shared__ __align__(16) float a_tile[2][kBK][kBM + kAPad];
  __shared__ __align__(16) float b_tile[2][kBK][kBN];

  const TileCoord tile = grouped_tile(static_cast<int>(blockIdx.x), ceil_div(m, kBM), ceil_div(n, kBN), kGroup);
  const int block_row = tile.row * kBM;
  const int block_col = tile.col * kBN;
  // Warp w covers ty in 4·(w / 2) .. +3 and tx in 8·(w % 2) .. +7 (lane / 8 and lane % 8 within).
  const int warp = static_cast<int>(threadIdx.x) / 32;
  const int lane = static_cast<int>(threadIdx.x) % 32;
  const int ty = (warp / 2) * 4 + lane / 8;
  const int tx = (warp % 2) * 8 + lane % 8;

  float acc[kRows][kCols];
#pragma unroll
  for (int i = 0; i < kRows; ++i)
#pragma unroll
    for (int j = 0; j < kCols; ++j) acc[i][j] = 0.0f;

  Panels next;
  load_panels<kVectorized>(next, a, b, m, n, k, block_row, block_col, 0);
  store_panels(next, a_tile[0], b_tile[0]);
  __syncthreads();

  Fragments frag[2];
  const int steps = ceil_div(k, kBK);
  for (int step = 0; step < steps; ++step) {
    const int cur = step & 1;
    // Issue the next step's global loads now; their latency hides behind the FFMAs below.
    if (step + 1 < steps) load_panels<kVectorized>(next, a, b, m, n, k, block_row, block_col, (step + 1) * kBK);

    load_fragments(frag[0], a_tile[cur], b_tile[cur], 0, ty, tx);
#pragma unroll
    for (int kk = 0; kk < kBK; ++kk) {
      // k + 1's fragments load while k's FFMAs run (kk is unrolled: frag indices are constants).
      if (kk + 1 < kBK) load_fragments(frag[(kk + 1) & 1], a_tile[cur], b_tile[cur], kk + 1, ty, tx);
      const Fragments& f = frag[kk & 1];
#pragma unroll
      for (int i = 0; i < kRows; ++i)
#pragma unroll
        for (int j = 0; j < kCols; ++j) acc[i][j] = fmaf(f.a[i], f.b[j], acc[i][j]);
    }

    // As in register_blocked: the other buffer was last read in step - 1, before the barrier that
    // ended it, so it is free; the barrier below publishes it and protects `cur` from step + 1.
    if (step + 1 < steps) store_panels(next, a_tile[cur ^ 1], b_tile[cur ^ 1]);
    __syncthreads();
  }

  // acc[i][j]: row (i / 4)·64 + ty·4 + i % 4, column (j / 4)·64 + tx·4 + j % 4 of the block tile.
#pragma unroll
  for (int i = 0; i < kRows; ++i) {
    const int row = block_row + (i / 4) * 64 + ty * 4 + i % 4;
    if (row >= m) continue;
#pragma unroll
    for (int g = 0; g < kCols / 4; ++g) {
      const int col = block_col + g * 64 + tx * 4;
      const float* v = &acc[i][g * 4];
      if constexpr (kVectorized) {
        // N % 4 == 0: the four columns are all inside or all outside, and 16-byte aligned.
        if (col < n) *reinterpret_cast<float4*>(c + row * n + col) = make_float4(v[0], v[1], v[2], v[3]);
      } else {
#pragma unroll
        for (int j = 0; j < 4; ++j)
          if (col + j < n) c[row * n + col + j] = v[j];
      }
    }
  }
}

}  // namespace

void launch_register_blocked_wide(const float* a, const float* b, float* c, Dims dims, cudaStream_t stream) {
  const long long blocks = static_cast<long long>(ceil_div(dims.m, kBM)) * ceil_div(dims.n, kBN);
  const bool vectorized = dims.k % 4 == 0 && dims.n % 4 == 0 && aligned16(a) && aligned16(b) && aligned16(c);
  if (vectorized) {
    matmul_register_blocked_wide_kernel<true>
        <<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(a, b, c, dims.m, dims.n, dims.k);
  } else {
    matmul_register_blocked_wide_kernel<false>
        <<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(a, b, c, dims.m, dims.n, dims.k);
  }
  KBENCH_CHECK_LAUNCH();
}

}  // namespace kbench::matmul
