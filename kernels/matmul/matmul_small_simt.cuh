#pragma once
/// register_blocked's small-problem kernel (matmul_small_simt.cu has the design and its history),
/// templated on the K chunk a warp takes at a time and the depth of each warp's ring of buffers,
/// so that apps/probes/matmul_small_probe.cu can time other choices of both. The launcher uses
/// ChunkK = 16, Ring = 2 only; the probe instantiates other pairs, never that one.

#include "kernels/matmul/cp_async.cuh"
#include "kernels/matmul/matmul_device.cuh"

namespace kbench::matmul::small_simt {

constexpr int kBM = 16;
constexpr int kBN = 32;
constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;

/// Where a warp's chunks live in shared memory, and who copies what.
template <int ChunkK, int Ring>
struct Layout {
  static constexpr int kALd = ChunkK + 4;  ///< floats per A piece row: rows ty + 4i start in distinct banks
  static constexpr int kAPiece = kBM * kALd;
  static constexpr int kBPiece = ChunkK * kBN;
  static constexpr int kPiece = kAPiece + kBPiece;        ///< floats per buffer
  static constexpr int kACopies = kBM * ChunkK / 4 / 32;  ///< 16-byte copies per lane and chunk
  static constexpr int kBCopies = ChunkK * kBN / 4 / 32;
  static constexpr int kSharedBytes = kWarps * Ring * kPiece * static_cast<int>(sizeof(float));
  static_assert(ChunkK % 4 == 0 && kACopies * 32 * 4 == kBM * ChunkK && kBCopies * 32 * 4 == ChunkK * kBN,
                "the lanes cover a chunk");
  static_assert(kWarps * kBM * kBN <= kWarps * Ring * kPiece, "the partial tiles fit in the rings");
};

/// Four k of a lane's 4×4 outputs: A's four rows at a_rows + 4i·a_ld (4 k each, one float4 a
/// row), B's four k-rows at b_rows + j·kBN (its 4 columns), 64 FMAs.
__device__ __forceinline__ void fma_four_k(const float* a_rows, int a_ld, const float* b_rows, float (&acc)[4][4]) {
  float4 av[4], bv[4];
#pragma unroll
  for (int i = 0; i < 4; ++i) av[i] = *reinterpret_cast<const float4*>(a_rows + 4 * i * a_ld);
#pragma unroll
  for (int j = 0; j < 4; ++j) bv[j] = *reinterpret_cast<const float4*>(b_rows + j * kBN);
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

/// The warps' partial tiles meet in shared memory (`partial`: kWarps × 16 × 32 floats, free for
/// the taking: the caller has synchronised the block); thread t adds the partials of row t / 16,
/// columns 2 (t % 16) and + 1, in warp order, and stores them.
__device__ __forceinline__ void add_partials_and_store(float* partial, const float (&acc)[4][4], int warp, int ty,
                                                       int tx, float* c, int m, int n, int block_row, int block_col) {
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    *reinterpret_cast<float4*>(partial + (warp * kBM + ty + 4 * i) * kBN + 4 * tx) =
        make_float4(acc[i][0], acc[i][1], acc[i][2], acc[i][3]);
  }
  __syncthreads();
  const int r = static_cast<int>(threadIdx.x) / 16, col = 2 * (static_cast<int>(threadIdx.x) % 16);
  float2 sum = make_float2(0.0f, 0.0f);
#pragma unroll
  for (int w = 0; w < kWarps; ++w) {
    const float2 p = *reinterpret_cast<const float2*>(partial + (w * kBM + r) * kBN + col);
    sum.x += p.x;
    sum.y += p.y;
  }
  const int row = block_row + r, out_col = block_col + col;
  // N % 4 == 0: col is even, so both columns are inside or both outside, and the pair is aligned.
  if (row < m && out_col < n) *reinterpret_cast<float2*>(c + static_cast<long long>(row) * n + out_col) = sum;
}

/// Starts one lane's share of the copies of the chunk at `k0` into `piece`. K % 4 == 0 and
/// N % 4 == 0, so each 16-byte copy is wholly inside the matrix or wholly outside it (then
/// zero-filled; the source must still be a valid address). `Whole`: the launcher saw M % 16,
/// N % 32 and K % ChunkK all 0, so every copy is inside and none is checked (the checks cost
/// 0.17 µs per call at 256³ on the H100: 3.01 against 2.84 µs, NOTES.md).
template <int ChunkK, int Ring, bool Whole>
__device__ __forceinline__ void issue_chunk(float* piece, const float* a, const float* b, int m, int n, int k,
                                            int block_row, int block_col, int k0, int lane) {
  using L = Layout<ChunkK, Ring>;
#pragma unroll
  for (int i = 0; i < L::kACopies; ++i) {
    const int e = lane + 32 * i, r = e / (ChunkK / 4), kk = (e % (ChunkK / 4)) * 4;
    const bool inside = Whole || (block_row + r < m && k0 + kk < k);
    cp_async_16(piece + r * L::kALd + kk, inside ? a + static_cast<long long>(block_row + r) * k + k0 + kk : a, inside);
  }
#pragma unroll
  for (int i = 0; i < L::kBCopies; ++i) {
    const int e = lane + 32 * i, r = e / (kBN / 4), col = (e % (kBN / 4)) * 4;
    const bool inside = Whole || (k0 + r < k && block_col + col < n);
    cp_async_16(piece + L::kAPiece + r * kBN + col,
                inside ? b + static_cast<long long>(k0 + r) * n + block_col + col : b, inside);
  }
}

/// Both instantiations get 80 registers, no spills, so that three blocks fit an SM when there
/// are more tiles than SMs (1024³: 2048 blocks). The guarded one needs the bound for that
/// (unbounded, ptxas spilled 4 bytes); the whole-tile one does not, and is left unbounded: bounded,
/// it ran 2.96 µs per call at 256³ on the H100 against 2.84 for the probe's unbounded copy.
template <int ChunkK, int Ring, bool Whole>
__global__ void __launch_bounds__(kThreads, Whole ? 0 : 3)
    kernel(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int m, int n, int k) {
  using L = Layout<ChunkK, Ring>;
  extern __shared__ __align__(16) float shared[];  // kWarps rings of Ring pieces; then the partials
  const int tiles_n = ceil_div(n, kBN);
  const int block_row = static_cast<int>(blockIdx.x) / tiles_n * kBM;
  const int block_col = static_cast<int>(blockIdx.x) % tiles_n * kBN;
  const int warp = static_cast<int>(threadIdx.x) / 32;
  const int lane = static_cast<int>(threadIdx.x) % 32;
  const int ty = lane / 8, tx = lane % 8;
  float* ring = shared + warp * Ring * L::kPiece;

  // The warp's i-th chunk is chunk warp + kWarps i, held in buffer i % Ring.
  const int chunks = ceil_div(k, ChunkK);
  auto chunk_k0 = [&](int i) { return (warp + kWarps * i) * ChunkK; };
  float acc[4][4] = {};
#pragma unroll
  for (int i = 0; i < Ring - 1; ++i) {
    if (warp + kWarps * i < chunks) {
      issue_chunk<ChunkK, Ring, Whole>(ring + i * L::kPiece, a, b, m, n, k, block_row, block_col, chunk_k0(i), lane);
    }
    cp_async_commit();
  }
  for (int i = 0; warp + kWarps * i < chunks; ++i) {
    const int ahead = i + Ring - 1;
    if (warp + kWarps * ahead < chunks) {
      issue_chunk<ChunkK, Ring, Whole>(ring + (ahead % Ring) * L::kPiece, a, b, m, n, k, block_row, block_col,
                                       chunk_k0(ahead), lane);
    }
    cp_async_commit();
    cp_async_wait<Ring - 1>();  // this lane's copies of chunk i have landed
    __syncwarp();               // and every lane's
    const float* piece = ring + (i % Ring) * L::kPiece;
#pragma unroll
    for (int kk = 0; kk < ChunkK; kk += 4) {
      fma_four_k(piece + ty * L::kALd + kk, L::kALd, piece + L::kAPiece + kk * kBN + 4 * tx, acc);
    }
    __syncwarp();  // every lane is done with the buffer before the next issue refills it
  }
  cp_async_wait<0>();
  __syncthreads();  // every warp is done with its ring, which now holds the partial tiles

  add_partials_and_store(shared, acc, warp, ty, tx, c, m, n, block_row, block_col);
}

}  // namespace kbench::matmul::small_simt
