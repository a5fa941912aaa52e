// fp32 SIMT matmul for problems too small to fill the GPU with register_blocked's 128×128 tiles
// (fewer tiles than SMs: 256³ is 4 tiles, 1024³ is 64), and for few-row GEMMs (M of 9 to 64).
// register_blocked's launcher hands the first here when K and N are multiples of 4; `auto` sends
// both, whatever their alignment.
//
// Why another kernel. At 256³ the 128×128 kernel runs 4 blocks on 4 SMs, each doing 4.2 M FMAs
// one after another: 10 µs, where the whole product is 16.8 M FMAs, 0.5 µs of the H100's FP32
// throughput spread over 132 SMs. Smaller tiles alone would starve each block of FMAs per load,
// so the block also splits K.
//
// Block tile 16×32, 8 warps. K is cut into chunks of kChunkK = 16, and warp w owns chunks
// w, w + 8, w + 16, ...: each warp copies its own chunks (A: 16 rows × 16 k, B: 16 k × 32
// columns, 3 KB) into a ring of two buffers of its own with cp.async (16 bytes, zero-filled
// outside the matrices) and waits only for its own copies, so the main loop has no block-wide
// barrier. Lane (ty, tx), ty = lane / 8, tx = lane % 8, owns rows ty + 4i (i = 0..3) and columns
// 4tx .. 4tx+3: 16 accumulators; per 4 k it reads four float4 of A (its four rows) and four of B
// (4 rows of k, its 4 columns) and does 64 FMAs. A pieces are padded to 20 floats a row, so the
// four rows a warp reads at once start in banks 0, 20, 8 and 28; B rows are read as 8
// consecutive float4: both conflict-free. At the end the warps' partial tiles meet in shared
// memory and every thread adds two outputs' eight partials in warp order and stores them.
//
// Taller tiles, 32×32 and 48×32 (the same lanes with 8 or 12 rows each), for M of 17 to 64: more
// multiply-adds per float read from L2 (5.3 at 16 rows, 9.6 at 48) and per shared-memory load.
// Per multiply-add computed they run about 1.4x the 16-row tile on the H100 (47x8192x8192: 185.6
// µs on 48 rows against 279.2 on 16; NOTES.md, "Taller small tiles"). A's rows whose pitch is not
// a multiple of 4, and B where N is not (or a pointer is not 16-byte aligned), copy 4 bytes at a
// time: every element checked, the same pieces in shared memory. `auto` pads A's rows first
// (launch_pad_rows_fp32), so that only B's odd rows take 4-byte copies.
//
// Measured on the H100 at 256³ in hot mode (NOTES.md): 3.77 µs with 4 slices of 64 threads and
// 2×4 outputs each, 3.38-3.40 µs with 8 one-warp slices interleaved within block-wide steps of
// 32 k (a __syncthreads per step), 2.88-2.90 µs like this (apps/probes/matmul_small_probe.cu and
// the targets run; 1024³ 88 → 70 µs).
#include "kernels/matmul/matmul_kernels.hpp"

#include "harness/device/cuda_check.hpp"
#include "kernels/common/launch_attributes.cuh"
#include "kernels/matmul/cp_async.cuh"
#include "kernels/matmul/matmul_device.cuh"

#include <cstdint>
#include <stdexcept>

namespace kbench::matmul {

namespace {

constexpr int kBN = 32;
constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
constexpr int kChunkK = 16;
/// Buffers per warp. The probe measured chunks of 8 k in a ring of 4 and of 16 k in a ring of 3
/// slower at 256³ (3.13, 3.16 against 2.85 µs), and chunks of 32 k slower everywhere.
constexpr int kRing = 2;
constexpr int kALd = kChunkK + 4;  // floats per A piece row
constexpr int kBPiece = kChunkK * kBN;
constexpr int kBCopies16 = kChunkK * kBN / 4 / 32;  // 16-byte copies of B per lane and chunk: 4
constexpr int kBCopies4 = kChunkK * kBN / 32;       // 4-byte copies: 16, one row of the piece each

/// The block tile's rows (16, 32 or 48) and what follows from them. Lane (ty, tx) owns rows ty + 4i,
/// i < kLaneRows: A's piece rows are 20 floats apart, so the four rows a warp reads at once start
/// in banks 0, 20, 8, 28 (even i) or 16, 4, 24, 12 (odd i): A's reads stay conflict-free at every
/// height.
template <int kBM>
struct Tile {
  static_assert(kBM % 8 == 0 && kBM <= 48, "16, 32 or 48 rows");
  static constexpr int kLaneRows = kBM / 4;
  static constexpr int kAPiece = kBM * kALd;
  static constexpr int kPiece = kAPiece + kBPiece;  // floats
  static constexpr int kACopies16 = kBM * kChunkK / 4 / 32;  // 2, 4, 6
  static constexpr int kACopies4 = kBM * kChunkK / 32;       // 8, 16, 24
  static constexpr int kSharedBytes = kWarps * kRing * kPiece * static_cast<int>(sizeof(float));  // 53,248 / 73,728 / 94,208
  /// Blocks an SM holds: shared memory allows 4 / 3 / 2 (228 KB, 1 KB reserved per block); the
  /// bound caps registers to match: 80 for 16 rows, 128 for 32 and 48 (at 80, ptxas of CUDA 13.0
  /// spilled 32-56 bytes of the 32-row tile; at 128 it spills 8 bytes of the 48-row split-K
  /// instantiation with 16-byte copies, none elsewhere).
  static constexpr int kMinBlocks = kBM == 16 ? 3 : 2;
  static_assert(kWarps * kBM * kBN <= kWarps * kRing * kPiece, "the partial tiles fit in the rings");
};

/// How a kernel copies A and B: 16-byte copies of both (A's pitch and N multiples of 4, 16-byte
/// aligned pointers); A 16-byte and B 4-byte (N not a multiple of 4: `auto` pads A's rows to a
/// multiple of 4 first where K is not); or 4 bytes at a time for both. 4-byte copies check every
/// element and fill the same pieces; a 16-byte copy is wholly inside the matrix or wholly outside it
/// (then zero-filled; the source must still be a valid address).
enum class Copies { vector, scalar_b, scalar };

/// Starts one lane's share of the copies of the chunk at `k0` into `piece`. A's rows are `lda`
/// floats apart (K, or a padded copy's pitch whose columns from K on hold zeros). `Whole` (16-row
/// tiles, 16-byte copies, A's pitch K): the launcher saw M % 16, N % 32 and K % 16 all 0, so every
/// copy is inside and none is checked (the checks cost 0.17 µs per call at 256³ on the H100: 3.01
/// against 2.84 µs, NOTES.md).
///
/// Offsets are unsigned 32-bit: every element's index is below 2^31 (checked_dims for A, B and C;
/// the launcher refuses a pitch that takes A's past it), and an offset past the matrix (which may
/// wrap) is never read.
/// 64-bit pointers per copy, hoisted out of the main loop by the compiler, spilled the 32- and
/// 48-row tiles.
template <int kBM, bool Whole, Copies kCopies>
__device__ __forceinline__ void issue_chunk(float* piece, const float* a, int lda, const float* b, int m, int n,
                                            int k, int block_row, int block_col, int k0, int lane) {
  using T = Tile<kBM>;
  const unsigned ulda = static_cast<unsigned>(lda), un = static_cast<unsigned>(n);
  if constexpr (kCopies != Copies::scalar) {
    // 4 lanes per row (16 k), 8 rows per copy.
    const int a_row = lane / 4, a_k = k0 + lane % 4 * 4;
    const unsigned a_first = static_cast<unsigned>(block_row + a_row) * ulda + static_cast<unsigned>(a_k);
#pragma unroll
    for (int i = 0; i < T::kACopies16; ++i) {
      const bool inside = Whole || (block_row + a_row + 8 * i < m && a_k < k);
      cp_async_16(piece + (a_row + 8 * i) * kALd + lane % 4 * 4, inside ? a + (a_first + 8u * i * ulda) : a, inside);
    }
  } else {
    // Half a warp per row (16 k, 64 bytes), 2 rows per copy; unrolled 4 deep: unrolled whole, the
    // copies' offsets hoisted out of the main loop spilled the 48-row tile (ptxas of CUDA 13.0).
    const int a_row = lane / kChunkK, a_k = k0 + lane % kChunkK;
    const unsigned a_first = static_cast<unsigned>(block_row + a_row) * ulda + static_cast<unsigned>(a_k);
#pragma unroll 4
    for (int i = 0; i < T::kACopies4; ++i) {
      const bool inside = block_row + a_row + 2 * i < m && a_k < k;
      cp_async_4(piece + (a_row + 2 * i) * kALd + lane % kChunkK, inside ? a + (a_first + 2u * i * ulda) : a, inside);
    }
  }
  if constexpr (kCopies == Copies::vector) {
    // 8 lanes per row (32 columns), 4 rows per copy.
    const int b_row = k0 + lane / 8, b_col = block_col + lane % 8 * 4;
    const unsigned b_first = static_cast<unsigned>(b_row) * un + static_cast<unsigned>(b_col);
#pragma unroll
    for (int i = 0; i < kBCopies16; ++i) {
      const bool inside = Whole || (b_row + 4 * i < k && b_col < n);
      cp_async_16(piece + T::kAPiece + (lane / 8 + 4 * i) * kBN + lane % 8 * 4, inside ? b + (b_first + 4u * i * un) : b,
                  inside);
    }
  } else {
    // A warp per row (32 columns, 128 bytes).
    const int b_col = block_col + lane;
    const unsigned b_first = static_cast<unsigned>(k0) * un + static_cast<unsigned>(b_col);
#pragma unroll 4
    for (int r = 0; r < kBCopies4; ++r) {
      const bool inside = b_col < n && k0 + r < k;
      cp_async_4(piece + T::kAPiece + r * kBN + lane, inside ? b + (b_first + static_cast<unsigned>(r) * un) : b, inside);
    }
  }
}

/// Registers: the 16-row instantiations get 80, no spills (ptxas of CUDA 13.0: `-Xptxas -v` shows
/// whether a newer one keeps that), so that three blocks fit an SM when there are more tiles than
/// SMs (1024³: 2048 blocks). The guarded one needs the bound for that (unbounded, ptxas spilled 4
/// bytes); the whole-tile one does not, and is left unbounded: bounded, it ran 2.96 µs per call at
/// 256³ on the H100 against 2.84 for the probe's unbounded copy (a minimum of 1 block; 0 made ptxas
/// of CUDA 13.0 cap it at 64 registers and spill). Taller tiles: Tile::kMinBlocks.
///
/// kPartial: split K over blockIdx.y. Block (x, y) takes chunks y·chunks_per_split .. + chunks_per_split
/// - 1 (clipped to K; chunks_per_split a multiple of kWarps, so every split hands its warps chunks
/// in the same order) and writes its unrounded sums to slice y of the M×N fp32 workspace `c`.
template <int kBM, bool Whole, bool kPartial, Copies kCopies>
__global__ void __launch_bounds__(kThreads, Whole ? 1 : Tile<kBM>::kMinBlocks)
    matmul_small_simt_kernel(const float* __restrict__ a, int lda, const float* __restrict__ b, float* __restrict__ c,
                             int m, int n, int k, int chunks_per_split) {
  if constexpr (kPartial) allow_dependents();  // launch_split_k_reduce's blocks may be placed
  using T = Tile<kBM>;
  constexpr int kLaneRows = T::kLaneRows;
  extern __shared__ __align__(16) float shared[];  // kWarps rings of kRing pieces; then the partials
  const int tiles_n = ceil_div(n, kBN);
  const int block_row = static_cast<int>(blockIdx.x) / tiles_n * kBM;
  const int block_col = static_cast<int>(blockIdx.x) % tiles_n * kBN;
  const int warp = static_cast<int>(threadIdx.x) / 32;
  const int lane = static_cast<int>(threadIdx.x) % 32;
  const int ty = lane / 8, tx = lane % 8;
  float* ring = shared + warp * kRing * T::kPiece;

  // The warp's i-th chunk is chunk first + warp + kWarps i of K, held in buffer i % kRing; the
  // block's chunks are first .. first + chunks - 1.
  int first = 0, chunks = ceil_div(k, kChunkK);
  if constexpr (kPartial) {
    first = static_cast<int>(blockIdx.y) * chunks_per_split;
    chunks = max(0, min(chunks - first, chunks_per_split));
    c += static_cast<long long>(blockIdx.y) * m * n;
  }
  auto chunk_k0 = [&](int i) { return (first + warp + kWarps * i) * kChunkK; };
  auto issue = [&](int i) {
    issue_chunk<kBM, Whole, kCopies>(ring + (i % kRing) * T::kPiece, a, lda, b, m, n, k, block_row, block_col,
                                     chunk_k0(i), lane);
  };
  float acc[kLaneRows][4] = {};
#pragma unroll
  for (int i = 0; i < kRing - 1; ++i) {
    if (warp + kWarps * i < chunks) issue(i);
    cp_async_commit();
  }
  for (int i = 0; warp + kWarps * i < chunks; ++i) {
    const int ahead = i + kRing - 1;
    if (warp + kWarps * ahead < chunks) issue(ahead);
    cp_async_commit();
    cp_async_wait<kRing - 1>();  // this lane's copies of chunk i have landed
    __syncwarp();                // and every lane's
    const float* piece = ring + (i % kRing) * T::kPiece;
#pragma unroll
    for (int kk = 0; kk < kChunkK; kk += 4) {
      float4 bv[4];
#pragma unroll
      for (int j = 0; j < 4; ++j) bv[j] = *reinterpret_cast<const float4*>(piece + T::kAPiece + (kk + j) * kBN + 4 * tx);
#pragma unroll
      for (int r = 0; r < kLaneRows; ++r) {
        const float4 av = *reinterpret_cast<const float4*>(piece + (ty + 4 * r) * kALd + kk);
        const float a_frag[4] = {av.x, av.y, av.z, av.w};
#pragma unroll
        for (int j = 0; j < 4; ++j) {
          acc[r][0] = fmaf(a_frag[j], bv[j].x, acc[r][0]);
          acc[r][1] = fmaf(a_frag[j], bv[j].y, acc[r][1]);
          acc[r][2] = fmaf(a_frag[j], bv[j].z, acc[r][2]);
          acc[r][3] = fmaf(a_frag[j], bv[j].w, acc[r][3]);
        }
      }
    }
    __syncwarp();  // every lane is done with the buffer before the next issue refills it
  }
  cp_async_wait<0>();
  __syncthreads();  // every warp is done with its ring, which now holds the partial tiles

  float* partial = shared;  // [warp][row][col], kWarps × kBM × 32 floats
#pragma unroll
  for (int i = 0; i < kLaneRows; ++i) {
    *reinterpret_cast<float4*>(partial + (warp * kBM + ty + 4 * i) * kBN + 4 * tx) =
        make_float4(acc[i][0], acc[i][1], acc[i][2], acc[i][3]);
  }
  __syncthreads();
  // Column pair p of the tile (row p / 16, columns 2 (p % 16) and + 1): its partials added in warp order.
#pragma unroll
  for (int p = static_cast<int>(threadIdx.x); p < kBM * kBN / 2; p += kThreads) {
    const int r = p / (kBN / 2), col = 2 * (p % (kBN / 2));
    float2 sum = make_float2(0.0f, 0.0f);
#pragma unroll
    for (int w = 0; w < kWarps; ++w) {
      const float2 q = *reinterpret_cast<const float2*>(partial + (w * kBM + r) * kBN + col);
      sum.x += q.x;
      sum.y += q.y;
    }
    const int row = block_row + r, out_col = block_col + col;
    if (row >= m || out_col >= n) continue;
    float* out = c + static_cast<long long>(row) * n + out_col;
    if constexpr (kCopies == Copies::vector) {
      *reinterpret_cast<float2*>(out) = sum;  // N % 4 == 0: both columns inside, the pair aligned
    } else {
      out[0] = sum.x;
      if (out_col + 1 < n) out[1] = sum.y;
    }
  }
}

/// Launches one instantiation on `grid` (x: tiles, y: K splits). Its shared-memory limit is raised
/// once per process, on the device kbench runs on (52-92 KB, above the 48 KB a kernel gets without
/// asking).
template <int kBM, bool Whole, bool kPartial, Copies kCopies>
void launch_instance(const SimtOperands& x, Dims dims, dim3 grid, int chunks_per_split, cudaStream_t stream) {
  const auto kernel = matmul_small_simt_kernel<kBM, Whole, kPartial, kCopies>;
  static const bool shared_memory_set = [kernel] {
    KBENCH_CUDA_CALL(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, Tile<kBM>::kSharedBytes));
    return true;
  }();
  (void)shared_memory_set;
  kernel<<<grid, kThreads, Tile<kBM>::kSharedBytes, stream>>>(x.a, x.a_pitch, x.b, x.c, dims.m, dims.n, dims.k,
                                                              chunks_per_split);
  KBENCH_CHECK_LAUNCH();
}

bool aligned16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

/// The instantiation of `kBM` rows that `dims` and the pointers allow.
template <int kBM, bool kPartial>
void launch_tile(const SimtOperands& x, Dims dims, dim3 grid, int chunks_per_split, cudaStream_t stream) {
  const bool a_vector = x.a_pitch % 4 == 0 && aligned16(x.a);
  const bool b_vector = dims.n % 4 == 0 && aligned16(x.b) && aligned16(x.c);
  if (!a_vector) return launch_instance<kBM, false, kPartial, Copies::scalar>(x, dims, grid, chunks_per_split, stream);
  if (!b_vector) return launch_instance<kBM, false, kPartial, Copies::scalar_b>(x, dims, grid, chunks_per_split, stream);
  if constexpr (kBM == 16) {
    if (dims.m % kBM == 0 && dims.n % kBN == 0 && dims.k % kChunkK == 0 && x.a_pitch == dims.k) {
      return launch_instance<kBM, true, kPartial, Copies::vector>(x, dims, grid, chunks_per_split, stream);
    }
  }
  launch_instance<kBM, false, kPartial, Copies::vector>(x, dims, grid, chunks_per_split, stream);
}

template <bool kPartial>
void launch_rows(const SimtOperands& x, Dims dims, SimtSmallRows rows, dim3 grid, int chunks_per_split,
                 cudaStream_t stream) {
  if (x.a_pitch < dims.k) throw std::invalid_argument("small_simt: A's pitch is shorter than K");
  if (static_cast<long long>(dims.m) * x.a_pitch >= (1LL << 31)) {
    throw std::invalid_argument("small_simt: A's rows at this pitch reach past 2^31 elements");
  }
  switch (rows) {
    case SimtSmallRows::r16: return launch_tile<16, kPartial>(x, dims, grid, chunks_per_split, stream);
    case SimtSmallRows::r32: return launch_tile<32, kPartial>(x, dims, grid, chunks_per_split, stream);
    case SimtSmallRows::r48: return launch_tile<48, kPartial>(x, dims, grid, chunks_per_split, stream);
  }
  throw std::invalid_argument("small_simt: unknown tile height");
}

unsigned tiles_of(Dims dims, SimtSmallRows rows) {
  return static_cast<unsigned>(ceil_div64(dims.m, simt_small_rows(rows)) * ceil_div64(dims.n, kBN));
}

}  // namespace

void launch_small_simt(const SimtOperands& x, Dims dims, cudaStream_t stream, SimtSmallRows rows) {
  launch_rows<false>(x, dims, rows, dim3(tiles_of(dims, rows)), 0, stream);
}

void launch_small_simt(const float* a, const float* b, float* c, Dims dims, cudaStream_t stream, SimtSmallRows rows) {
  launch_small_simt(SimtOperands{a, dims.k, b, c}, dims, stream, rows);
}

void launch_small_simt_partials(const SimtOperands& x, Dims dims, int splits, cudaStream_t stream, SimtSmallRows rows) {
  check_split_count("register_blocked small-tile split-K", splits);
  // Whole rounds of kWarps chunks per split, so each split's warps share its chunks evenly.
  const int rounds = ceil_div(ceil_div(dims.k, kChunkK), kWarps);
  const int chunks_per_split = ceil_div(rounds, splits) * kWarps;
  const dim3 grid(tiles_of(dims, rows), static_cast<unsigned>(splits));
  launch_rows<true>(x, dims, rows, grid, chunks_per_split, stream);
}

void launch_small_simt_partials(const float* a, const float* b, float* partials, Dims dims, int splits,
                                cudaStream_t stream, SimtSmallRows rows) {
  launch_small_simt_partials(SimtOperands{a, dims.k, b, partials}, dims, splits, stream, rows);
}

}  // namespace kbench::matmul
