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
// row r at p ^ (r % 8)) so that the eight rows an ldmatrix reads fall in eight bank groups. A's
// 8 × kStepRows elements of a step (one a thread, zeros past M and past the chunk) go with the
// stage: each thread loads its element when the step's copies start and stores it into the stage
// one step later, so the load's latency passes while the block waits for B. Warp w takes columns
// 32w .. 32w + 31 of each stage (two 16-column MMA tiles); lane (g, t) = (lane / 4, lane % 4) reads
// A[g][k + 2t, k + 2t + 1] and A[g][k + 2t + 8, k + 2t + 9] from the stage as its operand.
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
constexpr int kStepRows = kGemvMmaStepRows;  // rows of K a stage holds
constexpr int kStages = kGemvMmaStages;
constexpr int kRowPieces = kStrip / 8;  // 16-byte pieces of a stage row
constexpr int kBStageBytes = kStepRows * kStrip * 2;
/// A's rows in a stage: kStepRows elements, padded to 40 (80 bytes: the eight rows' 4-byte operand
/// reads of a warp fall in different banks).
constexpr int kARowElements = kStepRows + 8;
constexpr int kStageBytes = kBStageBytes + kGemvMaxRows * kARowElements * 2;
constexpr int kCopiesPerThread = kStepRows * kRowPieces / kThreads;
static_assert(kStrip == 256 && kWarpColumns % 16 == 0, "a warp takes whole 16-column tiles of the strip");
static_assert(kStrip == kGemvColumnLanes<16> * 8 && kStrip == kGemvColumnLanes<8> * 4,
              "gemv_strips counts the SIMT kernels' 16-bit strips: the same width");
static_assert(kCopiesPerThread * kThreads == kStepRows * kRowPieces, "every thread copies as many pieces");
static_assert(kStepRows % 16 == 0, "a stage is whole MMAs deep");
static_assert(kGemvMaxRows * kStepRows == kThreads, "a thread carries one element of A a step");
static_assert(kStages == 3, "A's element goes to the slot after the one in use (see the step loop)");
static_assert(kStageBytes % 128 == 0, "stages stay 128-byte aligned");
static_assert(kStages * kStageBytes == kGemvMmaBlockSharedBytes, "the plan's occupancy counts these stages");

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

/// The element of A a thread carries for the step from `step_begin` (row tid / kStepRows, column
/// tid % kStepRows of the step), as its 16 bits: zero past M or past the chunk's end.
template <typename T>
__device__ __forceinline__ unsigned short a_element(const T* __restrict__ a, int m, int k, int step_begin,
                                                    int chunk_end) {
  const int row = static_cast<int>(threadIdx.x) / kStepRows;
  const int col = step_begin + static_cast<int>(threadIdx.x) % kStepRows;
  if (row >= m || col >= chunk_end) return 0;
  return reinterpret_cast<const unsigned short&>(a[static_cast<long long>(row) * k + col]);
}

/// Stores that element into `stage`'s rows of A.
__device__ __forceinline__ void store_a_element(unsigned char* stage, unsigned short bits) {
  const int row = static_cast<int>(threadIdx.x) / kStepRows, col = static_cast<int>(threadIdx.x) % kStepRows;
  reinterpret_cast<unsigned short*>(stage + kBStageBytes)[row * kARowElements + col] = bits;
}

/// A's elements (row, k) and (row, k + 1) of a stage, packed low then high.
__device__ __forceinline__ unsigned a_pair(const unsigned char* stage, int row, int k) {
  return *reinterpret_cast<const unsigned*>(stage + kBStageBytes + (row * kARowElements + k) * 2);
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
    unsigned char* stage = stages + s * kStageBytes;
    if (s < steps) copy_step(stage, b, n, first_col, chunk_begin + s * kStepRows, chunk_end);
    cp_async_commit();
    store_a_element(stage, a_element(a, m, k, chunk_begin + s * kStepRows, chunk_end));
  }
  // ldmatrix.x4.trans: lanes 8j .. 8j + 7 point at rows of matrix j = (K rows 8(j / 2) .., columns 8(j % 2) ..).
  const int matrix = lane / 8;
  const int ld_row = lane % 8 + 8 * (matrix / 2);
  const int ld_piece = (warp * kWarpColumns) / 8 + matrix % 2;
  int slot = 0;
  unsigned short a_ahead = 0;  // A's element of the step whose copies started last
#pragma unroll 1
  for (int step = 0; step < steps; ++step) {
    cp_async_wait<kStages - 2>();  // this thread's copies of `step` have landed
    const int next = step + kStages - 1;
    const int next_slot = slot == 0 ? kStages - 1 : slot - 1;
    // The previous step's slot takes step `next`; the slot after this one (step + 1's, whose copies
    // the previous step started: three stages) still waits for its A. Past the last copies the
    // store goes to a slot nobody reads again.
    if (step > 0) store_a_element(stages + (slot + 1 == kStages ? 0 : slot + 1) * kStageBytes, a_ahead);
    __syncthreads();  // everyone's copies and A elements, and everyone is done with the slot refilled below
    if (next < steps) {
      copy_step(stages + next_slot * kStageBytes, b, n, first_col, chunk_begin + next * kStepRows, chunk_end);
      a_ahead = a_element(a, m, k, chunk_begin + next * kStepRows, chunk_end);
    }
    cp_async_commit();

    const unsigned char* stage = stages + slot * kStageBytes;
#pragma unroll
    for (int kk = 0; kk < kStepRows; kk += 16) {
      const unsigned b0 = a_pair(stage, g, kk + 2 * t), b1 = a_pair(stage, g, kk + 2 * t + 8);
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

void launch_gemv_mma(const __half* a, const __half* b, __half* c, Dims dims, int chunks, float* slices,
                     unsigned* tickets, cudaStream_t stream) {
  launch(a, b, c, dims, chunks, slices, tickets, stream);
}
void launch_gemv_mma(const __nv_bfloat16* a, const __nv_bfloat16* b, __nv_bfloat16* c, Dims dims, int chunks,
                     float* slices, unsigned* tickets, cudaStream_t stream) {
  launch(a, b, c, dims, chunks, slices, tickets, stream);
}

}  // namespace kbench::matmul
