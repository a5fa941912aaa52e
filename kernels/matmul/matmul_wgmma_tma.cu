// Tensor-core matmul with Hopper's warpgroup MMA, fed by TMA, warp-specialised and persistent;
// fp16 and bf16, fp32 accumulators. Built for sm_90a only, as matmul_wgmma.cu (whose tile, swizzle
// and descriptors it shares: see that file's header).
//
// Roles. A block of 384 threads is three warpgroups. Warpgroup 0 is the producer: it gives up
// registers (setmaxnreg down to 40) and one of its threads issues every TMA load. Warpgroups 1 and
// 2 are consumers (setmaxnreg up to 232): consumer w owns rows 64w .. 64w+63 of the 128×256 tile,
// 128 fp32 accumulators per thread, and issues 4 m64n256k16 wgmmas per 64-deep K step.
//
// Ring. 4 stages of 48 KB: A as one 128-row × 64-K box (TMA box {64, 128}), B as 4 panels of 64
// K-rows × 64 N (boxes {64, 64}), each written by TMA with the 128-byte swizzle, which places
// 16-byte chunk c of row r at chunk c ^ (r % 8): the layout matmul_wgmma.cu builds with cp.async
// and its descriptors read. Stage s has a full barrier (1 arrival, the producer's expect_tx of
// the stage's 49,152 bytes, which the TMA loads complete) and an empty barrier (8 arrivals: lane
// 0 of each consumer warp, once its warpgroup's wgmmas on the stage are done). Both sides count
// steps with one running index i over all their tiles: stage i % 4, round i / 4. Consumers wait
// for full[s] to complete the phase of parity round & 1; the producer waits for empty[s]'s
// phase of parity (round & 1) ^ 1, which a fresh barrier passes at once (the first 4 fills).
//
// Consumer step: wait full[s], issue the step's 4 wgmmas as one group, wait until only that group
// runs (the previous step's group has finished), then release the previous step's stage. After a
// tile's last step every group is waited for and its stage released; the epilogue rounds the
// accumulators and stores them with a guard per element (two elements per store) while the
// producer already fills the ring with the next tile's steps.
//
// Schedule. grid = min(tiles, SMs), one block per SM (197 KB of shared memory); block b takes tiles
// b, b + grid, ... in matmul_device.cuh's grouped order (8 tile rows per group), so the blocks
// that run at once share panels of A and B in L2.
//
// Shapes. TMA zero-fills the parts of a box outside the matrices (and still counts their bytes),
// so edge tiles in M, N and K need no code here. It needs 16-byte aligned operands and row strides
// that are multiples of 16 bytes: K and N multiples of 8 (wgmma_tma_unsupported says so; the
// variant and auto route other shapes elsewhere).
#include "kernels/matmul/matmul_kernels.hpp"

#include "harness/device/cuda_check.hpp"
#include "kernels/matmul/matmul_device.cuh"
#include "kernels/matmul/tma.cuh"
#include "kernels/matmul/wgmma.cuh"

#include <algorithm>
#include <cstdint>
#include <stdexcept>

namespace kbench::matmul {

namespace {

constexpr int kBM = kWgmmaTileM, kBN = kWgmmaTileN, kBK = kWgmmaStepK;
static_assert(kBM == 128 && kBN == 256 && kBK == 64, "the boxes, descriptors and epilogue are written for 128x256x64");
constexpr int kThreads = 384;             // producer warpgroup + two consumer warpgroups
constexpr int kConsumerWarps = 8;         // arrivals on an empty barrier
constexpr int kProducerRegisters = 40;    // 128 × 40 + 256 × 232 = 64,512 ≤ 384 × 168 (the launch count)
constexpr int kConsumerRegisters = 232;
constexpr int kStages = 4;
constexpr int kRowBytes = 128;                           // one swizzled row: 64 16-bit elements
constexpr int kAStageBytes = kBM * kRowBytes;            // 16 KB
constexpr int kBPanelBytes = kBK * kRowBytes;            // 8 KB: 64 K-rows of one 64-wide N panel
constexpr int kBStageBytes = (kBN / 64) * kBPanelBytes;  // 32 KB
constexpr int kStageBytes = kAStageBytes + kBStageBytes;  // what one stage's TMA loads bring
constexpr int kBarrierBytes = 2 * kStages * 8;
constexpr int kSmemBytes = 1024 + kStages * kStageBytes + kBarrierBytes;  // + room to align the base to 1024

__device__ __forceinline__ unsigned bits_of(__half x) { return __half_as_ushort(x); }
__device__ __forceinline__ unsigned bits_of(__nv_bfloat16 x) { return __bfloat16_as_ushort(x); }

/// Rounds a consumer warpgroup's 64×256 accumulators to T and stores those inside C. Layout of
/// m64nNk16: warp q of the warpgroup holds rows 16q + g and 16q + g + 8 (g = lane / 4); acc[4j ..
/// 4j+3] are columns 8j + 2t, 8j + 2t + 1 (t = lane % 4) of those rows. N is even here (a multiple
/// of 8), so a pair never straddles the last column and is 4-byte aligned.
template <typename T>
__device__ __forceinline__ void store_tile(const float (&acc)[128], T* __restrict__ c, int m, int n, int first_row,
                                           int first_col, int thread_in_group) {
  const int lane = thread_in_group % 32, quarter = thread_in_group / 32;
  const int g = lane / 4, t = lane % 4;
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    const int row = first_row + quarter * 16 + g + h * 8;
    if (row >= m) continue;
    T* out = c + static_cast<std::int64_t>(row) * n;
#pragma unroll
    for (int j = 0; j < kBN / 8; ++j) {
      const int col = first_col + j * 8 + 2 * t;
      if (col >= n) continue;
      const unsigned word =
          bits_of(from_float<T>(acc[4 * j + 2 * h])) | (bits_of(from_float<T>(acc[4 * j + 2 * h + 1])) << 16);
      *reinterpret_cast<unsigned*>(out + col) = word;
    }
  }
}

template <typename T>
__global__ void __launch_bounds__(kThreads, 1)
    matmul_wgmma_tma_kernel(const __grid_constant__ CUtensorMap a_map, const __grid_constant__ CUtensorMap b_map,
                            T* __restrict__ c, int m, int n, int k) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
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

  const int tiles_m = ceil_div(m, kBM), tiles_n = ceil_div(n, kBN), tiles = tiles_m * tiles_n;
  const int steps = ceil_div(k, kBK);

  if (warpgroup == 0) {
    tma::release_registers<kProducerRegisters>();
    if (threadIdx.x != 0) return;
    tma::prefetch_map(&a_map);
    tma::prefetch_map(&b_map);
    unsigned i = 0;  // steps issued over all of this block's tiles
    for (int tile = static_cast<int>(blockIdx.x); tile < tiles; tile += static_cast<int>(gridDim.x)) {
      const TileCoord coord = grouped_tile(tile, tiles_m, tiles_n, 8);
      const int block_row = coord.row * kBM, block_col = coord.col * kBN;
      for (int step = 0; step < steps; ++step, ++i) {
        tma::wait<true>(empty_of(i), ((i / kStages) & 1u) ^ 1u, "empty", static_cast<int>(i % kStages));
        const unsigned stage = stage_of(i), full = full_of(i);
        tma::arrive_expect_tx(full, kStageBytes);
        tma::load_2d(stage, &a_map, full, step * kBK, block_row);
#pragma unroll
        for (int panel = 0; panel < kBN / 64; ++panel) {
          tma::load_2d(stage + kAStageBytes + panel * kBPanelBytes, &b_map, full, block_col + panel * 64, step * kBK);
        }
      }
    }
    return;
  }

  tma::claim_registers<kConsumerRegisters>();
  const int consumer = warpgroup - 1, thread_in_group = static_cast<int>(threadIdx.x) % 128;
  const bool releases = threadIdx.x % 32 == 0;  // lane 0 of each consumer warp arrives on empty barriers
  float acc[128];
  unsigned i = 0;  // steps consumed over all of this block's tiles
  for (int tile = static_cast<int>(blockIdx.x); tile < tiles; tile += static_cast<int>(gridDim.x)) {
    const TileCoord coord = grouped_tile(tile, tiles_m, tiles_n, 8);
#pragma unroll
    for (int e = 0; e < 128; ++e) acc[e] = 0.0f;
    wgmma::fence_operands(acc);
    for (int step = 0; step < steps; ++step, ++i) {
      tma::wait<false>(full_of(i), (i / kStages) & 1u, "full", static_cast<int>(i % kStages));
      const unsigned a_rows = stage_of(i) + static_cast<unsigned>(consumer * 64 * kRowBytes);
      const unsigned b_panels = stage_of(i) + kAStageBytes;
      wgmma::fence();
#pragma unroll
      for (int slice = 0; slice < kBK / 16; ++slice) {
        const std::uint64_t a_desc = wgmma::descriptor(a_rows + slice * 32, 16, 8 * kRowBytes);
        const std::uint64_t b_desc = wgmma::descriptor(b_panels + slice * 16 * kRowBytes, kBPanelBytes, 8 * kRowBytes);
        wgmma::wgmma_m64n256k16(acc, a_desc, b_desc, T{});
      }
      wgmma::commit_group();
      wgmma::wait_group<1>();  // the previous step's group is done: its stage may be refilled
      if (step > 0 && releases) tma::arrive(empty_of(i - 1));
    }
    wgmma::wait_group<0>();
    wgmma::fence_operands(acc);  // the epilogue reads them after the wait
    if (releases) tma::arrive(empty_of(i - 1));
    store_tile(acc, c, m, n, coord.row * kBM + consumer * 64, coord.col * kBN, thread_in_group);
  }
#else
  __trap();  // built for sm_90a only; the variant refuses other devices (wgmma_unavailable)
#endif
}

}  // namespace

template <typename T>
void launch_wgmma_tma(const WgmmaTmaOperands<T>& operands, T* c, Dims dims, cudaStream_t stream) {
  static const bool configured = [] {
    KBENCH_CUDA_CALL(
        cudaFuncSetAttribute(matmul_wgmma_tma_kernel<T>, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemBytes));
    return true;
  }();
  (void)configured;
  const int tiles = ceil_div(dims.m, kBM) * ceil_div(dims.n, kBN);
  const int blocks = std::max(1, std::min(tiles, launch_sm_count()));
  matmul_wgmma_tma_kernel<T><<<static_cast<unsigned>(blocks), kThreads, kSmemBytes, stream>>>(
      operands.a, operands.b, c, dims.m, dims.n, dims.k);
  KBENCH_CHECK_LAUNCH();
}

template void launch_wgmma_tma(const WgmmaTmaOperands<__half>&, __half*, Dims, cudaStream_t);
template void launch_wgmma_tma(const WgmmaTmaOperands<__nv_bfloat16>&, __nv_bfloat16*, Dims, cudaStream_t);

}  // namespace kbench::matmul
