// TF32 matmul on Hopper's warpgroup MMA, fed by TMA, warp-specialised and persistent; fp32 in,
// fp32 accumulators, fp32 out. Built for sm_90a only, as matmul_wgmma.cu.
//
// Operands. TF32 wgmma (wgmma_tf32.cuh) reads A and B from shared memory K-major only. A (M×K,
// row-major) is; B (K×N, row-major) is not, so the call reads Bᵀ (N×K, row-major), which
// launch_transpose wrote to a workspace just before. Both are loaded by TMA in boxes of 32 K
// (128 bytes: one row of the 128-byte swizzle) × 128 rows of A or 256 rows of Bᵀ; the swizzle puts
// 16-byte chunk c of row r at chunk c ^ (r % 8) of its 1024-byte atom. Descriptors: K-major with
// the 128-byte swizzle, stride byte offset 1024 (one 8-row atom to the next), leading offset unused
// (16); each k8 slice of a step starts 32 bytes further along the rows, for A and Bᵀ alike (the
// 16-bit kernels' A descriptor, with k8 × 4 bytes in place of k16 × 2).
//
// Roles and ring (as matmul_wgmma_tma.cu, whose conventions were verified on the H100): 384
// threads; warpgroup 0 is the producer (setmaxnreg down to 40; one thread issues the TMA loads),
// warpgroups 1 and 2 the consumers (up to 232), consumer w owning rows 64w .. 64w+63 of the
// 128×256 tile, 128 fp32 accumulators per thread, 4 m64n256k8 wgmmas per 32-deep step. 4 stages of
// 48 KB (A 16 KB + Bᵀ 32 KB); a full mbarrier per stage (the producer's expect_tx of 49,152 bytes,
// completed by the TMA) and an empty one (lane 0 of each of the 8 consumer warps, once the stage's
// wgmmas are done). One running step index i over all of a block's work gives stage i % 4 and
// parity (i / 4) & 1 on both sides. Every wait traps after about 4 s (tma.cuh).
//
// Work. A work item is a tile and a range of K: with `splits` > 1, item w is split w / tiles of
// tile w % tiles (the blocks running at once share the split's panels of A and Bᵀ), over
// steps_per_split steps of 32, and writes its fp32 sums to slice `split` of `out` (splits M×N
// slices; launch_split_k_reduce adds them). An empty range writes zeros. With one split `out` is C.
// grid = min(items, SMs), block b taking items b, b + grid, ...; tiles in tile_order.hpp's
// grouped order (8 tile rows).
//
// Shapes. TMA zero-fills boxes outside A and Bᵀ, so edge tiles in M, N and K need no code; it
// needs K a multiple of 4 (16-byte rows of A and Bᵀ) and a 16-byte aligned A (Bᵀ is the
// workspace). N is free: the transpose reads any B. The epilogue stores straight from the
// accumulators with a guard per element, an 8-byte pair per store when N is even.
#include "kernels/matmul/matmul_kernels.hpp"

#include "harness/device/cuda_check.hpp"
#include "kernels/common/launch_attributes.cuh"
#include "kernels/matmul/matmul_device.cuh"
#include "kernels/matmul/tma.cuh"
#include "kernels/matmul/wgmma_tf32.cuh"

#include <algorithm>
#include <cstdint>

namespace kbench::matmul {

namespace {

constexpr int kBM = kWgmmaTf32TileM, kBN = kWgmmaTf32TileN, kBK = kWgmmaTf32StepK;
static_assert(kBM == 128 && kBN == 256 && kBK == 32, "the boxes, descriptors and epilogue are written for 128x256x32");
constexpr int kThreads = 384;           // producer warpgroup + two consumer warpgroups
constexpr int kConsumerWarps = 8;       // arrivals on an empty barrier
constexpr int kProducerRegisters = 40;  // 128 × 40 + 256 × 232 = 64,512 ≤ 384 × 168 (the launch count)
constexpr int kConsumerRegisters = 232;
constexpr int kStages = 4;
constexpr int kRowBytes = 128;                   // one swizzled row: 32 fp32 elements
constexpr int kAStageBytes = kBM * kRowBytes;    // 16 KB
constexpr int kBStageBytes = kBN * kRowBytes;    // 32 KB
constexpr int kStageBytes = kAStageBytes + kBStageBytes;  // what one stage's TMA loads bring
constexpr int kBarrierBytes = 2 * kStages * 8;
constexpr int kSmemBytes = 1024 + kStages * kStageBytes + kBarrierBytes;  // + room to align the base to 1024

/// Stores a consumer warpgroup's 64×256 accumulators inside `out` (M×N). Layout of m64nNk8 with
/// fp32 accumulators: warp q of the warpgroup holds rows 16q + g and 16q + g + 8 (g = lane / 4);
/// acc[4j .. 4j+3] are columns 8j + 2t, 8j + 2t + 1 (t = lane % 4) of those rows.
__device__ __forceinline__ void store_tile(const float (&acc)[128], float* __restrict__ out, int m, int n,
                                           int first_row, int first_col, int thread_in_group) {
  const int lane = thread_in_group % 32, quarter = thread_in_group / 32;
  const int g = lane / 4, t = lane % 4;
  const bool pairs = n % 2 == 0;  // then col (even) and every row start are 8-byte aligned
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    const int row = first_row + quarter * 16 + g + h * 8;
    if (row >= m) continue;
    float* out_row = out + static_cast<std::int64_t>(row) * n;
#pragma unroll
    for (int j = 0; j < kBN / 8; ++j) {
      const int col = first_col + j * 8 + 2 * t;
      if (col >= n) continue;
      const float lo = acc[4 * j + 2 * h], hi = acc[4 * j + 2 * h + 1];
      if (pairs) {
        *reinterpret_cast<float2*>(out_row + col) = make_float2(lo, hi);
      } else {
        out_row[col] = lo;
        if (col + 1 < n) out_row[col + 1] = hi;
      }
    }
  }
}

/// The K steps of work item `item`: first .. first + count - 1, and its tile and output slice.
struct WorkItem {
  int block_row;
  int block_col;
  int first;
  int count;
  int split;
};

__device__ __forceinline__ WorkItem work_item(int item, int tiles_m, int tiles_n, int steps, int steps_per_split) {
  const int tiles = tiles_m * tiles_n;
  const int split = item / tiles;
  const TileCoord coord = grouped_tile(item - split * tiles, tiles_m, tiles_n, 8);
  const int first = split * steps_per_split;
  return {coord.row * kBM, coord.col * kBN, first, max(0, min(steps - first, steps_per_split)), split};
}

__global__ void __launch_bounds__(kThreads, 1)
    matmul_wgmma_tf32_kernel(const __grid_constant__ CUtensorMap a_map, const __grid_constant__ CUtensorMap bt_map,
                             float* __restrict__ out, int m, int n, int k, int splits, int steps_per_split) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  if (splits > 1) allow_dependents();  // launch_split_k_reduce's blocks may be placed
  extern __shared__ unsigned char smem[];
  const unsigned base = (static_cast<unsigned>(__cvta_generic_to_shared(smem)) + 1023u) & ~1023u;
  const unsigned full_bars = base + kStages * kStageBytes, empty_bars = full_bars + kStages * 8;
  auto stage_of = [&](unsigned i) { return base + (i % kStages) * static_cast<unsigned>(kStageBytes); };
  auto full_of = [&](unsigned i) { return full_bars + (i % kStages) * 8u; };
  auto empty_of = [&](unsigned i) { return empty_bars + (i % kStages) * 8u; };

  const int warpgroup = static_cast<int>(threadIdx.x) / 128;
  if (threadIdx.x == 0) {
    for (int s = 0; s < kStages; ++s) {
      tma::mbarrier_init(full_bars + 8 * s, 1);
      tma::mbarrier_init(empty_bars + 8 * s, kConsumerWarps);
    }
    tma::fence_mbarrier_init();
  }
  __syncthreads();  // the only block-wide barrier: the roles never meet again

  const int tiles_m = ceil_div(m, kBM), tiles_n = ceil_div(n, kBN);
  const int items = tiles_m * tiles_n * splits;
  const int steps = ceil_div(k, kBK);

  if (warpgroup == 0) {
    tma::release_registers<kProducerRegisters>();
    if (threadIdx.x != 0) return;
    tma::prefetch_map(&a_map);
    tma::prefetch_map(&bt_map);
    unsigned i = 0;  // steps issued over all of this block's items
    for (int item = static_cast<int>(blockIdx.x); item < items; item += static_cast<int>(gridDim.x)) {
      const WorkItem w = work_item(item, tiles_m, tiles_n, steps, steps_per_split);
      for (int step = w.first; step < w.first + w.count; ++step, ++i) {
        tma::wait<true>(empty_of(i), ((i / kStages) & 1u) ^ 1u, "empty", static_cast<int>(i % kStages));
        const unsigned stage = stage_of(i), full = full_of(i);
        tma::arrive_expect_tx(full, kStageBytes);
        tma::load_2d(stage, &a_map, full, step * kBK, w.block_row);
        tma::load_2d(stage + kAStageBytes, &bt_map, full, step * kBK, w.block_col);
      }
    }
    return;
  }

  tma::claim_registers<kConsumerRegisters>();
  const int consumer = warpgroup - 1, thread_in_group = static_cast<int>(threadIdx.x) % 128;
  const bool releases = threadIdx.x % 32 == 0;  // lane 0 of each consumer warp arrives on empty barriers
  float acc[128];
  unsigned i = 0;  // steps consumed over all of this block's items
  for (int item = static_cast<int>(blockIdx.x); item < items; item += static_cast<int>(gridDim.x)) {
    const WorkItem w = work_item(item, tiles_m, tiles_n, steps, steps_per_split);
#pragma unroll
    for (int e = 0; e < 128; ++e) acc[e] = 0.0f;
    wgmma::fence_operands(acc);
    for (int s = 0; s < w.count; ++s, ++i) {
      tma::wait<false>(full_of(i), (i / kStages) & 1u, "full", static_cast<int>(i % kStages));
      const unsigned a_rows = stage_of(i) + static_cast<unsigned>(consumer * 64 * kRowBytes);
      const unsigned bt_rows = stage_of(i) + kAStageBytes;
      wgmma::fence();
#pragma unroll
      for (int slice = 0; slice < kBK / 8; ++slice) {
        const std::uint64_t a_desc = wgmma::descriptor(a_rows + slice * 32, 16, 8 * kRowBytes);
        const std::uint64_t b_desc = wgmma::descriptor(bt_rows + slice * 32, 16, 8 * kRowBytes);
        wgmma::wgmma_m64n256k8_tf32(acc, a_desc, b_desc);
      }
      wgmma::commit_group();
      wgmma::wait_group<1>();  // the previous step's group is done: its stage may be refilled
      if (s > 0 && releases) tma::arrive(empty_of(i - 1));
    }
    wgmma::wait_group<0>();
    wgmma::fence_operands(acc);  // the epilogue reads them after the wait
    if (w.count > 0 && releases) tma::arrive(empty_of(i - 1));
    float* slice_out = out + static_cast<std::int64_t>(w.split) * m * n;
    store_tile(acc, slice_out, m, n, w.block_row + consumer * 64, w.block_col, thread_in_group);
  }
#else
  __trap();  // built for sm_90a only; the variant refuses other devices (wgmma_unavailable)
#endif
}

}  // namespace

void launch_wgmma_tf32(const WgmmaTf32Operands& operands, float* out, Dims dims, int splits, cudaStream_t stream) {
  check_split_count("launch_wgmma_tf32", splits);
  static const bool configured = [] {
    KBENCH_CUDA_CALL(
        cudaFuncSetAttribute(matmul_wgmma_tf32_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemBytes));
    return true;
  }();
  (void)configured;
  const int items = ceil_div(dims.m, kBM) * ceil_div(dims.n, kBN) * splits;
  const int blocks = std::max(1, std::min(items, launch_sm_count()));
  const int steps_per_split = ceil_div(ceil_div(dims.k, kBK), splits);
  matmul_wgmma_tf32_kernel<<<static_cast<unsigned>(blocks), kThreads, kSmemBytes, stream>>>(
      operands.a, operands.bt, out, dims.m, dims.n, dims.k, splits, steps_per_split);
  KBENCH_CHECK_LAUNCH();
}

}  // namespace kbench::matmul
