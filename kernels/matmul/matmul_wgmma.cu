// Tensor-core matmul with Hopper's warpgroup MMA (wgmma.mma_async), fp16 and bf16, fp32
// accumulators. Built for sm_90a only (kernels/CMakeLists.txt): the arch-specific target is the
// only one that holds wgmma, and its code runs on compute capability 9.0 alone.
//
// Tiles. A block of 256 threads (two warpgroups) owns a 128×256 tile of C; warpgroup w owns rows
// 64w .. 64w+63 and all 256 columns, 128 fp32 accumulators per thread, and issues one
// m64n256k16 wgmma per 16-deep slice of K: 4 per 64-deep step. Both operands come straight from
// shared memory through descriptors; no fragment loads, no ldmatrix.
//
// Shared layout: the 128-byte swizzle. A stage holds A as 128 rows of 64 K-elements (128 bytes a
// row, K-major) and B as 4 panels of 64 N-elements (128 bytes) × 64 K-rows (MN-major). In both,
// 16-byte chunk c of row r is stored at chunk position c ^ (r % 8) of its row, so the 8 rows of a
// 1024-byte swizzle atom spread every chunk column over all banks. Descriptors: A's stride byte
// offset is 1024 (from one 8-row atom to the next), its leading offset unused (16); each 16-deep
// slice starts 32 bytes further into the rows. B's leading byte offset is 8192 (from one 64-wide
// N panel to the next), its stride byte offset 1024 (from one 8-K-row atom to the next); each
// slice starts 16 rows (2048 bytes) further.
//
// Pipeline. 4 stages of 48 KB (192 KB, one block per SM). cp.async fills a stage kAhead = 2 steps
// ahead; each step waits for its stage, makes the copies visible to the async proxy (the one wgmma
// reads through), synchronises, starts the next copies, issues its 4 wgmmas as one group and waits
// until only that group is still running: the MMAs of step t overlap the barrier, the copies and
// the issue of step t + 1. A warpgroup whose rows all lie past M copies and synchronises but issues
// no MMAs. Loads go 2 steps ahead rather than 3 because a stage must not be
// refilled while the still-running group of the step before reads it.
//
// Split K. The partial instantiation (kPartial) computes only the K steps of its split,
// blockIdx.y, and writes its tile of fp32 sums to slice blockIdx.y of an M×N fp32 workspace;
// launch_split_k_reduce then adds the slices in order and rounds C once. A split whose range is
// empty writes zeros, so any split count is correct; the auto plan picks ranges that are never
// empty (matmul_auto_plan.cpp).
//
// Shapes. With K and N multiples of 8 every 16-byte chunk is wholly inside or outside the
// matrices: cp.async zero-fills chunks outside (source size 0). Other shapes copy element by
// element through registers with a guard per element (slower; for odd shapes only). C is stored
// from the accumulators with a guard per element, two elements per store when N is even.
#include "kernels/matmul/matmul_kernels.hpp"

#include "harness/device/cuda_check.hpp"
#include "kernels/common/launch_attributes.cuh"
#include "kernels/matmul/cp_async.cuh"
#include "kernels/matmul/matmul_device.cuh"
#include "kernels/matmul/wgmma.cuh"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace kbench::matmul {

namespace {

constexpr int kBM = kWgmmaTileM, kBN = kWgmmaTileN, kBK = kWgmmaStepK;
static_assert(kBM == 128 && kBN == 256 && kBK == 64, "the copies, descriptors and epilogue are written for 128x256x64");
static_assert(wgmma::kSwizzleRowBytes == 128 && wgmma::kBPanelBytes == 64 * 128, "wgmma.cuh's layout is this file's");
constexpr int kThreads = 256;  // two warpgroups
constexpr int kStages = 4;
constexpr int kAhead = 2;  // steps whose copies are in flight ahead of the one computing
constexpr int kRowBytes = 128;                     // one swizzled row: 64 16-bit elements
constexpr int kAStageBytes = kBM * kRowBytes;      // 16 KB
constexpr int kBPanelBytes = kBK * kRowBytes;      // 8 KB: 64 K-rows of one 64-wide N panel
constexpr int kBStageBytes = (kBN / 64) * kBPanelBytes;  // 32 KB
constexpr int kStageBytes = kAStageBytes + kBStageBytes;
constexpr int kSmemBytes = kStages * kStageBytes + 1024;  // + room to align the base to 1024
constexpr int kChunk = 8;                                 // elements per 16-byte chunk

/// Byte offset of 16-byte chunk `chunk` of swizzled row `row`.
__device__ __forceinline__ unsigned swizzled(int row, int chunk) {
  return static_cast<unsigned>(row * kRowBytes + ((chunk ^ (row % 8)) * 16));
}

__device__ __forceinline__ unsigned bits_of(__half x) { return __half_as_ushort(x); }
__device__ __forceinline__ unsigned bits_of(__nv_bfloat16 x) { return __bfloat16_as_ushort(x); }

/// The unaligned path's chunk: elements first .. first+7 of `row` (guarded by `row_inside` and
/// `limit`), packed in registers and stored to shared memory at `dst`.
template <typename T>
__device__ __forceinline__ void copy_chunk_guarded(unsigned dst, const T* row, bool row_inside, int first, int limit) {
  unsigned word[4];
#pragma unroll
  for (int w = 0; w < 4; ++w) {
    const int e = first + 2 * w;
    const unsigned lo = row_inside && e < limit ? bits_of(row[e]) : 0u;
    const unsigned hi = row_inside && e + 1 < limit ? bits_of(row[e + 1]) : 0u;
    word[w] = lo | (hi << 16);
  }
  asm volatile("st.shared.v4.u32 [%0], {%1, %2, %3, %4};\n" ::"r"(dst), "r"(word[0]), "r"(word[1]), "r"(word[2]),
               "r"(word[3])
               : "memory");
}

/// Starts the copies of the step whose K range begins at k0 into the stage at `stage` (a shared
/// address). A: 128 rows × 8 chunks, 4 per thread; B: 4 panels × 64 K-rows × 8 chunks, 8 per thread.
template <typename T, bool kAligned>
__device__ __forceinline__ void load_stage(unsigned stage, const T* __restrict__ a, const T* __restrict__ b, int m,
                                           int n, int k, int block_row, int block_col, int k0) {
  const int tid = static_cast<int>(threadIdx.x);
#pragma unroll
  for (int l = 0; l < kBM * 8 / kThreads; ++l) {
    const int index = tid + l * kThreads, r = index / 8, chunk = index % 8;
    const int row = block_row + r, col = k0 + chunk * kChunk;
    const unsigned dst = stage + swizzled(r, chunk);
    if constexpr (kAligned) {
      const bool inside = row < m && col < k;
      cp_async_16(dst, inside ? a + static_cast<std::int64_t>(row) * k + col : a, inside);
    } else {
      copy_chunk_guarded(dst, row < m ? a + static_cast<std::int64_t>(row) * k : a, row < m, col, k);
    }
  }
#pragma unroll
  for (int l = 0; l < kBK * (kBN / kChunk) / kThreads; ++l) {
    const int index = tid + l * kThreads, chunk = index % 8, kr = (index / 8) % kBK, panel = index / (8 * kBK);
    const int row = k0 + kr, col = block_col + panel * 64 + chunk * kChunk;
    const unsigned dst = stage + kAStageBytes + panel * kBPanelBytes + swizzled(kr, chunk);
    if constexpr (kAligned) {
      const bool inside = row < k && col < n;
      cp_async_16(dst, inside ? b + static_cast<std::int64_t>(row) * n + col : b, inside);
    } else {
      copy_chunk_guarded(dst, row < k ? b + static_cast<std::int64_t>(row) * n : b, row < k, col, n);
    }
  }
}

/// C, or with kPartial the fp32 workspace of split-K slices.
template <typename T, bool kPartial>
using Output = std::conditional_t<kPartial, float, T>;

template <typename T, bool kAligned, bool kPartial>
__global__ void __launch_bounds__(kThreads, 1)
    matmul_wgmma_kernel(const T* __restrict__ a, const T* __restrict__ b, Output<T, kPartial>* __restrict__ c, int m,
                        int n, int k, int steps_per_split) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  extern __shared__ unsigned char smem[];
  const unsigned base = (static_cast<unsigned>(__cvta_generic_to_shared(smem)) + 1023u) & ~1023u;
  auto stage_of = [&](int step) { return base + static_cast<unsigned>((step % kStages) * kStageBytes); };
  if constexpr (kPartial) allow_dependents();  // launch_split_k_reduce's blocks may be placed

  const TileCoord tile = grouped_tile(static_cast<int>(blockIdx.x), ceil_div(m, kBM), ceil_div(n, kBN), 8);
  const int block_row = tile.row * kBM, block_col = tile.col * kBN;
  const int warpgroup = static_cast<int>(threadIdx.x) / 128;

  float acc[128];
#pragma unroll
  for (int i = 0; i < 128; ++i) acc[i] = 0.0f;

  // This block's K steps: first .. first + steps - 1 (all of them unless kPartial).
  int first = 0, steps = ceil_div(k, kBK);
  if constexpr (kPartial) {
    first = static_cast<int>(blockIdx.y) * steps_per_split;
    steps = max(0, min(steps - first, steps_per_split));
    c += static_cast<std::int64_t>(blockIdx.y) * m * n;
  }
#pragma unroll
  for (int s = 0; s < kAhead; ++s) {
    if (s < steps) load_stage<T, kAligned>(stage_of(s), a, b, m, n, k, block_row, block_col, (first + s) * kBK);
    cp_async_commit();
  }
  // A warpgroup whose 64 rows all lie past M (M under 64, or the last tile row's edge) copies and
  // synchronises as the other does but issues no MMAs on the zero-filled rows; its accumulators
  // stay zero and the epilogue stores no row past M.
  const bool rows_inside = block_row + warpgroup * 64 < m;
  for (int step = 0; step < steps; ++step) {
    cp_async_wait<kAhead - 1>();             // this thread's copies of `step` have landed
    wgmma::fence_shared_for_async_proxy();   // and are visible to wgmma's reads
    __syncthreads();                         // everyone's are; the group of step - 2 is done everywhere
    if (step + kAhead < steps) {
      load_stage<T, kAligned>(stage_of(step + kAhead), a, b, m, n, k, block_row, block_col,
                              (first + step + kAhead) * kBK);
    }
    cp_async_commit();
    if (!rows_inside) continue;
    const unsigned a_rows = stage_of(step) + static_cast<unsigned>(warpgroup * 64 * kRowBytes);
    const unsigned b_panels = stage_of(step) + kAStageBytes;
    wgmma::mma_step_k64<T>(acc, a_rows, b_panels);
    wgmma::wait_group<1>();  // step - 1's group is done: its stage may be refilled after the next barrier
  }
  wgmma::wait_group<0>();

  // Accumulator layout of m64nNk16: warp q of the warpgroup holds rows 16q + g and 16q + g + 8
  // (g = lane / 4); acc[4j .. 4j+3] are columns 8j + 2t, 8j + 2t + 1 (t = lane % 4) of those rows.
  const int lane = static_cast<int>(threadIdx.x) % 32, quarter = (static_cast<int>(threadIdx.x) % 128) / 32;
  const int g = lane / 4, t = lane % 4;
  const bool pairs = n % 2 == 0;
#pragma unroll
  for (int j = 0; j < kBN / 8; ++j) {
    const int col = block_col + j * 8 + 2 * t;
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int row = block_row + warpgroup * 64 + quarter * 16 + g + h * 8;
      if (row >= m || col >= n) continue;
      Output<T, kPartial>* out = c + static_cast<std::int64_t>(row) * n + col;
      if constexpr (kPartial) {
        const float lo = acc[4 * j + 2 * h], hi = acc[4 * j + 2 * h + 1];
        if (pairs) {  // col even, n even (and so m·n): an 8-byte aligned pair within the slice
          *reinterpret_cast<float2*>(out) = make_float2(lo, hi);
        } else {
          out[0] = lo;
          if (col + 1 < n) out[1] = hi;
        }
      } else {
        const T lo = from_float<T>(acc[4 * j + 2 * h]), hi = from_float<T>(acc[4 * j + 2 * h + 1]);
        if (pairs) {  // col even, n even: a 4-byte aligned pair (col + 1 < n too)
          const unsigned word = bits_of(lo) | (bits_of(hi) << 16);
          *reinterpret_cast<unsigned*>(out) = word;
        } else {
          out[0] = lo;
          if (col + 1 < n) out[1] = hi;
        }
      }
    }
  }
#else
  __trap();  // built for sm_90a only; launch_wgmma refuses other devices
#endif
}

/// Launches the instantiation for `dims` on a tiles × splits grid; `c` is C, or with kPartial the
/// workspace of `splits` fp32 slices.
template <typename T, bool kPartial>
void launch(const T* a, const T* b, Output<T, kPartial>* c, Dims dims, int splits, cudaStream_t stream) {
  const int tiles = ceil_div(dims.m, kBM) * ceil_div(dims.n, kBN);
  const bool aligned = dims.k % kChunk == 0 && dims.n % kChunk == 0;
  auto kernel = aligned ? matmul_wgmma_kernel<T, true, kPartial> : matmul_wgmma_kernel<T, false, kPartial>;
  static const bool configured = [] {
    KBENCH_CUDA_CALL(cudaFuncSetAttribute(matmul_wgmma_kernel<T, true, kPartial>,
                                          cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemBytes));
    KBENCH_CUDA_CALL(cudaFuncSetAttribute(matmul_wgmma_kernel<T, false, kPartial>,
                                          cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemBytes));
    return true;
  }();
  (void)configured;
  const int steps_per_split = ceil_div(ceil_div(dims.k, kBK), splits);
  kernel<<<dim3(static_cast<unsigned>(tiles), static_cast<unsigned>(splits)), kThreads, kSmemBytes, stream>>>(
      a, b, c, dims.m, dims.n, dims.k, steps_per_split);
  KBENCH_CHECK_LAUNCH();
}

template <typename T>
void launch_partials(const T* a, const T* b, float* partials, Dims dims, int splits, cudaStream_t stream) {
  if (splits < 1 || splits > kMaxSplitK) {
    throw std::invalid_argument("wgmma split-K: splits must be in [1, " + std::to_string(kMaxSplitK) + "], got " +
                                std::to_string(splits));
  }
  launch<T, true>(a, b, partials, dims, splits, stream);
}

}  // namespace

std::string wgmma_unavailable(int cc_major, int cc_minor) {
  if (cc_major == 9 && cc_minor == 0) return {};
  return "wgmma needs compute capability 9.0 (kbench builds this kernel for sm_90a only); this device is " +
         std::to_string(cc_major) + "." + std::to_string(cc_minor);
}

void launch_wgmma(const __half* a, const __half* b, __half* c, Dims dims, cudaStream_t stream) {
  launch<__half, false>(a, b, c, dims, 1, stream);
}

void launch_wgmma(const __nv_bfloat16* a, const __nv_bfloat16* b, __nv_bfloat16* c, Dims dims, cudaStream_t stream) {
  launch<__nv_bfloat16, false>(a, b, c, dims, 1, stream);
}

void launch_wgmma_partials(const __half* a, const __half* b, float* partials, Dims dims, int splits,
                           cudaStream_t stream) {
  launch_partials(a, b, partials, dims, splits, stream);
}

void launch_wgmma_partials(const __nv_bfloat16* a, const __nv_bfloat16* b, float* partials, Dims dims, int splits,
                           cudaStream_t stream) {
  launch_partials(a, b, partials, dims, splits, stream);
}

}  // namespace kbench::matmul
