// fp32 SIMT matmul with register blocking: the design that gets within reach of cuBLAS on CUDA
// cores (true fp32 FFMA; no tensor cores, no TF32).
//
// Why register blocking. The tiled kernel does one FMA per two shared-memory loads, so shared
// memory, not the FMA units, sets its speed. Here each thread computes an 8×8 block of C held in
// 64 registers. Per step k it loads 8 values of A's column k and 8 of B's row k (four 16-byte
// shared-memory loads) and does 8×8 = 64 FMAs with them: 16 FMAs per load.
//
// Block tile. A block of 256 threads owns a 128×128 tile of C and walks K in steps of kBK = 8.
// Each step stages a 128×8 panel of A and an 8×128 panel of B in shared memory: per thread one
// 16-byte global load of each (LDG.128 when K and N are multiples of 4).
//
// Thread layout. The 256 threads form a 16×16 grid (ty, tx). Thread (ty, tx) owns rows
// {ty*4 .. ty*4+3} and {64+ty*4 .. 64+ty*4+3} and columns {tx*4 ..} and {64+tx*4 ..}: two
// groups of four, 64 apart, rather than 8 consecutive. A warp (two values of ty, tx = 0..15)
// then reads B's row k as 16 consecutive float4s (256 contiguous bytes: conflict-free) and A's
// column k as two float4s (broadcasts).
//
// A is stored transposed (a_tile[k][m]) so that a thread's 4 consecutive rows of A's column k are
// one float4. Each row of a_tile is padded by 4 floats: the transposing stores (4 scalar stores
// per thread) then hit 32 different banks per warp; the pad keeps rows 16-byte aligned.
//
// Double buffering. Two copies of each panel: while the block computes on one, each thread has
// already issued the global loads of the next step into registers, and stores them into the other
// copy after its FMAs. One __syncthreads per step suffices (see the loop).
//
// Bounds. Panel elements outside A or B are stored as zeros, so partial tiles need no guards in
// the FMA loop. The vectorized instantiation needs K % 4 == 0 and N % 4 == 0 (each 16-byte
// vector is then wholly inside or wholly outside the matrix, and 16-byte aligned); any other shape
// takes the scalar instantiation, which loads and stores element by element with its own guard.
//
// Small problems. A shape with fewer 128×128 tiles than the GPU has SMs (1024³ and below on an
// H100) leaves most SMs idle here; with K and N multiples of 4 it runs matmul_small_simt.cu's
// 16×32-tile, split-K kernel instead.
#include "kernels/matmul/matmul_kernels.hpp"

#include "harness/device/cuda_check.hpp"
#include "kernels/common/vector16.cuh"
#include "kernels/matmul/matmul_device.cuh"

#include <cstdint>

namespace kbench::matmul {

namespace {

constexpr int kBM = 128;   // rows of C per block
constexpr int kBN = 128;   // columns of C per block
constexpr int kBK = 8;     // K per step
constexpr int kThreads = 256;
constexpr int kAPad = 4;   // floats of padding per a_tile row
constexpr int kGroup = 8;  // tile rows per group of the block order (grouped_tile)

// Global-to-shared copies per thread and step, in float4s.
constexpr int kALoads = kBM * kBK / 4 / kThreads;
constexpr int kBLoads = kBK * kBN / 4 / kThreads;
static_assert(kALoads * 4 * kThreads == kBM * kBK && kBLoads * 4 * kThreads == kBK * kBN,
              "every thread copies the same number of float4s");
static_assert(kBM == 128 && kBN == 128 && kThreads == 256, "the 16x16 thread grid with 8x8 per thread covers 128x128");

struct Panels {
  float4 a[kALoads];  // A elements (row, k .. k+3) as loaded, not yet transposed
  float4 b[kBLoads];
};

/// Loads step `k0`'s panels of A and B into registers, zeros outside the matrices and at or past
/// `k_end` (K for a whole product, the end of its K range for a split; `k` is A's row length).
template <bool kVectorized>
__device__ __forceinline__ void load_panels(Panels& p, const float* __restrict__ a, const float* __restrict__ b,
                                            int m, int n, int k, int k_end, int block_row, int block_col, int k0) {
#pragma unroll
  for (int l = 0; l < kALoads; ++l) {
    const int f = static_cast<int>(threadIdx.x) + l * kThreads;
    const int row = block_row + f / (kBK / 4);
    const int col = k0 + (f % (kBK / 4)) * 4;
    if constexpr (kVectorized) {
      p.a[l] = (row < m && col < k_end) ? *reinterpret_cast<const float4*>(a + row * k + col) : make_float4(0, 0, 0, 0);
    } else {
      const bool row_ok = row < m;
      p.a[l].x = (row_ok && col + 0 < k_end) ? a[row * k + col + 0] : 0.0f;
      p.a[l].y = (row_ok && col + 1 < k_end) ? a[row * k + col + 1] : 0.0f;
      p.a[l].z = (row_ok && col + 2 < k_end) ? a[row * k + col + 2] : 0.0f;
      p.a[l].w = (row_ok && col + 3 < k_end) ? a[row * k + col + 3] : 0.0f;
    }
  }
#pragma unroll
  for (int l = 0; l < kBLoads; ++l) {
    const int f = static_cast<int>(threadIdx.x) + l * kThreads;
    const int row = k0 + f / (kBN / 4);
    const int col = block_col + (f % (kBN / 4)) * 4;
    if constexpr (kVectorized) {
      p.b[l] = (row < k_end && col < n) ? *reinterpret_cast<const float4*>(b + row * n + col) : make_float4(0, 0, 0, 0);
    } else {
      const bool row_ok = row < k_end;
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

// Two blocks per SM cap the vectorized kernel at 128 registers a thread, which it fits without
// spilling; the scalar fallback's extra address arithmetic would spill there, so it may use more.
// kPartial: split K. Block (x, y) computes tile x over K range y, [y·k_per_split, (y+1)·k_per_split)
// clipped to K (k_per_split a multiple of kBK), and writes its unrounded sums to slice y of the
// M×N fp32 workspace `c`; an empty range writes zeros.
template <bool kVectorized, bool kPartial>
__global__ void __launch_bounds__(kThreads, kVectorized ? 2 : 1)
    matmul_register_blocked_kernel(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                                   int m, int n, int k, int k_per_split) {
  __shared__ __align__(16) float a_tile[2][kBK][kBM + kAPad];
  __shared__ __align__(16) float b_tile[2][kBK][kBN];

  const TileCoord tile = grouped_tile(static_cast<int>(blockIdx.x), ceil_div(m, kBM), ceil_div(n, kBN), kGroup);
  const int block_row = tile.row * kBM;
  const int block_col = tile.col * kBN;
  const int ty = static_cast<int>(threadIdx.x) / 16;
  const int tx = static_cast<int>(threadIdx.x) % 16;

  float acc[8][8];
#pragma unroll
  for (int i = 0; i < 8; ++i)
#pragma unroll
    for (int j = 0; j < 8; ++j) acc[i][j] = 0.0f;

  int k_end = k;
  if constexpr (kPartial) k_end = enter_k_split(a, b, c, m, n, k, k_per_split);

  Panels next;
  load_panels<kVectorized>(next, a, b, m, n, k, k_end, block_row, block_col, 0);
  store_panels(next, a_tile[0], b_tile[0]);
  __syncthreads();

  const int steps = ceil_div(k_end, kBK);
  for (int step = 0; step < steps; ++step) {
    const int cur = step & 1;
    // Issue the next step's global loads now; their latency hides behind the FMAs below.
    if (step + 1 < steps) load_panels<kVectorized>(next, a, b, m, n, k, k_end, block_row, block_col, (step + 1) * kBK);

#pragma unroll
    for (int kk = 0; kk < kBK; ++kk) {
      const float4 a_lo = *reinterpret_cast<const float4*>(&a_tile[cur][kk][ty * 4]);
      const float4 a_hi = *reinterpret_cast<const float4*>(&a_tile[cur][kk][64 + ty * 4]);
      const float4 b_lo = *reinterpret_cast<const float4*>(&b_tile[cur][kk][tx * 4]);
      const float4 b_hi = *reinterpret_cast<const float4*>(&b_tile[cur][kk][64 + tx * 4]);
      const float a_frag[8] = {a_lo.x, a_lo.y, a_lo.z, a_lo.w, a_hi.x, a_hi.y, a_hi.z, a_hi.w};
      const float b_frag[8] = {b_lo.x, b_lo.y, b_lo.z, b_lo.w, b_hi.x, b_hi.y, b_hi.z, b_hi.w};
#pragma unroll
      for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j) acc[i][j] = fmaf(a_frag[i], b_frag[j], acc[i][j]);
    }

    // The other buffer was last read in step - 1, and every thread passed the barrier at the end
    // of step - 1 after those reads: it is free. The barrier below then publishes it for step + 1
    // and keeps anyone from overwriting `cur` (in step + 1) while a slower thread still reads it.
    if (step + 1 < steps) store_panels(next, a_tile[cur ^ 1], b_tile[cur ^ 1]);
    __syncthreads();
  }

  // acc[i][j]: i < 4 is row ty*4 + i, i >= 4 is row 64 + ty*4 + (i - 4); likewise j for columns.
#pragma unroll
  for (int i = 0; i < 8; ++i) {
    const int row = block_row + (i / 4) * 64 + ty * 4 + i % 4;
    if (row >= m) continue;
#pragma unroll
    for (int half = 0; half < 2; ++half) {
      const int col = block_col + half * 64 + tx * 4;
      const float* v = &acc[i][half * 4];
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

void launch_register_blocked(const float* a, const float* b, float* c, Dims dims, cudaStream_t stream) {
  const long long blocks = static_cast<long long>(ceil_div(dims.m, kBM)) * ceil_div(dims.n, kBN);
  const bool vectorized = dims.k % 4 == 0 && dims.n % 4 == 0 && aligned16(a) && aligned16(b) && aligned16(c);
  if (vectorized && blocks < launch_sm_count()) {
    // Less than one block per SM: the small-tile, split-K kernel keeps more SMs busy.
    launch_small_simt(a, b, c, dims, stream);
    return;
  }
  if (vectorized) {
    matmul_register_blocked_kernel<true, false>
        <<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(a, b, c, dims.m, dims.n, dims.k, dims.k);
  } else {
    matmul_register_blocked_kernel<false, false>
        <<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(a, b, c, dims.m, dims.n, dims.k, dims.k);
  }
  KBENCH_CHECK_LAUNCH();
}

void launch_register_blocked_partials(const float* a, const float* b, float* partials, Dims dims, int splits,
                                      cudaStream_t stream) {
  check_split_count("register_blocked split-K", splits);
  const long long tiles = static_cast<long long>(ceil_div(dims.m, kBM)) * ceil_div(dims.n, kBN);
  const bool vectorized =
      dims.k % 4 == 0 && dims.n % 4 == 0 && aligned16(a) && aligned16(b) && aligned16(partials);
  const int k_per_split = ceil_div(ceil_div(dims.k, kBK), splits) * kBK;
  const dim3 grid(static_cast<unsigned>(tiles), static_cast<unsigned>(splits));
  if (vectorized) {
    matmul_register_blocked_kernel<true, true>
        <<<grid, kThreads, 0, stream>>>(a, b, partials, dims.m, dims.n, dims.k, k_per_split);
  } else {
    matmul_register_blocked_kernel<false, true>
        <<<grid, kThreads, 0, stream>>>(a, b, partials, dims.m, dims.n, dims.k, k_per_split);
  }
  KBENCH_CHECK_LAUNCH();
}

}  // namespace kbench::matmul
