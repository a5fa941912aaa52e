// The tensor-core GEMV kernel (matmul_gemv.hpp, launch_gemv_mma): C = A·B for M <= 8 in fp16 and
// bf16, where B's rows are whole 16-byte vectors (N % 8 == 0, B aligned). The SIMT kernels spend
// M fp32 FMAs and a conversion on every element of B, which at 5-8 rows costs more issue slots
// than the DRAM time of the bytes; here the products are mma.sync on the transposed problem,
// C^T = B^T · A^T: each m16n8k16 MMA takes 16 columns of B by 16 rows of K as its A operand
// (ldmatrix.trans from B's rows in shared memory) and A^T (16 of K by M <= 8 rows, zeros past
// M) as its B operand, and leaves 16 columns of C^T by 8 rows in its accumulators.
//
// Block (strip x, chunk y): 8 warps over a strip of kStrip = 256 columns (the SIMT kernels'
// strip, so gemv_strips and the chunk plan are shared), walking the chunk's rows of K in steps
// of kStepRows. B moves through a ring of kStages stages by cp.async (16-byte copies, zero-filled
// past N and past the chunk), a stage's rows stored with their 16-byte pieces swizzled (piece p of
// row r at p ^ (r % 8)) so that the eight rows an ldmatrix reads fall in eight bank groups. Warp w
// takes columns 32w .. 32w + 31 of each stage (two 16-column MMA tiles); lane (g, t) = (lane / 4,
// lane % 4) loads A[g][k + 2t, k + 2t + 1] and A[g][k + 2t + 8, k + 2t + 9] as its operand, straight
// from global memory (A is small and every warp of the grid reads the same rows: L1 and L2 hits).
// The accumulators are C^T: lane (g, t) holds columns g and g + 8 of its tile for rows 2t, 2t + 1.
// One chunk stores C; several store fp32 slices that the strip's last block adds in chunk order
// (matmul_gemv_combine.cuh), or launch_split_k_reduce past kGemvInKernelMaxChunks chunks.
#include "kernels/matmul/matmul_gemv.hpp"

#include "harness/device/cuda_check.hpp"
#include "kernels/common/dtype_convert.cuh"
#include "kernels/matmul/cp_async.cuh"
#include "kernels/matmul/matmul_gemv_combine.cuh"
#include "kernels/matmul/mma_sync.cuh"

#include <cstdint>

namespace kbench::matmul {

namespace {

constexpr int kThreads = kGemvThreads;
constexpr int kStrip = kGemvMmaStrip;          // columns of B a block covers
constexpr int kWarpColumns = kStrip / kGemvWarps;  // 32: two 16-column MMA tiles
constexpr int kTiles = kWarpColumns / 16;
constexpr int kStepRows = 32;  // rows of K a stage holds
constexpr int kStages = 3;
constexpr int kRowPieces = kStrip / 8;  // 16-byte pieces of a stage row
constexpr int kStageBytes = kStepRows * kStrip * 2;
constexpr int kCopiesPerThread = kStepRows * kRowPieces / kThreads;
static_assert(kStrip == 256 && kWarpColumns % 16 == 0, "a warp takes whole 16-column tiles of the strip");
static_assert(kCopiesPerThread * kThreads == kStepRows * kRowPieces, "every thread copies as many pieces");
static_assert(kStepRows % 16 == 0, "a stage is whole MMAs deep");

/// Byte offset of piece `piece` of stage row `row` (swizzled: see the header).
__device__ __forceinline__ int piece_offset(int row, int piece) {
  return row * (kStrip * 2) + ((piece ^ (row % 8)) * 16);
}

/// Starts the copies of step `step` (rows chunk_begin + kStepRows·step ...) into `stage`.
template <typename T>
__device__ __forceinline__ void copy_step(unsigned char* stage, const T* __restrict__ b, int n, int first_col,
                                          int step_begin, int chunk_end) {
#pragma unroll
  for (int i = 0; i < kCopiesPerThread; ++i) {
    const int q = static_cast<int>(threadIdx.x) + i * kThreads;
    const int row = q / kRowPieces, piece = q % kRowPieces;
    const int k = step_begin + row, col = first_col + piece * 8;
    const bool inside = k < chunk_end && col < n;
    cp_async_16(stage + piece_offset(row, piece), inside ? b + static_cast<long long>(k) * n + col : b, inside);
  }
}

/// A's two 16-bit elements at row `row`, columns k and k + 1, packed low then high; zeros past
/// M or past the chunk's end.
template <typename T>
__device__ __forceinline__ unsigned a_pair(const T* __restrict__ a, int m, int k_total, int row, int k, int k_end) {
  unsigned short lo = 0, hi = 0;
  if (row < m) {
    const T* p = a + static_cast<long long>(row) * k_total + k;
    if (k < k_end) lo = reinterpret_cast<const unsigned short&>(p[0]);
    if (k + 1 < k_end) hi = reinterpret_cast<const unsigned short&>(p[1]);
  }
  return static_cast<unsigned>(lo) | (static_cast<unsigned>(hi) << 16);
}

template <typename T>
__global__ void __launch_bounds__(kThreads, kGemvMmaBlocksPerSm)
    gemv_mma_kernel(const T* __restrict__ a, const T* __restrict__ b, T* __restrict__ c, float* __restrict__ slices,
                    unsigned* __restrict__ tickets, int m, int n, int k, int chunk_rows) {
  extern __shared__ __align__(128) unsigned char stages[];
  __shared__ bool last_block;

  const int warp = static_cast<int>(threadIdx.x) / 32, lane = static_cast<int>(threadIdx.x) % 32;
  const int g = lane / 4, t = lane % 4;
  const int first_col = static_cast<int>(blockIdx.x) * kStrip;
  const int chunk_begin = static_cast<int>(blockIdx.y) * chunk_rows;
  const int chunk_end = min(k, chunk_begin + chunk_rows);
  const int steps = chunk_end > chunk_begin ? (chunk_end - chunk_begin + kStepRows - 1) / kStepRows : 0;

  float acc[kTiles][4] = {};

#pragma unroll
  for (int s = 0; s < kStages - 1; ++s) {
    if (s < steps) copy_step(stages + s * kStageBytes, b, n, first_col, chunk_begin + s * kStepRows, chunk_end);
    cp_async_commit();
  }
  // ldmatrix.x4.trans: lanes 8j .. 8j + 7 point at rows of matrix j = (K rows 8(j / 2) .., columns 8(j % 2) ..).
  const int matrix = lane / 8;
  const int ld_row = lane % 8 + 8 * (matrix / 2);
  const int ld_piece = (warp * kWarpColumns) / 8 + matrix % 2;
  int slot = 0;
#pragma unroll 1
  for (int step = 0; step < steps; ++step) {
    cp_async_wait<kStages - 2>();  // this thread's copies of `step` have landed
    __syncthreads();               // everyone's, and everyone is done with the stage refilled below
    const int next = step + kStages - 1;
    const int next_slot = slot == 0 ? kStages - 1 : slot - 1;
    if (next < steps) copy_step(stages + next_slot * kStageBytes, b, n, first_col, chunk_begin + next * kStepRows, chunk_end);
    cp_async_commit();

    const unsigned char* stage = stages + slot * kStageBytes;
    const int step_begin = chunk_begin + step * kStepRows;
#pragma unroll
    for (int kk = 0; kk < kStepRows; kk += 16) {
      const unsigned b0 = a_pair(a, m, k, g, step_begin + kk + 2 * t, chunk_end);
      const unsigned b1 = a_pair(a, m, k, g, step_begin + kk + 2 * t + 8, chunk_end);
#pragma unroll
      for (int tile = 0; tile < kTiles; ++tile) {
        unsigned frag[4];
        ldmatrix_x4_trans(frag, stage + piece_offset(kk + ld_row, ld_piece + 2 * tile));
        mma<T>(acc[tile], frag, b0, b1);
      }
    }
    slot = slot + 1 == kStages ? 0 : slot + 1;
  }

  // acc[tile] = C^T rows (columns of C) g and g + 8 of the tile, columns (rows of C) 2t and 2t + 1.
  const bool one_chunk = gridDim.y == 1;
  float* slice = slices + static_cast<long long>(blockIdx.y) * m * n;
#pragma unroll
  for (int tile = 0; tile < kTiles; ++tile) {
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      const int row = 2 * t + e % 2;
      const int col = first_col + warp * kWarpColumns + tile * 16 + g + 8 * (e / 2);
      if (row >= m || col >= n) continue;
      const long long at = static_cast<long long>(row) * n + col;
      if (one_chunk) {
        c[at] = from_float<T>(acc[tile][e]);
      } else {
        slice[at] = acc[tile][e];
      }
    }
  }
  if (one_chunk || tickets == nullptr) return;
  combine_strip_slices<T, kStrip>(slices, tickets, c, m, n, first_col, last_block);
}

template <typename T>
void launch(const T* a, const T* b, T* c, Dims dims, int chunks, float* slices, unsigned* tickets,
            cudaStream_t stream) {
  constexpr int kSmemBytes = kStages * kStageBytes;
  static const bool configured = [] {
    KBENCH_CUDA_CALL(
        cudaFuncSetAttribute(gemv_mma_kernel<T>, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemBytes));
    return true;
  }();
  (void)configured;
  const dim3 grid(static_cast<unsigned>(gemv_strips(dims, sizeof(T))), static_cast<unsigned>(chunks));
  gemv_mma_kernel<T><<<grid, kThreads, kSmemBytes, stream>>>(a, b, c, slices, tickets, dims.m, dims.n, dims.k,
                                                             gemv_chunk_rows(dims, chunks));
  KBENCH_CHECK_LAUNCH();
}

}  // namespace

bool gemv_mma_reads(Dims dims, std::size_t element_size, const void* b) {
  return element_size == 2 && dims.m <= kGemvMaxRows && dims.n % 8 == 0 &&
         reinterpret_cast<std::uintptr_t>(b) % 16 == 0;
}

void launch_gemv_mma(const __half* a, const __half* b, __half* c, Dims dims, int chunks, float* slices,
                     unsigned* tickets, cudaStream_t stream) {
  launch(a, b, c, dims, chunks, slices, tickets, stream);
}
void launch_gemv_mma(const __nv_bfloat16* a, const __nv_bfloat16* b, __nv_bfloat16* c, Dims dims, int chunks,
                     float* slices, unsigned* tickets, cudaStream_t stream) {
  launch(a, b, c, dims, chunks, slices, tickets, stream);
}

}  // namespace kbench::matmul
