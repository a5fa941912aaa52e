// fp32 SIMT matmul for few-row GEMMs (`auto` runs it for M of 17 to 128) with 8×8 outputs per lane: every k, a lane
// reads two float4 of Aᵀ (its 8 rows) and two of B (its 8 columns) and does 64 FMAs.
//
// Why beside matmul_small_simt.cu. There a lane owns R rows × 4 columns and reads, per 4 k, one
// float4 of A per row and four of B: R + 4 shared loads per 16R FMAs. A warp's LDS.128 holds the
// shared-memory pipe about 4 cycles whatever its broadcast, so the pipe allows at most R / (R + 4)
// of the FMA rate (67 % at 32 rows, 75 % at 48); and each chunk's copies, waits and warp barriers
// are paid per 512 (32 rows) FMAs a lane. Here 4 loads per 64 FMAs put the pipe's cap at the FMA
// rate itself, and a chunk of 16 k is 1024 FMAs a lane. The price: a lane's 8 rows at one k are
// contiguous only in Aᵀ, so `auto` first writes Aᵀ (launch_transpose_padded: rows padded to
// outer_at_rows(K), columns to outer_at_pitch(M), zeros outside A) into its workspace.
//
// Block tile 64×32 (lanes 8 down × 4 across) or 32×64 (4 × 8), 8 warps, chunks of kChunkK = 16 k:
// warp w owns chunks w, w + 8, ... (as in matmul_small_simt.cu: a ring of two pieces per warp,
// cp.async, no block barrier in the main loop) and the warps' partial tiles are added in shared
// memory at the end. Lane (ty, tx) owns rows 4ty .. 4ty+3 and BM/2 + 4ty .. +3, columns 4tx .. +3
// and BN/2 + 4tx .. +3: the two float4 a warp reads from an Aᵀ row are 8 (or 4) consecutive
// vectors, those from a B row 4 (or 8): no bank conflicts. Aᵀ is padded, so its copies are never
// checked; B's are: 16-byte where N is a multiple of 4 and B and C are 16-byte aligned, else
// 4-byte copies, one column a lane.
#include "kernels/matmul/matmul_kernels.hpp"

#include "harness/device/cuda_check.hpp"
#include "kernels/common/launch_attributes.cuh"
#include "kernels/matmul/cp_async.cuh"
#include "kernels/matmul/matmul_device.cuh"

#include <cstdint>
#include <stdexcept>

namespace kbench::matmul {

namespace {

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
constexpr int kChunkK = 16;
constexpr int kRing = 2;

/// The tile of kLanesDown × (32 / kLanesDown) lanes, 8×8 outputs each.
template <int kLanesDown>
struct OuterShape {
  static constexpr int kLanesAcross = 32 / kLanesDown;
  static constexpr int kBM = 8 * kLanesDown;
  static constexpr int kBN = 8 * kLanesAcross;
  static constexpr int kAPiece = kChunkK * kBM;  // [k][row], floats
  static constexpr int kBPiece = kChunkK * kBN;  // [k][col]
  static constexpr int kPiece = kAPiece + kBPiece;
  static constexpr int kSharedBytes = kWarps * kRing * kPiece * static_cast<int>(sizeof(float));  // 98,304
  static constexpr int kALanesPerRow = kBM / 4;
  static constexpr int kACopies = kAPiece / 4 / 32;    // 16-byte copies per lane and chunk: 8 or 4
  static constexpr int kBLanesPerRow = kBN / 4;
  static constexpr int kBCopies16 = kBPiece / 4 / 32;  // 4 or 8
  static constexpr int kBColumnsPerLane = kBN / 32;    // 4-byte copies: 1 or 2 columns a lane, every k
  static_assert(kWarps * kBM * kBN <= kWarps * kRing * kPiece, "the partial tiles fit in the rings");
};

template <int kLanesDown, bool kVectorB>
__device__ __forceinline__ void issue_chunk(float* piece, const float* at, int at_pitch, const float* b, int n, int k,
                                            int block_row, int block_col, int k0, int lane) {
  using S = OuterShape<kLanesDown>;
  {
    const int row = lane / S::kALanesPerRow, col = lane % S::kALanesPerRow * 4;
    constexpr int kRowsPerCopy = 32 / S::kALanesPerRow;
    const unsigned first = static_cast<unsigned>(k0 + row) * static_cast<unsigned>(at_pitch) +
                           static_cast<unsigned>(block_row + col);
#pragma unroll
    for (int i = 0; i < S::kACopies; ++i) {
      cp_async_16(piece + (row + kRowsPerCopy * i) * S::kBM + col,
                  at + (first + static_cast<unsigned>(kRowsPerCopy * i * at_pitch)), true);
    }
  }
  float* piece_b = piece + S::kAPiece;
  const unsigned un = static_cast<unsigned>(n);
  if constexpr (kVectorB) {
    const int row = lane / S::kBLanesPerRow, col = lane % S::kBLanesPerRow * 4;
    constexpr int kRowsPerCopy = 32 / S::kBLanesPerRow;
    const unsigned first = static_cast<unsigned>(k0 + row) * un + static_cast<unsigned>(block_col + col);
#pragma unroll
    for (int i = 0; i < S::kBCopies16; ++i) {
      const bool inside = k0 + row + kRowsPerCopy * i < k && block_col + col < n;
      cp_async_16(piece_b + (row + kRowsPerCopy * i) * S::kBN + col,
                  inside ? b + (first + static_cast<unsigned>(kRowsPerCopy * i) * un) : b, inside);
    }
  } else {
#pragma unroll
    for (int c = 0; c < S::kBColumnsPerLane; ++c) {
      const int col = lane + 32 * c;
      const unsigned first = static_cast<unsigned>(k0) * un + static_cast<unsigned>(block_col + col);
#pragma unroll 4
      for (int r = 0; r < kChunkK; ++r) {
        const bool inside = block_col + col < n && k0 + r < k;
        cp_async_4(piece_b + r * S::kBN + col, inside ? b + (first + static_cast<unsigned>(r) * un) : b, inside);
      }
    }
  }
}

/// kPartial: split K over blockIdx.y, as matmul_small_simt_kernel does (chunks_per_split a multiple
/// of kWarps; slice y of the M×N fp32 workspace `c`). Two blocks per SM (96 KB of shared memory
/// each), so up to 128 registers.
template <int kLanesDown, bool kVectorB, bool kPartial>
__global__ void __launch_bounds__(kThreads, 2)
    matmul_outer_simt_kernel(const float* __restrict__ at, int at_pitch, const float* __restrict__ b,
                             float* __restrict__ c, int m, int n, int k, int chunks_per_split) {
  if constexpr (kPartial) allow_dependents();  // launch_split_k_reduce's blocks may be placed
  using S = OuterShape<kLanesDown>;
  extern __shared__ __align__(16) float shared[];
  const int tiles_n = ceil_div(n, S::kBN);
  const int block_row = static_cast<int>(blockIdx.x) / tiles_n * S::kBM;
  const int block_col = static_cast<int>(blockIdx.x) % tiles_n * S::kBN;
  const int warp = static_cast<int>(threadIdx.x) / 32;
  const int lane = static_cast<int>(threadIdx.x) % 32;
  const int ty = lane / S::kLanesAcross, tx = lane % S::kLanesAcross;
  float* ring = shared + warp * kRing * S::kPiece;

  int first = 0, chunks = ceil_div(k, kChunkK);
  if constexpr (kPartial) {
    first = static_cast<int>(blockIdx.y) * chunks_per_split;
    chunks = max(0, min(chunks - first, chunks_per_split));
    c += static_cast<long long>(blockIdx.y) * m * n;
  }
  auto issue = [&](int i) {
    issue_chunk<kLanesDown, kVectorB>(ring + (i % kRing) * S::kPiece, at, at_pitch, b, n, k, block_row, block_col,
                                      (first + warp + kWarps * i) * kChunkK, lane);
  };
  float acc[8][8] = {};
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
    const float* piece_a = ring + (i % kRing) * S::kPiece;
    const float* piece_b = piece_a + S::kAPiece;
#pragma unroll
    for (int kk = 0; kk < kChunkK; ++kk) {
      const float4 a0 = *reinterpret_cast<const float4*>(piece_a + kk * S::kBM + 4 * ty);
      const float4 a1 = *reinterpret_cast<const float4*>(piece_a + kk * S::kBM + S::kBM / 2 + 4 * ty);
      const float4 b0 = *reinterpret_cast<const float4*>(piece_b + kk * S::kBN + 4 * tx);
      const float4 b1 = *reinterpret_cast<const float4*>(piece_b + kk * S::kBN + S::kBN / 2 + 4 * tx);
      const float av[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
      const float bv[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
      for (int r = 0; r < 8; ++r) {
#pragma unroll
        for (int j = 0; j < 8; ++j) acc[r][j] = fmaf(av[r], bv[j], acc[r][j]);
      }
    }
    __syncwarp();  // every lane is done with the buffer before the next issue refills it
  }
  cp_async_wait<0>();
  __syncthreads();  // every warp is done with its ring, which now holds the partial tiles

  float* partial = shared;  // [warp][row][col], kWarps × kBM × kBN floats
#pragma unroll
  for (int r = 0; r < 8; ++r) {
    const int row = (r < 4 ? 0 : S::kBM / 2) + 4 * ty + r % 4;
    float* out = partial + (warp * S::kBM + row) * S::kBN;
    *reinterpret_cast<float4*>(out + 4 * tx) = make_float4(acc[r][0], acc[r][1], acc[r][2], acc[r][3]);
    *reinterpret_cast<float4*>(out + S::kBN / 2 + 4 * tx) = make_float4(acc[r][4], acc[r][5], acc[r][6], acc[r][7]);
  }
  __syncthreads();
  // Column pair p of the tile: its partials added in warp order.
  for (int p = static_cast<int>(threadIdx.x); p < S::kBM * S::kBN / 2; p += kThreads) {
    const int r = p / (S::kBN / 2), col = 2 * (p % (S::kBN / 2));
    float2 sum = make_float2(0.0f, 0.0f);
#pragma unroll
    for (int w = 0; w < kWarps; ++w) {
      const float2 q = *reinterpret_cast<const float2*>(partial + (w * S::kBM + r) * S::kBN + col);
      sum.x += q.x;
      sum.y += q.y;
    }
    const int row = block_row + r, out_col = block_col + col;
    if (row >= m || out_col >= n) continue;
    float* out = c + static_cast<long long>(row) * n + out_col;
    if constexpr (kVectorB) {
      *reinterpret_cast<float2*>(out) = sum;  // N % 4 == 0 and C aligned: both columns inside, the pair aligned
    } else {
      out[0] = sum.x;
      if (out_col + 1 < n) out[1] = sum.y;
    }
  }
}

template <int kLanesDown, bool kVectorB, bool kPartial>
void launch_instance(const OuterOperands& x, Dims dims, dim3 grid, int chunks_per_split, cudaStream_t stream) {
  const auto kernel = matmul_outer_simt_kernel<kLanesDown, kVectorB, kPartial>;
  constexpr int kBytes = OuterShape<kLanesDown>::kSharedBytes;
  static const bool shared_memory_set = [kernel] {
    KBENCH_CUDA_CALL(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kBytes));
    return true;
  }();
  (void)shared_memory_set;
  kernel<<<grid, kThreads, kBytes, stream>>>(x.at, outer_at_pitch(dims.m), x.b, x.c, dims.m, dims.n, dims.k,
                                             chunks_per_split);
  KBENCH_CHECK_LAUNCH();
}

bool aligned16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

template <bool kPartial>
void launch_tile(const OuterOperands& x, Dims dims, OuterSimtTile tile, dim3 grid, int chunks_per_split,
                 cudaStream_t stream) {
  if (!aligned16(x.at)) throw std::invalid_argument("outer_simt: Aᵀ must be 16-byte aligned");
  if (static_cast<long long>(outer_at_rows(dims.k)) * outer_at_pitch(dims.m) >= (1LL << 31)) {
    throw std::invalid_argument("outer_simt: Aᵀ padded reaches past 2^31 elements");
  }
  const bool vector_b = dims.n % 4 == 0 && aligned16(x.b) && aligned16(x.c);
  if (tile == OuterSimtTile::rows64_cols32) {
    if (vector_b) return launch_instance<8, true, kPartial>(x, dims, grid, chunks_per_split, stream);
    return launch_instance<8, false, kPartial>(x, dims, grid, chunks_per_split, stream);
  }
  if (vector_b) return launch_instance<4, true, kPartial>(x, dims, grid, chunks_per_split, stream);
  launch_instance<4, false, kPartial>(x, dims, grid, chunks_per_split, stream);
}

unsigned tiles_of(Dims dims, OuterSimtTile tile) {
  return static_cast<unsigned>(ceil_div64(dims.m, outer_simt_rows(tile)) * ceil_div64(dims.n, outer_simt_cols(tile)));
}

}  // namespace

void launch_outer_simt(const OuterOperands& operands, Dims dims, OuterSimtTile tile, cudaStream_t stream) {
  launch_tile<false>(operands, dims, tile, dim3(tiles_of(dims, tile)), 0, stream);
}

void launch_outer_simt_partials(const OuterOperands& operands, Dims dims, int splits, OuterSimtTile tile,
                                cudaStream_t stream) {
  check_split_count("outer_simt split-K", splits);
  const int rounds = ceil_div(ceil_div(dims.k, kChunkK), kWarps);
  const int chunks_per_split = ceil_div(rounds, splits) * kWarps;
  launch_tile<true>(operands, dims, tile, dim3(tiles_of(dims, tile), static_cast<unsigned>(splits)), chunks_per_split,
                    stream);
}

void launch_transpose_a_for_outer(const float* a, int a_pitch, Dims dims, float* at, cudaStream_t stream) {
  launch_transpose_padded(a, dims.m, dims.k, a_pitch, at, outer_at_rows(dims.k), outer_at_pitch(dims.m), stream);
}

}  // namespace kbench::matmul
