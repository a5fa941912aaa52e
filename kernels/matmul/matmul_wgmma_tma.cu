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
// the stage's bytes: A's box and the tile's live panels of B, which the TMA loads complete) and an empty barrier (8 arrivals: lane
// 0 of each consumer warp, once its warpgroup's wgmmas on the stage are done, or as soon as the
// stage has landed for a warpgroup whose rows all lie past M, which issues no MMAs). Both sides count
// steps with one running index i over all their tiles: stage i % 4, round i / 4. Consumers wait
// for full[s] to complete the phase of parity round & 1; the producer waits for empty[s]'s
// phase of parity (round & 1) ^ 1, which a fresh barrier passes at once (the first 4 fills).
//
// Consumer step: wait full[s], issue the step's 4 wgmmas as one group, wait until only that group
// runs (the previous step's group has finished), then release the previous step's stage. After a
// tile's last step every group is waited for and its stage released; the epilogue rounds the
// accumulators (split-K: stores them unrounded, fp32) and stores them with a guard per element (two elements per store) while the
// producer already fills the ring with the next tile's steps.
//
// Staged epilogue (launch_wgmma_tma_staged). Each consumer warpgroup rounds its 64 rows into
// 64×64 panels of shared memory (two buffers of 8 KB per warpgroup, laid out with the 128-byte
// swizzle, so a warp's 4-byte writes of 8 rows hit 32 distinct banks) and one of its threads
// writes each panel to C with a TMA store, which clips the parts outside C; the warpgroup syncs
// alone (named barrier 1 + consumer) before and after filling a buffer, and before refilling one
// waits until the newest store from it has read it (bulk wait_group.read 1, or 0 when that store
// is the newest of all: a panel wholly outside C is not stored and commits no group). The consumers then go straight to the next tile's MMAs while the stores drain: with
// short K (8 steps a tile) the register epilogue's 64 stores per thread, each spread over 8 rows,
// cost about as much as a third of a tile's MMAs. 128×128 tiles (TmaTile::n128): B is 2 panels,
// each consumer issues m64n128k16 (64 accumulators), the ring has 6 stages of 32 KB. 128×192 tiles
// (TmaTile::n192): 3 panels, m64n192k16 (96 accumulators), 4 stages of 40 KB; with an odd panel
// count a tile's first panel alternates buffers between tiles, which the wait rule above covers
// (a buffer is refilled only after every store but the newest has read its source, and the newest
// is never from that buffer unless waited for).
//
// Schedule. grid = min(tiles, SMs) (split-K: min(units, SMs)), one block per SM (197 KB of shared
// memory; 225 KB staged, 193 KB at 192 wide); block b takes tiles b, b + grid, ... in
// tile_order.hpp's grouped order (8 tile rows per group), so the blocks that run at once share
// panels of A and B in L2; or, where the launcher's replay says the busiest block gains
// (matmul_tile_schedule.hpp), the interior tiles in that order and the edge tiles after them, so that the
// blocks running a second unit run a cheap one.
//
// Stream-K (launch_wgmma_tma_stream_k, matmul_stream_k.hpp). Blocks walk units (a tile's steps
// first .. last) instead of whole tiles: their whole tiles as above, then an even range of the last
// tiles' steps. Producer and consumers walk the same units, so the ring's running index is
// unchanged. A consumer warpgroup whose unit starts past a tile's first step saves its accumulators
// to the block's slot and raises its flag; one whose unit starts at the first step but ends early
// adds the following blocks' parts (waiting on their flags) before the epilogue.
//
// Split-K (launch_wgmma_tma_partials). Blocks walk tiles × splits units split-major (stream_k.cuh's
// SplitKWalk), every unit a tile's run of steps; the register epilogue writes the unrounded fp32
// sums to the split's slice, an empty unit (a split past K) zeros; the caller's
// launch_split_k_reduce adds the slices.
//
// Shapes. TMA zero-fills the parts of a box outside the matrices (and still counts their bytes),
// so edge tiles in M, N and K need no code for correctness. For speed, a tile past N loads and
// multiplies only its live 64-wide panels of B (live_panels; m64n64/128/192 MMAs on the first
// accumulators), and a warpgroup whose rows all lie past M issues no MMAs. It needs 16-byte aligned operands and row strides
// that are multiples of 16 bytes: K and N multiples of 8 (wgmma_tma_unsupported says so; the
// variant and auto route other shapes elsewhere).
#include "kernels/matmul/matmul_kernels.hpp"

#include "harness/device/cuda_check.hpp"
#include "kernels/common/launch_attributes.cuh"
#include "kernels/matmul/matmul_device.cuh"
#include "kernels/matmul/matmul_stream_k.hpp"
#include "kernels/matmul/stream_k.cuh"
#include "kernels/matmul/tma.cuh"
#include "kernels/matmul/wgmma.cuh"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace kbench::matmul {

namespace {

constexpr int kBM = kWgmmaTileM, kBK = kWgmmaStepK;
static_assert(kBM == 128 && kBK == 64, "the boxes, descriptors and epilogue are written for 128-row tiles of 64-deep steps");
constexpr int kThreads = 384;             // producer warpgroup + two consumer warpgroups
constexpr int kConsumerWarps = 8;         // arrivals on an empty barrier
constexpr int kProducerRegisters = 40;    // 128 × 40 + 256 × 232 = 64,512 ≤ 384 × 168 (the launch count)
constexpr int kConsumerRegisters = 232;
constexpr int kRowBytes = static_cast<int>(wgmma::kSwizzleRowBytes);    // one swizzled row: 64 16-bit elements
constexpr int kAStageBytes = kBM * kRowBytes;                          // 16 KB
constexpr int kBPanelBytes = static_cast<int>(wgmma::kBPanelBytes);    // 8 KB: 64 K-rows of one 64-wide N panel
static_assert(kBPanelBytes == kBK * kRowBytes, "a B panel is one step deep");

/// What a launch's blocks walk: whole tiles, stream-K's units (whole tiles, then parts handed
/// between blocks), split-K's (each a split of a tile's steps, written to the split's slice) or
/// the tail split's (whole rounds of tiles, then the last round's tiles split, their parts written
/// to a compact buffer that launch_tile_parts_reduce adds).
enum class Schedule { whole, stream_k, split_k, tail_split };

/// One instantiation's tile, ring and shared-memory plan. kStaged: the epilogue goes through
/// shared memory and TMA stores (else straight from the accumulators).
template <int BN, bool kStaged>
struct Plan {
  static constexpr int kPanels = BN / 64;                   // B panels per stage, C panels per consumer row band
  static constexpr int kAccumulators = BN / 2;              // per consumer thread: 64 rows × BN / 128 threads
  static constexpr int kStages = BN == 128 ? 6 : 4;         // 192 KB of ring (160 KB at 192 wide: 5 stages and
                                                            // the staging buffers would pass 227 KB)
  static constexpr int kStageBytes = kAStageBytes + kPanels * kBPanelBytes;  // a stage's room: what a whole tile's loads bring
  static constexpr int kCPanelBytes = 64 * kRowBytes;       // 64 rows × 64 columns of C, swizzled
  static constexpr int kStagingBytes = kStaged ? 2 * 2 * kCPanelBytes : 0;  // 2 consumers × 2 buffers
  static constexpr int kBarrierBytes = 2 * kStages * 8;
  static constexpr int kSmemBytes = 1024 + kStages * kStageBytes + kStagingBytes + kBarrierBytes;  // + alignment room
  static_assert(kSmemBytes <= 232448, "over the 227 KB a block may opt in to");
};

__device__ __forceinline__ unsigned bits_of(__half x) { return __half_as_ushort(x); }
__device__ __forceinline__ unsigned bits_of(__nv_bfloat16 x) { return __bfloat16_as_ushort(x); }

/// The 4-byte pair of T that accumulators acc[e], acc[e + 1] round to.
template <typename T, int N>
__device__ __forceinline__ unsigned rounded_pair(const float (&acc)[N], int e) {
  return bits_of(from_float<T>(acc[e])) | (bits_of(from_float<T>(acc[e + 1])) << 16);
}

/// Stores accumulators acc[e], acc[e + 1] at `out`: rounded to a 4-byte pair of T, or (T = float,
/// a split's slice) as they are, 8 bytes.
template <typename T, int N>
__device__ __forceinline__ void store_pair(T* out, const float (&acc)[N], int e) {
  if constexpr (std::is_same_v<T, float>) {
    *reinterpret_cast<float2*>(out) = make_float2(acc[e], acc[e + 1]);
  } else {
    *reinterpret_cast<unsigned*>(out) = rounded_pair<T>(acc, e);
  }
}

/// Stores a consumer warpgroup's 64×BN accumulators inside C (T: C's type, rounded; or float, a
/// split's slice). Layout of m64nNk16: warp q of the warpgroup holds rows 16q + g and 16q + g + 8 (g = lane / 4); acc[4j ..
/// 4j+3] are columns 8j + 2t, 8j + 2t + 1 (t = lane % 4) of those rows. N is even here (a multiple
/// of 8), so a pair never straddles the last column and is aligned.
template <typename T, int BN>
__device__ __forceinline__ void store_tile(const float (&acc)[BN / 2], T* __restrict__ c, int m, int n, int first_row,
                                           int first_col, int thread_in_group) {
  const int lane = thread_in_group % 32, quarter = thread_in_group / 32;
  const int g = lane / 4, t = lane % 4;
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    const int row = first_row + quarter * 16 + g + h * 8;
    if (row >= m) continue;
    T* out = c + static_cast<std::int64_t>(row) * n;
#pragma unroll
    for (int j = 0; j < BN / 8; ++j) {
      const int col = first_col + j * 8 + 2 * t;
      if (col >= n) continue;
      store_pair<T>(out + col, acc, 4 * j + 2 * h);
    }
  }
}

/// The staged epilogue of one consumer warpgroup (the file header describes it): its 64×BN
/// accumulators, rows first_row.., columns first_col.. of C, through the two 8 KB buffers at
/// `staging` to TMA stores through `c_map`. `last_stored`: the buffer (0, 1) of the issuing
/// thread's newest store, -1 before the first; kept across tiles.
template <typename T, int BN>
__device__ __forceinline__ void store_tile_staged(const float (&acc)[BN / 2], const CUtensorMap* c_map,
                                                  unsigned staging, int m, int n, int first_row, int first_col,
                                                  int consumer, int thread_in_group, int& last_stored) {
  constexpr int kCPanelBytes = 64 * kRowBytes;
  const int lane = thread_in_group % 32, quarter = thread_in_group / 32;
  const int g = lane / 4, t = lane % 4;
  const bool issues = thread_in_group == 0;
  const unsigned barrier = 1u + static_cast<unsigned>(consumer);
#pragma unroll
  for (int panel = 0; panel < BN / 64; ++panel) {
    const unsigned buffer = staging + static_cast<unsigned>((panel % 2) * kCPanelBytes);
    if (issues) {  // the newest store from this buffer has read it: it is the newest of all, or the one before
      if (last_stored == panel % 2) {
        tma::bulk_wait_group_read<0>();
      } else {
        tma::bulk_wait_group_read<1>();
      }
    }
    tma::named_barrier(barrier, 128);
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int r = quarter * 16 + g + h * 8;  // r % 8 == g
#pragma unroll
      for (int chunk = 0; chunk < 8; ++chunk) {
        const int j = panel * 8 + chunk;
        const unsigned dst = buffer + static_cast<unsigned>(r * kRowBytes + ((chunk ^ g) * 16) + 4 * t);
        asm volatile("st.shared.u32 [%0], %1;\n" ::"r"(dst), "r"(rounded_pair<T>(acc, 4 * j + 2 * h)) : "memory");
      }
    }
    wgmma::fence_shared_for_async_proxy();  // the writes, visible to the TMA unit's reads
    tma::named_barrier(barrier, 128);
    const int x = first_col + panel * 64;
    if (issues && first_row < m && x < n) {  // a panel wholly outside C is not stored
      tma::store_2d(c_map, buffer, x, first_row);
      tma::bulk_commit_group();
      last_stored = panel % 2;
    }
  }
}

template <typename T, int BN, bool kStaged, Schedule S>
__global__ void __launch_bounds__(kThreads, 1)
    matmul_wgmma_tma_kernel(const __grid_constant__ CUtensorMap a_map, const __grid_constant__ CUtensorMap b_map,
                            const __grid_constant__ CUtensorMap c_map, T* __restrict__ c, int m, int n, int k,
                            const stream_k::Work work) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  using P = Plan<BN, kStaged>;
  if constexpr (S == Schedule::split_k || S == Schedule::tail_split) {
    allow_dependents();  // the reduction's blocks may be placed
  }
  using Walk = std::conditional_t<
      S == Schedule::split_k, stream_k::SplitKWalk,
      std::conditional_t<S == Schedule::tail_split, stream_k::TailSplitWalk, stream_k::Walk<S == Schedule::stream_k>>>;
  constexpr int kStages = P::kStages, kStageBytes = P::kStageBytes;
  extern __shared__ unsigned char smem[];
  const unsigned base = (static_cast<unsigned>(__cvta_generic_to_shared(smem)) + 1023u) & ~1023u;
  const unsigned staging = base + kStages * kStageBytes;  // 1024-aligned: stages are whole KB
  const unsigned full_bars = staging + P::kStagingBytes, empty_bars = full_bars + kStages * 8;
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

  const int tiles_m = ceil_div(m, kBM), tiles_n = ceil_div(n, BN);
  const int steps = ceil_div(k, kBK);

  if (warpgroup == 0) {
    tma::release_registers<kProducerRegisters>();
    if (threadIdx.x != 0) return;
    tma::prefetch_map(&a_map);
    tma::prefetch_map(&b_map);
    unsigned i = 0;  // steps issued over all of this block's tiles
    Walk walk(work, steps);
    stream_k::Unit unit;
    while (walk.next(unit)) {
      const TileCoord coord = ordered_tile(unit.tile, tiles_m, tiles_n, work.order);
      const int block_row = coord.row * kBM, block_col = coord.col * BN;
      const int panels = live_panels(n, coord.col, BN);  // an edge tile's panels past N are not read
      for (int step = unit.first; step < unit.last; ++step, ++i) {
        tma::wait<true>(empty_of(i), ((i / kStages) & 1u) ^ 1u, "empty", static_cast<int>(i % kStages));
        const unsigned stage = stage_of(i), full = full_of(i);
        tma::arrive_expect_tx(full, kAStageBytes + panels * kBPanelBytes);
        tma::load_2d(stage, &a_map, full, step * kBK, block_row);
#pragma unroll
        for (int panel = 0; panel < P::kPanels; ++panel) {
          if (panel >= panels) break;
          tma::load_2d(stage + kAStageBytes + panel * kBPanelBytes, &b_map, full, block_col + panel * 64, step * kBK);
        }
      }
    }
    return;
  }

  tma::claim_registers<kConsumerRegisters>();
  const int consumer = warpgroup - 1, thread_in_group = static_cast<int>(threadIdx.x) % 128;
  const bool releases = threadIdx.x % 32 == 0;  // lane 0 of each consumer warp arrives on empty barriers
  if constexpr (kStaged) {
    if (thread_in_group == 0) tma::prefetch_map(&c_map);
  }
  float acc[P::kAccumulators];
  int last_stored = -1;  // the staged epilogue's newest store's buffer (its issuing thread's)
  unsigned i = 0;  // steps consumed over all of this block's tiles
  Walk walk(work, steps);
  stream_k::Unit unit;
  while (walk.next(unit)) {
    const TileCoord coord = ordered_tile(unit.tile, tiles_m, tiles_n, work.order);
    const int panels = live_panels(n, coord.col, BN);
#pragma unroll
    for (int e = 0; e < P::kAccumulators; ++e) acc[e] = 0.0f;
    wgmma::fence_operands(acc);
    // A warpgroup whose 64 rows all lie past M (M under 64, or the last tile row's edge) issues no
    // MMAs on TMA's zero fill: it releases each stage as soon as it has landed, and its
    // accumulators stay zero for the epilogue, which stores no row past M.
    const bool rows_inside = coord.row * kBM + consumer * 64 < m;
    for (int step = unit.first; step < unit.last; ++step, ++i) {
      tma::wait<false>(full_of(i), (i / kStages) & 1u, "full", static_cast<int>(i % kStages));
      if (!rows_inside) {
        if (releases) tma::arrive(empty_of(i));
        continue;
      }
      const unsigned a_rows = stage_of(i) + static_cast<unsigned>(consumer * 64 * kRowBytes);
      wgmma::mma_step_k64_live<T>(acc, panels, a_rows, stage_of(i) + kAStageBytes);
      wgmma::wait_group<1>();  // the previous step's group is done: its stage may be refilled
      if (step > unit.first && releases) tma::arrive(empty_of(i - 1));
    }
    wgmma::wait_group<0>();
    wgmma::fence_operands(acc);  // the epilogue reads them after the wait
    if (rows_inside && unit.last > unit.first && releases) tma::arrive(empty_of(i - 1));
    const int first_row = coord.row * kBM + consumer * 64, first_col = coord.col * BN;
    if constexpr (S == Schedule::split_k) {
      float* slice = work.partials + static_cast<std::int64_t>(walk.split_of(unit)) * m * n;
      store_tile<float, BN>(acc, slice, m, n, first_row, first_col, thread_in_group);
      continue;
    }
    if constexpr (S == Schedule::tail_split) {
      if (unit.tile >= work.whole_tiles) {  // a tail tile's split: its 128×BN fp32 part, rows BN apart
        const std::int64_t part = static_cast<std::int64_t>(walk.split_of(unit)) * work.tail_tiles +
                                  (unit.tile - work.whole_tiles);
        store_tile<float, BN>(acc, work.partials + part * (kBM * BN), kBM, BN, consumer * 64, 0, thread_in_group);
        continue;
      }
    }
    if constexpr (S == Schedule::stream_k) {
      if (unit.first > 0) {  // a later part of a tile that an earlier block finishes
        stream_k::save_part(acc, work, consumer, thread_in_group);
        continue;
      }
      if (unit.last < steps) {
        stream_k::add_parts(acc, work, unit.tile - work.whole_tiles, steps, consumer, thread_in_group);
      }
    }
    if constexpr (kStaged) {
      store_tile_staged<T, BN>(acc, &c_map, staging + static_cast<unsigned>(consumer * 2 * P::kCPanelBytes), m, n,
                               first_row, first_col, consumer, thread_in_group, last_stored);
    } else {
      store_tile<T, BN>(acc, c, m, n, first_row, first_col, thread_in_group);
    }
  }
  if constexpr (kStaged) {
    if (thread_in_group == 0) tma::bulk_wait_all();  // the staging buffers live as long as the block
  }
#else
  __trap();  // built for sm_90a only; the variant refuses other devices (wgmma_unavailable)
#endif
}

/// Launches the instantiation on `blocks` blocks (stream-K's parts and flags compile only into its
/// own, so the whole-tile kernels keep their registers; its launch is cooperative); `c_map` is read
/// only by the staged ones.
template <typename T, int BN, bool kStaged, Schedule S = Schedule::whole>
void launch(const WgmmaTmaOperands<T>& loads, const CUtensorMap& c_map, T* c, Dims dims, int blocks,
            const stream_k::Work& work, cudaStream_t stream) {
  using P = Plan<BN, kStaged>;
  static const bool configured = [] {
    KBENCH_CUDA_CALL(cudaFuncSetAttribute(matmul_wgmma_tma_kernel<T, BN, kStaged, S>,
                                          cudaFuncAttributeMaxDynamicSharedMemorySize, P::kSmemBytes));
    return true;
  }();
  (void)configured;
  if constexpr (S == Schedule::stream_k) {
    // Stream-K's blocks wait on each other's parts: all resident at once, or the launch fails,
    // rather than waiting on a block that never starts.
    launch_cooperative(matmul_wgmma_tma_kernel<T, BN, kStaged, S>, dim3(static_cast<unsigned>(blocks)), dim3(kThreads),
                       P::kSmemBytes, stream, loads.a, loads.b, c_map, c, dims.m, dims.n, dims.k, work);
  } else {
    matmul_wgmma_tma_kernel<T, BN, kStaged, S><<<static_cast<unsigned>(blocks), kThreads, P::kSmemBytes, stream>>>(
        loads.a, loads.b, c_map, c, dims.m, dims.n, dims.k, work);
    KBENCH_CHECK_LAUNCH();
  }
}

/// Every tile whole, in `order`, on min(tiles, SMs) blocks.
template <typename T, int BN, bool kStaged>
void launch_whole(const WgmmaTmaOperands<T>& loads, const CUtensorMap& c_map, T* c, Dims dims, TileOrder order,
                  cudaStream_t stream) {
  const int tiles = ceil_div(dims.m, kBM) * ceil_div(dims.n, BN);
  stream_k::Work work;
  work.whole_tiles = tiles;
  work.order = order;
  launch<T, BN, kStaged>(loads, c_map, c, dims, std::max(1, std::min(tiles, launch_sm_count())), work, stream);
}

}  // namespace

template <typename T>
void launch_wgmma_tma(const WgmmaTmaOperands<T>& operands, T* c, Dims dims, cudaStream_t stream) {
  static_assert(kWgmmaTileN == 256, "launch_wgmma_tma runs the wgmma kernel's 128x256 tile");
  const CUtensorMap unused{};  // the register epilogue stores through `c`
  launch_whole<T, 256, false>(operands, unused, c, dims, TileOrder{}, stream);
}

template <typename T>
void launch_wgmma_tma_staged(const WgmmaTmaStagedOperands<T>& operands, Dims dims, TmaTile tile,
                             cudaStream_t stream) {
  const TileOrder order = operands.orders[tma_tile_index(tile)];
  switch (tile) {
    case TmaTile::n256: return launch_whole<T, 256, true>(operands.loads, operands.c, nullptr, dims, order, stream);
    case TmaTile::n192: return launch_whole<T, 192, true>(operands.loads, operands.c, nullptr, dims, order, stream);
    case TmaTile::n128: return launch_whole<T, 128, true>(operands.loads, operands.c, nullptr, dims, order, stream);
  }
}

template <typename T>
void launch_wgmma_tma_stream_k(const WgmmaTmaStagedOperands<T>& operands, Dims dims, const StreamKSchedule& schedule,
                               void* workspace, cudaStream_t stream) {
  const int grid = schedule.grid;
  if (grid < 1 || grid > launch_sm_count()) {
    throw std::invalid_argument("launch_wgmma_tma_stream_k: the grid must be 1 to the device's " +
                                std::to_string(launch_sm_count()) + " SMs (its blocks wait on each other), got " +
                                std::to_string(grid));
  }
  if (schedule.tiles != ceil_div(dims.m, kBM) * ceil_div(dims.n, kWgmmaTileN) || schedule.steps != ceil_div(dims.k, kBK)) {
    throw std::invalid_argument("launch_wgmma_tma_stream_k: the schedule was made for other extents than " +
                                std::to_string(dims.m) + "x" + std::to_string(dims.n) + "x" + std::to_string(dims.k));
  }
  const std::size_t bytes = stream_k_workspace_bytes(grid, kWgmmaTileN);
  if (workspace == nullptr || reinterpret_cast<std::uintptr_t>(workspace) % 16 != 0) {
    throw std::invalid_argument("launch_wgmma_tma_stream_k: needs " + std::to_string(bytes) +
                                " bytes of 16-byte aligned workspace, zeroed before the first launch");
  }
  stream_k::Work work;
  work.whole_tiles = schedule.whole_tiles;
  work.split_steps = schedule.split_steps;
  work.partials = static_cast<float*>(workspace);
  work.flags = reinterpret_cast<unsigned*>(static_cast<unsigned char*>(workspace) + bytes - 2 * sizeof(unsigned) * grid);
  launch<T, kWgmmaTileN, true, Schedule::stream_k>(operands.loads, operands.c, nullptr, dims, grid, work, stream);
}

template <typename T>
void launch_wgmma_tma_partials(const WgmmaTmaOperands<T>& operands, float* partials, Dims dims, TmaTile tile,
                               int splits, cudaStream_t stream) {
  check_split_count("launch_wgmma_tma_partials", splits);
  if (dims.m < 1 || dims.n < 1 || dims.k < 1) {
    throw std::invalid_argument("launch_wgmma_tma_partials: extents must be positive, got " + std::to_string(dims.m) +
                                "x" + std::to_string(dims.n) + "x" + std::to_string(dims.k));
  }
  if (partials == nullptr || reinterpret_cast<std::uintptr_t>(partials) % 8 != 0) {
    throw std::invalid_argument("launch_wgmma_tma_partials: needs " + std::to_string(splits) + " slices of " +
                                std::to_string(dims.m) + "x" + std::to_string(dims.n) +
                                " fp32, 8-byte aligned; got a null or misaligned pointer");
  }
  stream_k::Work work;
  work.whole_tiles = ceil_div(dims.m, kBM) * ceil_div(dims.n, tma_tile_n(tile));
  work.k_splits = splits;
  work.steps_per_split = ceil_div(ceil_div(dims.k, kBK), splits);
  work.partials = partials;
  const int blocks = std::max(1, std::min(work.whole_tiles * splits, launch_sm_count()));
  const CUtensorMap unused{};  // the slices take the register epilogue's stores
  switch (tile) {
    case TmaTile::n256:
      return launch<T, 256, false, Schedule::split_k>(operands, unused, nullptr, dims, blocks, work, stream);
    case TmaTile::n192:
      return launch<T, 192, false, Schedule::split_k>(operands, unused, nullptr, dims, blocks, work, stream);
    case TmaTile::n128:
      return launch<T, 128, false, Schedule::split_k>(operands, unused, nullptr, dims, blocks, work, stream);
  }
}

template <typename T>
void launch_wgmma_tma_tail_split(const WgmmaTmaStagedOperands<T>& operands, T* c, float* parts, Dims dims,
                                 TmaTile tile, const TailSplit& plan, cudaStream_t stream) {
  const int tile_n = tma_tile_n(tile);
  const int tiles = ceil_div(dims.m, kBM) * ceil_div(dims.n, tile_n), steps = ceil_div(dims.k, kBK);
  const int blocks = launch_sm_count();
  if (plan.splits < 2 || plan.splits > kMaxSplitK || plan.tail_tiles < 1 || plan.whole_tiles < blocks ||
      plan.whole_tiles % blocks != 0 || plan.whole_tiles + plan.tail_tiles != tiles ||
      plan.tail_tiles * plan.splits > blocks) {
    throw std::invalid_argument("launch_wgmma_tma_tail_split: the plan (" + std::to_string(plan.whole_tiles) +
                                " whole tiles, " + std::to_string(plan.tail_tiles) + " split " +
                                std::to_string(plan.splits) + " ways) does not fit " + std::to_string(tiles) +
                                " tiles on " + std::to_string(blocks) + " SMs; make it with plan_tail_split");
  }
  if (parts == nullptr || reinterpret_cast<std::uintptr_t>(parts) % 8 != 0) {
    throw std::invalid_argument("launch_wgmma_tma_tail_split: needs " +
                                std::to_string(tail_split_parts_bytes(plan, tile_n)) +
                                " bytes of 8-byte aligned parts; got a null or misaligned pointer");
  }
  stream_k::Work work;
  work.whole_tiles = plan.whole_tiles;
  work.tail_tiles = plan.tail_tiles;
  work.k_splits = plan.splits;
  work.steps_per_split = ceil_div(steps, plan.splits);
  work.partials = parts;
  work.order = plan.order;
  switch (tile) {
    case TmaTile::n256:
      launch<T, 256, true, Schedule::tail_split>(operands.loads, operands.c, nullptr, dims, blocks, work, stream);
      break;
    case TmaTile::n192:
      launch<T, 192, true, Schedule::tail_split>(operands.loads, operands.c, nullptr, dims, blocks, work, stream);
      break;
    case TmaTile::n128:
      launch<T, 128, true, Schedule::tail_split>(operands.loads, operands.c, nullptr, dims, blocks, work, stream);
      break;
  }
  launch_tile_parts_reduce(parts, c, dims, tile_n, plan, stream);
}

template void launch_wgmma_tma(const WgmmaTmaOperands<__half>&, __half*, Dims, cudaStream_t);
template void launch_wgmma_tma(const WgmmaTmaOperands<__nv_bfloat16>&, __nv_bfloat16*, Dims, cudaStream_t);
template void launch_wgmma_tma_staged(const WgmmaTmaStagedOperands<__half>&, Dims, TmaTile, cudaStream_t);
template void launch_wgmma_tma_staged(const WgmmaTmaStagedOperands<__nv_bfloat16>&, Dims, TmaTile, cudaStream_t);
template void launch_wgmma_tma_stream_k(const WgmmaTmaStagedOperands<__half>&, Dims, const StreamKSchedule&, void*,
                                        cudaStream_t);
template void launch_wgmma_tma_stream_k(const WgmmaTmaStagedOperands<__nv_bfloat16>&, Dims, const StreamKSchedule&,
                                        void*, cudaStream_t);

template void launch_wgmma_tma_partials(const WgmmaTmaOperands<__half>&, float*, Dims, TmaTile, int, cudaStream_t);
template void launch_wgmma_tma_partials(const WgmmaTmaOperands<__nv_bfloat16>&, float*, Dims, TmaTile, int,
                                        cudaStream_t);

template void launch_wgmma_tma_tail_split(const WgmmaTmaStagedOperands<__half>&, __half*, float*, Dims, TmaTile,
                                          const TailSplit&, cudaStream_t);
template void launch_wgmma_tma_tail_split(const WgmmaTmaStagedOperands<__nv_bfloat16>&, __nv_bfloat16*, float*, Dims,
                                          TmaTile, const TailSplit&, cudaStream_t);

}  // namespace kbench::matmul
