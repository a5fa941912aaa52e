// Tensor-core matmul with warp-level mma.sync (HMMA): fp16 and bf16 inputs as m16n8k16 MMAs,
// fp32 data as TF32 m16n8k8 MMAs, always with fp32 accumulators. Builds for sm_80 and sm_90
// alike (Hopper's wgmma is out of scope).
//
// Block and warp tiles. A block owns a kBM×kBN tile of C (Config below) and walks K in steps of
// kBK (KBytes of K per stage row: 64 or 128 bytes, i.e. 32 or 64 halves, 16 or 32 floats). Its
// warps form a grid; each warp owns a 64×64 part of the tile as 4×8 accumulator tiles of 16×8
// (128 fp32 registers per thread) that stay in registers for the whole K loop. Per 16-deep (8 for
// TF32) slice of K a warp loads 4 A fragments (16×16) and 8 B fragments (16×8) and issues all
// 4×8 = 32 MMAs: each fragment loaded from shared memory feeds 8 or 4 MMAs. A bigger warp tile
// means fewer shared-memory bytes per FLOP; 64×64 is what fits in 255 registers. (64×32 warp
// tiles ran 25-30 % slower on an H200.)
//
// Fragment layout. mma.sync fixes which thread holds which element (PTX ISA, "Matrix fragments
// for mma.m16n8k16"); with g = lane / 4 and t = lane % 4, for 16-bit types:
//   A 16×16 (row-major): a0 = A[g][2t, 2t+1], a1 = A[g+8][2t..], a2 = A[g][2t+8..], a3 = A[g+8][2t+8..]
//   B 16×8  ("col"):     b0 = B[2t, 2t+1][g], b1 = B[2t+8, 2t+9][g]
//   C 16×8  (fp32):      c0, c1 = C[g][2t, 2t+1], c2, c3 = C[g+8][2t, 2t+1]
// ldmatrix.x4 loads four 8×8 matrices of 16-bit elements and hands lane l the two elements of row
// l / 4 at columns 2(l % 4), 2(l % 4) + 1 of each: exactly a0..a3 when the four matrices are A's
// quadrants in the order (rows 0-7, k 0-7), (rows 8-15, k 0-7), (rows 0-7, k 8-15),
// (rows 8-15, k 8-15), so lanes 0-15 point at rows 0-15 of k 0 and lanes 16-31 at rows 0-15 of k 8.
// B is stored k-major (B[k][n], as in global memory); ldmatrix.trans transposes each 8×8 on the
// way, which turns rows of k into the "col" layout b0, b1 above: one x4 load gives b0, b1 for two
// neighbouring 8-wide n tiles.
// TF32 (m16n8k8) has the same A layout with 32-bit elements (a0 = A[g][t], a1 = A[g+8][t],
// a2 = A[g][t+4], a3 = A[g+8][t+4]); ldmatrix still works on it, since an 8×8 matrix of 16-bit
// elements is an 8×4 matrix of 32-bit ones. Its B fragment (b0 = B[t][g], b1 = B[t+4][g]) needs a
// transpose of 32-bit elements, which ldmatrix cannot do, so it is read with plain 32-bit loads;
// B rows are padded to kBN + 8 floats so those loads hit 32 different banks. Every TF32 operand is
// rounded to nearest with cvt.rna.tf32.f32 before the MMA.
//
// The pipeline. kStages shared-memory stages form a ring. cp.async copies 16 bytes from global
// to shared memory without passing through registers and without blocking the thread; each
// stage's copies form one commit group. The prologue starts stages 0 .. kStages-2. In step t the
// block waits until at most kStages-2 groups are still in flight (so stage t has landed),
// synchronises (everyone's copies are visible and everyone has finished step t-1), starts the
// copies of step t+kStages-1 into the stage step t-1 used, and computes step t: the copies of
// the next kStages-1 steps overlap the MMAs. Steps past the end commit empty groups so the count
// stays uniform. With kOverlap the fragments are also double-buffered in registers: the loads of
// slice s+1 are issued before the MMAs of slice s, and the wait and barrier for stage t+1 move
// into the last slice of step t, so even the first fragment loads of a step overlap MMAs. That
// gained about 5 % for fp16/bf16 with 64-deep steps (nothing with 32-deep ones) and lost about
// 6 % for TF32, whose B fragments are already many scalar loads (NOTES.md).
//
// Bounds. cp.async's source-size operand is 16 for a chunk inside the matrix and 0 outside it,
// which makes the hardware write 16 zero bytes: partial tiles are zero-filled, so the MMAs need
// no guards. This needs every 16-byte chunk to be wholly inside or outside and 16-byte aligned:
// K and N multiples of 8 (16-bit types) or 4 (fp32). Other shapes run the same kernel with
// kAligned = false, which copies element by element with a guard per element (slower, only for
// odd shapes): TF32 by 4-byte cp.async, as asynchronous as the aligned path; 16-bit elements,
// under cp.async's 4 bytes, through registers. Stores of C are guarded in both.
//
// Banks. A stage rows are padded by 16 bytes (kBK + kChunk elements: 80 or 144 bytes for the
// shipped shapes), B rows by 8 elements (16 or 32 bytes). The eight 16-byte rows that each phase
// of an ldmatrix reads then start in eight different 16-byte bank groups, so the fragment loads
// are conflict-free, and the TF32 B loads B[t][g] of a warp fall in banks 8t + g, all different.
#include "kernels/matmul/matmul_kernels.hpp"

#include "harness/device/cuda_check.hpp"
#include "kernels/matmul/cp_async.cuh"
#include "kernels/common/vector16.cuh"
#include "kernels/matmul/matmul_device.cuh"
#include "kernels/matmul/mma_sync.cuh"

#include <cstdint>
#include <type_traits>

namespace kbench::matmul {

namespace {

/// A kBM×kBN block tile, WarpsM×WarpsN warps, Stages shared-memory stages of KBytes bytes of K
/// per row, and the blocks per SM the register budget is sized for. SplitK > 1 repeats the warp
/// grid SplitK times: copy k of the grid computes the MMA slices s of each step with
/// s % SplitK == k, and the copies' accumulators are added in shared memory at the end.
template <typename T, int BM, int BN, int WarpsM, int WarpsN, int Stages, int MinBlocks, int KBytes, bool Overlap,
          int SplitK = 1>
struct Config {
  static constexpr int kBM = BM, kBN = BN, kWarpsN = WarpsN, kStages = Stages, kMinBlocks = MinBlocks;
  static constexpr bool kOverlap = Overlap;  // fragment loads of slice s + 1 overlap the MMAs of slice s
  static constexpr bool kTf32 = std::is_same_v<T, float>;
  static constexpr int kSplitK = SplitK;
  static constexpr int kGridWarps = WarpsM * WarpsN;  // warps of one copy of the warp grid
  static constexpr int kThreads = 32 * kGridWarps * SplitK;
  static constexpr int kChunk = 16 / static_cast<int>(sizeof(T));  // elements per 16-byte copy
  static constexpr int kBK = KBytes / static_cast<int>(sizeof(T));  // K per step
  static constexpr int kMmaK = kTf32 ? 8 : 16;                      // K per MMA
  static constexpr int kALd = kBK + kChunk;  // A stage row, elements (16 bytes of padding)
  static constexpr int kBLd = kBN + 8;       // B stage row, elements (see Banks)
  static constexpr int kAStage = kBM * kALd;  // elements
  static constexpr int kBStage = kBK * kBLd;
  static constexpr int kWarpRows = kBM / WarpsM;
  static constexpr int kWarpCols = kBN / WarpsN;
  static constexpr int kTilesM = kWarpRows / 16;  // 16×8 accumulator tiles per warp
  static constexpr int kTilesN = kWarpCols / 8;
  static constexpr int kAChunksPerRow = kBK / kChunk;
  static constexpr int kBChunksPerRow = kBN / kChunk;
  static constexpr int kALoads = kBM * kAChunksPerRow / kThreads;  // 16-byte chunks per thread and step
  static constexpr int kBLoads = kBK * kBChunksPerRow / kThreads;
  static constexpr std::size_t kStageBytes = static_cast<std::size_t>(kStages) * (kAStage + kBStage) * sizeof(T);
  // With SplitK, the stages are reused for the accumulators of every copy of the warp grid.
  static constexpr std::size_t kSplitBytes =
      SplitK > 1 ? static_cast<std::size_t>(kThreads) * (kWarpRows / 16) * (kWarpCols / 8) * 4 * sizeof(float) : 0;
  static constexpr std::size_t kSmemBytes = kStageBytes > kSplitBytes ? kStageBytes : kSplitBytes;

  static_assert(kWarpRows % 16 == 0 && kWarpCols % 16 == 0, "warp tiles are whole 16x16 blocks");
  static_assert(kALoads * kThreads == kBM * kAChunksPerRow && kBLoads * kThreads == kBK * kBChunksPerRow,
                "every thread copies the same number of chunks");
  static_assert(kThreads % kAChunksPerRow == 0 && kThreads % kBChunksPerRow == 0,
                "a thread copies the same chunk column in every row it copies");
  static_assert((kAStage * sizeof(T)) % 128 == 0 && (kBStage * sizeof(T)) % 128 == 0,
                "stage bases stay 128-byte aligned");
  static_assert(kBK % kMmaK == 0, "a step is whole MMAs deep");
  static_assert(SplitK == 1 || (!Overlap && (kBK / kMmaK) % SplitK == 0),
                "split K: every copy of the warp grid takes the same number of slices per step");
};

/// The configurations shipped, from timing several on an H200 (NOTES.md). fp16/bf16 on 16-byte
/// aligned shapes: 128×256 tiles, 8 warps as 2×4 with 64×64 each, 3 stages of 64 K deep
/// (153 KB of shared memory, one block per SM) with register double-buffered fragments. TF32:
/// 128×128 tiles, 4 warps as 2×2, 4 stages of 16 K deep (74 KB, two blocks per SM). The
/// element-wise fallback for odd shapes takes the latter for every type (16-bit: its per-element
/// copies through registers need registers the 128×256 kernel does not have to spare); TF32 split
/// K may also run the 32×32 tile off the 16-byte paths (launch_tensor_core_tf32_partials).
///
/// Small problems (at most one big tile per 8 SMs: 512³ and below in 16-bit) take Small instead:
/// a 32×32 tile per block, so a 256³ product spreads over 64 SMs rather than 2, with four warps
/// that split each step's MMA slices among them (one accumulator chain a quarter as long), and
/// 5 stages of 128 bytes of K, so a K of up to 256 (16-bit) or 128 (fp32) is in flight from the
/// start: at that size a call is a few memory latencies, not MMA throughput.
template <typename T>
struct Shipped {
  using Aligned = Config<T, 128, 256, 2, 4, 3, 1, 128, true>;
  using Small = Config<T, 32, 32, 1, 1, 5, 4, 128, false, 4>;
  using Fallback = Config<T, 128, 128, 2, 2, 4, 2, 64, false>;
};
template <>
struct Shipped<float> {
  using Aligned = Config<float, 128, 128, 2, 2, 4, 2, 64, false>;
  using Small = Config<float, 32, 32, 1, 1, 5, 4, 128, false, 4>;
  using Fallback = Aligned;
};

// --- fragments and MMAs --------------------------------------------------------------------------

/// fp32 bits rounded to TF32 (round to nearest, ties away), still in a 32-bit register.
__device__ __forceinline__ unsigned to_tf32(unsigned x) {
  unsigned r;
  asm("cvt.rna.tf32.f32 %0, %1;\n" : "=r"(r) : "f"(__uint_as_float(x)));
  return r;
}

// --- global -> shared ----------------------------------------------------------------------------

/// The bits of one 16-bit element, widened to 32 bits (the packing helpers build 16-byte vectors in
/// registers: a local array reinterpreted as uint4 would go to the stack).
__device__ __forceinline__ unsigned bits_of(__half x) { return __half_as_ushort(x); }
__device__ __forceinline__ unsigned bits_of(__nv_bfloat16 x) { return __bfloat16_as_ushort(x); }

/// Packs the 16 bytes of 8 consecutive 16-bit elements, `value(e)` giving element e.
template <typename T, typename Value>
__device__ __forceinline__ uint4 pack_chunk(Value&& value) {
  unsigned word[4];
#pragma unroll
  for (int w = 0; w < 4; ++w) word[w] = bits_of(value(2 * w)) | (bits_of(value(2 * w + 1)) << 16);
  return make_uint4(word[0], word[1], word[2], word[3]);
}

/// The unaligned 16-bit path's copy of one chunk: element by element through registers, zeros
/// outside [0, limit).
template <typename T, int Chunk>
__device__ __forceinline__ void copy_chunk_guarded(T* dst, const T* src_row, bool row_inside, int first, int limit) {
  static_assert(Chunk == 8, "16-bit elements: TF32 copies 4 bytes at a time by cp.async");
  *reinterpret_cast<uint4*>(dst) = pack_chunk<T>([&](int e) {
    return (row_inside && first + e < limit) ? src_row[first + e] : from_float<T>(0.0f);
  });
}

/// Starts the copies of the step whose K range begins at `k0` into one stage. Thread t copies
/// chunk column t % ChunksPerRow of rows t / ChunksPerRow + l * (kThreads / ChunksPerRow).
/// Elements at or past `k_end` (K, or the end of a split's K range) are zeros; `k` is A's row length.
template <typename T, typename Cfg, bool kAligned>
__device__ __forceinline__ void load_stage(T* a_stage, T* b_stage, const T* __restrict__ a, const T* __restrict__ b,
                                           int m, int n, int k, int k_end, int block_row, int block_col, int k0) {
  constexpr int kARowStep = Cfg::kThreads / Cfg::kAChunksPerRow;
  constexpr int kBRowStep = Cfg::kThreads / Cfg::kBChunksPerRow;
  const int tid = static_cast<int>(threadIdx.x);
  const int a_col = (tid % Cfg::kAChunksPerRow) * Cfg::kChunk;  // within the step
  const int b_col = (tid % Cfg::kBChunksPerRow) * Cfg::kChunk;  // within the block tile
#pragma unroll
  for (int l = 0; l < Cfg::kALoads; ++l) {
    const int r = tid / Cfg::kAChunksPerRow + l * kARowStep;
    const int row = block_row + r;
    T* dst = a_stage + r * Cfg::kALd + a_col;
    if constexpr (kAligned) {
      const bool inside = row < m && k0 + a_col < k_end;
      cp_async_16(dst, inside ? a + row * k + k0 + a_col : a, inside);
    } else if constexpr (Cfg::kTf32) {
#pragma unroll
      for (int e = 0; e < Cfg::kChunk; ++e) {
        const bool inside = row < m && k0 + a_col + e < k_end;
        cp_async_4(dst + e, inside ? a + row * k + k0 + a_col + e : a, inside);
      }
    } else {
      copy_chunk_guarded<T, Cfg::kChunk>(dst, row < m ? a + row * k : a, row < m, k0 + a_col, k_end);
    }
  }
#pragma unroll
  for (int l = 0; l < Cfg::kBLoads; ++l) {
    const int r = tid / Cfg::kBChunksPerRow + l * kBRowStep;
    const int row = k0 + r;
    T* dst = b_stage + r * Cfg::kBLd + b_col;
    if constexpr (kAligned) {
      const bool inside = row < k_end && block_col + b_col < n;
      cp_async_16(dst, inside ? b + row * n + block_col + b_col : b, inside);
    } else if constexpr (Cfg::kTf32) {
#pragma unroll
      for (int e = 0; e < Cfg::kChunk; ++e) {
        const bool inside = row < k_end && block_col + b_col + e < n;
        cp_async_4(dst + e, inside ? b + row * n + block_col + b_col + e : b, inside);
      }
    } else {
      copy_chunk_guarded<T, Cfg::kChunk>(dst, row < k_end ? b + row * n : b, row < k_end, block_col + b_col, n);
    }
  }
}

// --- the kernel ----------------------------------------------------------------------------------

/// Loads the A and B fragments of one kMmaK-deep slice of a stage (see Fragment layout).
template <typename T, typename Cfg>
__device__ __forceinline__ void load_fragments(unsigned (&a_frag)[Cfg::kTilesM][4], unsigned (&b_frag)[Cfg::kTilesN][2],
                                               const T* a_tile, const T* b_tile, int kk, int lane) {
#pragma unroll
  for (int i = 0; i < Cfg::kTilesM; ++i) {
    ldmatrix_x4(a_frag[i], a_tile + (i * 16 + lane % 16) * Cfg::kALd + kk + (lane / 16) * Cfg::kChunk);
    if constexpr (Cfg::kTf32) {
#pragma unroll
      for (int q = 0; q < 4; ++q) a_frag[i][q] = to_tf32(a_frag[i][q]);
    }
  }
  if constexpr (Cfg::kTf32) {
    const int g = lane / 4, t = lane % 4;
#pragma unroll
    for (int j = 0; j < Cfg::kTilesN; ++j) {
      const float* column = reinterpret_cast<const float*>(b_tile) + j * 8 + g;
      b_frag[j][0] = to_tf32(__float_as_uint(column[(kk + t) * Cfg::kBLd]));
      b_frag[j][1] = to_tf32(__float_as_uint(column[(kk + t + 4) * Cfg::kBLd]));
    }
  } else {
#pragma unroll
    for (int j = 0; j < Cfg::kTilesN; j += 2) {
      unsigned r[4];
      ldmatrix_x4_trans(r, b_tile + (kk + lane % 8 + ((lane / 8) % 2) * 8) * Cfg::kBLd + j * 8 + (lane / 16) * 8);
      b_frag[j][0] = r[0];
      b_frag[j][1] = r[1];
      b_frag[j + 1][0] = r[2];
      b_frag[j + 1][1] = r[3];
    }
  }
}

/// kPartial (TF32 only, where C is fp32 already): split K. Block (x, y) computes tile x over K
/// range y, [y·k_per_split, (y+1)·k_per_split) clipped to K (k_per_split a multiple of kBK), and
/// writes its unrounded sums to slice y of the M×N fp32 workspace `c`; an empty range writes zeros.
template <typename T, typename Cfg, bool kAligned, bool kPartial>
__global__ void __launch_bounds__(Cfg::kThreads, Cfg::kMinBlocks)
    matmul_tensor_core_kernel(const T* __restrict__ a, const T* __restrict__ b, T* __restrict__ c, int m, int n,
                              int k, int k_per_split) {
  static_assert(!kPartial || std::is_same_v<T, float>, "split-K partials are fp32: TF32 only");
  extern __shared__ __align__(128) unsigned char smem[];
  T* const stages = reinterpret_cast<T*>(smem);
  auto a_stage = [&](int s) { return stages + s * (Cfg::kAStage + Cfg::kBStage); };
  auto b_stage = [&](int s) { return stages + s * (Cfg::kAStage + Cfg::kBStage) + Cfg::kAStage; };

  const TileCoord tile =
      grouped_tile(static_cast<int>(blockIdx.x), ceil_div(m, Cfg::kBM), ceil_div(n, Cfg::kBN), 8);
  const int block_row = tile.row * Cfg::kBM;
  const int block_col = tile.col * Cfg::kBN;
  const int warp = static_cast<int>(threadIdx.x) / 32 % Cfg::kGridWarps;  // within one copy of the warp grid
  const int warp_k = static_cast<int>(threadIdx.x) / 32 / Cfg::kGridWarps;  // the copy (SplitK)
  const int lane = static_cast<int>(threadIdx.x) % 32;
  const int warp_row = (warp / Cfg::kWarpsN) * Cfg::kWarpRows;  // within the block tile
  const int warp_col = (warp % Cfg::kWarpsN) * Cfg::kWarpCols;

  float acc[Cfg::kTilesM][Cfg::kTilesN][4];
#pragma unroll
  for (int i = 0; i < Cfg::kTilesM; ++i)
#pragma unroll
    for (int j = 0; j < Cfg::kTilesN; ++j)
#pragma unroll
      for (int q = 0; q < 4; ++q) acc[i][j][q] = 0.0f;

  int k_begin = 0, k_end = k;
  if constexpr (kPartial) {
    k_begin = static_cast<int>(blockIdx.y) * k_per_split;
    k_end = min(k, k_begin + k_per_split);
    c += static_cast<long long>(blockIdx.y) * m * n;
  }
  const int steps = max(0, ceil_div(k_end - k_begin, Cfg::kBK));
#pragma unroll
  for (int s = 0; s < Cfg::kStages - 1; ++s) {
    if (s < steps) {
      load_stage<T, Cfg, kAligned>(a_stage(s), b_stage(s), a, b, m, n, k, k_end, block_row, block_col,
                                   k_begin + s * Cfg::kBK);
    }
    cp_async_commit();
  }

  if constexpr (!Cfg::kOverlap) {
    for (int step = 0; step < steps; ++step) {
      cp_async_wait<Cfg::kStages - 2>();  // this thread's copies of `step` have landed
      __syncthreads();                    // everyone's have, and everyone is done with step - 1
      const int ahead = step + Cfg::kStages - 1;
      if (ahead < steps) {
        const int s = ahead % Cfg::kStages;  // the stage step - 1 used
        load_stage<T, Cfg, kAligned>(a_stage(s), b_stage(s), a, b, m, n, k, k_end, block_row, block_col,
                                     k_begin + ahead * Cfg::kBK);
      }
      cp_async_commit();

      const T* a_tile = a_stage(step % Cfg::kStages) + warp_row * Cfg::kALd;
      const T* b_tile = b_stage(step % Cfg::kStages) + warp_col;
#pragma unroll
      for (int kk = 0; kk < Cfg::kBK; kk += Cfg::kMmaK) {
        if (Cfg::kSplitK > 1 && (kk / Cfg::kMmaK) % Cfg::kSplitK != warp_k) continue;
        unsigned a_frag[Cfg::kTilesM][4];
        unsigned b_frag[Cfg::kTilesN][2];
        load_fragments<T, Cfg>(a_frag, b_frag, a_tile, b_tile, kk, lane);
#pragma unroll
        for (int i = 0; i < Cfg::kTilesM; ++i)
#pragma unroll
          for (int j = 0; j < Cfg::kTilesN; ++j) mma<T>(acc[i][j], a_frag[i], b_frag[j][0], b_frag[j][1]);
      }
    }
  } else {
    // Fragments double-buffered in registers: while the MMAs of slice s run, the fragments of
    // slice s + 1 are already being loaded, from the next stage when s is a step's last slice.
    // So the block's barrier moves from the top of a step into its last slice, before the
    // fragment loads of the next stage.
    constexpr int kSlices = Cfg::kBK / Cfg::kMmaK;
    static_assert(kSlices % 2 == 0, "slice s uses fragment buffer s % 2 in every step");
    unsigned a_frag[2][Cfg::kTilesM][4];
    unsigned b_frag[2][Cfg::kTilesN][2];
    cp_async_wait<Cfg::kStages - 2>();  // stage 0 has landed
    __syncthreads();
    load_fragments<T, Cfg>(a_frag[0], b_frag[0], a_stage(0) + warp_row * Cfg::kALd, b_stage(0) + warp_col, 0, lane);
    for (int step = 0; step < steps; ++step) {
      const int stage = step % Cfg::kStages;
      // Every thread passed the barrier in the last slice of step - 1 after its last read of
      // stage step - 1, so that stage takes the copies of step + kStages - 1 now.
      const int ahead = step + Cfg::kStages - 1;
      if (ahead < steps) {
        const int s = ahead % Cfg::kStages;
        load_stage<T, Cfg, kAligned>(a_stage(s), b_stage(s), a, b, m, n, k, k_end, block_row, block_col,
                                     k_begin + ahead * Cfg::kBK);
      }
      cp_async_commit();
#pragma unroll
      for (int slice = 0; slice < kSlices; ++slice) {
        const int cur = slice % 2, next = (slice + 1) % 2;
        if (slice + 1 < kSlices) {
          load_fragments<T, Cfg>(a_frag[next], b_frag[next], a_stage(stage) + warp_row * Cfg::kALd,
                                 b_stage(stage) + warp_col, (slice + 1) * Cfg::kMmaK, lane);
        } else if (step + 1 < steps) {
          cp_async_wait<Cfg::kStages - 2>();  // this thread's copies of step + 1 have landed
          __syncthreads();                    // everyone's have
          const int following = (step + 1) % Cfg::kStages;
          load_fragments<T, Cfg>(a_frag[next], b_frag[next], a_stage(following) + warp_row * Cfg::kALd,
                                 b_stage(following) + warp_col, 0, lane);
        }
#pragma unroll
        for (int i = 0; i < Cfg::kTilesM; ++i)
#pragma unroll
          for (int j = 0; j < Cfg::kTilesN; ++j) mma<T>(acc[i][j], a_frag[cur][i], b_frag[cur][j][0], b_frag[cur][j][1]);
      }
    }
  }
  cp_async_wait<0>();  // nothing may be in flight when the block exits (only empty groups are)

  if constexpr (Cfg::kSplitK > 1) {
    // Every copy of the warp grid parks its accumulators in the stages, lane-minor (conflict
    // free); copy 0 adds the others' in copy order and stores C.
    float* parked = reinterpret_cast<float*>(smem);
    constexpr int kPerWarp = Cfg::kTilesM * Cfg::kTilesN * 4 * 32;
    __syncthreads();  // every warp is done reading the stages
    if (warp_k > 0) {
      float* mine = parked + ((warp_k - 1) * Cfg::kGridWarps + warp) * kPerWarp + lane;
#pragma unroll
      for (int i = 0; i < Cfg::kTilesM; ++i)
#pragma unroll
        for (int j = 0; j < Cfg::kTilesN; ++j)
#pragma unroll
          for (int q = 0; q < 4; ++q) mine[((i * Cfg::kTilesN + j) * 4 + q) * 32] = acc[i][j][q];
    }
    __syncthreads();
    if (warp_k > 0) return;
#pragma unroll
    for (int copy = 1; copy < Cfg::kSplitK; ++copy) {
      const float* theirs = parked + ((copy - 1) * Cfg::kGridWarps + warp) * kPerWarp + lane;
#pragma unroll
      for (int i = 0; i < Cfg::kTilesM; ++i)
#pragma unroll
        for (int j = 0; j < Cfg::kTilesN; ++j)
#pragma unroll
          for (int q = 0; q < 4; ++q) acc[i][j][q] += theirs[((i * Cfg::kTilesN + j) * 4 + q) * 32];
    }
  }

  // Epilogue: each thread holds C[g][2t, 2t+1] and C[g+8][2t, 2t+1] of every 16×8 tile, written
  // as pairs (one 4- or 8-byte store) when N is even, element by element otherwise.
  const int g = lane / 4, t = lane % 4;
  const bool pairs = n % 2 == 0;
#pragma unroll
  for (int i = 0; i < Cfg::kTilesM; ++i) {
#pragma unroll
    for (int j = 0; j < Cfg::kTilesN; ++j) {
      const int col = block_col + warp_col + j * 8 + 2 * t;
#pragma unroll
      for (int half = 0; half < 2; ++half) {
        const int row = block_row + warp_row + i * 16 + g + half * 8;
        if (row >= m || col >= n) continue;
        const float x = acc[i][j][2 * half], y = acc[i][j][2 * half + 1];
        T* out = c + row * n + col;
        if (pairs) {  // col is even, so col < n means col + 1 < n too, and the pair is aligned
          if constexpr (std::is_same_v<T, float>) {
            *reinterpret_cast<float2*>(out) = make_float2(x, y);
          } else if constexpr (std::is_same_v<T, __half>) {
            *reinterpret_cast<__half2*>(out) = __floats2half2_rn(x, y);
          } else {
            *reinterpret_cast<__nv_bfloat162*>(out) = __floats2bfloat162_rn(x, y);
          }
        } else {
          out[0] = from_float<T>(x);
          if (col + 1 < n) out[1] = from_float<T>(y);
        }
      }
    }
  }
}

/// Launches one configuration on a tiles × `splits` grid (splits > 1 only with kPartial).
template <typename T, typename Cfg, bool kAligned, bool kPartial = false>
void launch_config(const T* a, const T* b, T* c, Dims dims, cudaStream_t stream, int splits = 1) {
  auto* kernel = matmul_tensor_core_kernel<T, Cfg, kAligned, kPartial>;
  // Over 48 KB of dynamic shared memory needs an opt-in, once per kernel (kbench uses one device
  // per process). The first call is the verification run, outside any graph capture.
  static const bool opted_in = [kernel] {
    KBENCH_CUDA_CALL(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          static_cast<int>(Cfg::kSmemBytes)));
    return true;
  }();
  (void)opted_in;
  const long long blocks = static_cast<long long>(ceil_div(dims.m, Cfg::kBM)) * ceil_div(dims.n, Cfg::kBN);
  const int k_per_split = ceil_div(ceil_div(dims.k, Cfg::kBK), splits) * Cfg::kBK;
  const dim3 grid(static_cast<unsigned>(blocks), static_cast<unsigned>(splits));
  kernel<<<grid, Cfg::kThreads, Cfg::kSmemBytes, stream>>>(a, b, c, dims.m, dims.n, dims.k, k_per_split);
  KBENCH_CHECK_LAUNCH();
}

/// The most dynamic shared memory a block of the current device may opt in to (kbench uses one
/// device per process): 227 KB on H100/H200, 163 KB on A100, 99 KB on most other GPUs.
int shared_memory_optin() {
  static const int bytes = [] {
    int device = 0, value = 0;
    KBENCH_CUDA_CALL(cudaGetDevice(&device));
    KBENCH_CUDA_CALL(cudaDeviceGetAttribute(&value, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    return value;
  }();
  return bytes;
}


template <typename T>
void launch(const T* a, const T* b, T* c, Dims dims, cudaStream_t stream) {
  using Aligned = typename Shipped<T>::Aligned;
  using Small = typename Shipped<T>::Small;
  using Fallback = typename Shipped<T>::Fallback;
  constexpr int kChunk = 16 / static_cast<int>(sizeof(T));
  const bool aligned =
      dims.k % kChunk == 0 && dims.n % kChunk == 0 && aligned16(a) && aligned16(b) && aligned16(c);
  const long long big_tiles = static_cast<long long>(ceil_div(dims.m, Aligned::kBM)) * ceil_div(dims.n, Aligned::kBN);
  // At most one big tile per 8 SMs: the small tiles (see Shipped). A GPU with less shared memory
  // than the fast configuration needs runs the fallback (correct for any shape, slower) rather
  // than failing the launch.
  if (aligned && 8 * big_tiles <= launch_sm_count()) {
    launch_config<T, Small, true>(a, b, c, dims, stream);
  } else if (aligned && Aligned::kSmemBytes <= static_cast<std::size_t>(shared_memory_optin())) {
    launch_config<T, Aligned, true>(a, b, c, dims, stream);
  } else {
    launch_config<T, Fallback, false>(a, b, c, dims, stream);
  }
}

}  // namespace

void launch_tensor_core(const __half* a, const __half* b, __half* c, Dims dims, cudaStream_t stream) {
  launch<__half>(a, b, c, dims, stream);
}

void launch_tensor_core(const __nv_bfloat16* a, const __nv_bfloat16* b, __nv_bfloat16* c, Dims dims,
                        cudaStream_t stream) {
  launch<__nv_bfloat16>(a, b, c, dims, stream);
}

void launch_tensor_core_tf32(const float* a, const float* b, float* c, Dims dims, cudaStream_t stream) {
  launch<float>(a, b, c, dims, stream);
}

void launch_tensor_core_tf32_partials(const float* a, const float* b, float* partials, Dims dims, Tf32Tile tile,
                                      int splits, cudaStream_t stream) {
  check_split_count("tensor_core tf32 split-K", splits);
  using Shipped32 = Shipped<float>;
  static_assert(Shipped32::Small::kBM == kTf32SmallTile && Shipped32::Small::kBN == kTf32SmallTile &&
                    Shipped32::Aligned::kBM == kTf32BigTile && Shipped32::Aligned::kBN == kTf32BigTile &&
                    Shipped32::Fallback::kBM == kTf32BigTile && Shipped32::Fallback::kBN == kTf32BigTile,
                "the tile sizes matmul_kernels.hpp states");
  const bool aligned = tf32_aligned(dims, a, b, partials);
  if (tile == Tf32Tile::small) {
    if (!aligned) return launch_config<float, Shipped32::Small, false, true>(a, b, partials, dims, stream, splits);
    launch_config<float, Shipped32::Small, true, true>(a, b, partials, dims, stream, splits);
  } else if (!aligned) {
    launch_config<float, Shipped32::Fallback, false, true>(a, b, partials, dims, stream, splits);
  } else {
    launch_config<float, Shipped32::Aligned, true, true>(a, b, partials, dims, stream, splits);
  }
}

}  // namespace kbench::matmul
