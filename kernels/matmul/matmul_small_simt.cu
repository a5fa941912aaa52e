// fp32 SIMT matmul for problems too small to fill the GPU with register_blocked's 128×128 tiles
// (fewer tiles than SMs: 256³ is 4 tiles, 1024³ is 64). register_blocked's launcher hands such
// shapes here when K and N are multiples of 4.
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
// Measured on the H100 at 256³ in hot mode (NOTES.md): 3.77 µs with 4 slices of 64 threads and
// 2×4 outputs each, 3.38-3.40 µs with 8 one-warp slices interleaved within block-wide steps of
// 32 k (a __syncthreads per step), 2.88-2.90 µs like this (apps/probes/matmul_small_probe.cu and
// the targets run; 1024³ 88 → 70 µs).
#include "kernels/matmul/matmul_kernels.hpp"

#include "harness/device/cuda_check.hpp"
#include "kernels/matmul/cp_async.cuh"
#include "kernels/matmul/matmul_device.cuh"

namespace kbench::matmul {

namespace {

constexpr int kBM = 16;
constexpr int kBN = 32;
constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
constexpr int kChunkK = 16;
/// Buffers per warp. The probe measured chunks of 8 k in a ring of 4 and of 16 k in a ring of 3
/// slower at 256³ (3.13, 3.16 against 2.85 µs), and chunks of 32 k slower everywhere.
constexpr int kRing = 2;
constexpr int kALd = kChunkK + 4;  // floats per A piece row
constexpr int kAPiece = kBM * kALd;
constexpr int kBPiece = kChunkK * kBN;
constexpr int kPiece = kAPiece + kBPiece;  // floats
constexpr int kACopies = kBM * kChunkK / 4 / 32;  // 16-byte copies per lane and chunk: 2 of A, 4 of B
constexpr int kBCopies = kChunkK * kBN / 4 / 32;
constexpr int kSharedBytes = kWarps * kRing * kPiece * static_cast<int>(sizeof(float));  // 53,248
static_assert(kACopies * 32 * 4 == kBM * kChunkK && kBCopies * 32 * 4 == kChunkK * kBN, "the lanes cover a chunk");
static_assert(kWarps * kBM * kBN <= kWarps * kRing * kPiece, "the partial tiles fit in the rings");

/// Starts one lane's share of the copies of the chunk at `k0` into `piece`: two 16-byte copies
/// of A, four of B. K % 4 == 0 and N % 4 == 0, so each copy is wholly inside the matrix or wholly
/// outside it (then zero-filled; the source must still be a valid address). `Whole`: the launcher
/// saw M % 16, N % 32 and K % 16 all 0, so every copy is inside and none is checked (the checks
/// cost 0.17 µs per call at 256³ on the H100: 3.01 against 2.84 µs, NOTES.md).
template <bool Whole>
__device__ __forceinline__ void issue_chunk(float* piece, const float* a, const float* b, int m, int n, int k,
                                            int block_row, int block_col, int k0, int lane) {
#pragma unroll
  for (int i = 0; i < kACopies; ++i) {
    const int e = lane + 32 * i, r = e / (kChunkK / 4), kk = (e % (kChunkK / 4)) * 4;
    const bool inside = Whole || (block_row + r < m && k0 + kk < k);
    cp_async_16(piece + r * kALd + kk, inside ? a + static_cast<long long>(block_row + r) * k + k0 + kk : a, inside);
  }
#pragma unroll
  for (int i = 0; i < kBCopies; ++i) {
    const int e = lane + 32 * i, r = e / (kBN / 4), col = (e % (kBN / 4)) * 4;
    const bool inside = Whole || (k0 + r < k && block_col + col < n);
    cp_async_16(piece + kAPiece + r * kBN + col, inside ? b + static_cast<long long>(k0 + r) * n + block_col + col : b,
                inside);
  }
}

/// Both instantiations get 80 registers, no spills (ptxas of CUDA 13.0: `-Xptxas -v` shows whether
/// a newer one keeps that), so that three blocks fit an SM when there are more tiles than SMs
/// (1024³: 2048 blocks). The guarded one needs the bound for that (unbounded, ptxas spilled 4
/// bytes); the whole-tile one does not, and is left unbounded: bounded, it ran 2.96 µs per call at
/// 256³ on the H100 against 2.84 for the probe's unbounded copy.
///
/// kPartial: split K over blockIdx.y. Block (x, y) takes chunks y·chunks_per_split .. + chunks_per_split
/// - 1 (clipped to K; chunks_per_split a multiple of kWarps, so every split hands its warps chunks
/// in the same order) and writes its unrounded sums to slice y of the M×N fp32 workspace `c`.
template <bool Whole, bool kPartial>
__global__ void __launch_bounds__(kThreads, Whole ? 0 : 3)
    matmul_small_simt_kernel(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int m,
                             int n, int k, int chunks_per_split) {
  extern __shared__ __align__(16) float shared[];  // kWarps rings of kRing pieces; then the partials
  const int tiles_n = ceil_div(n, kBN);
  const int block_row = static_cast<int>(blockIdx.x) / tiles_n * kBM;
  const int block_col = static_cast<int>(blockIdx.x) % tiles_n * kBN;
  const int warp = static_cast<int>(threadIdx.x) / 32;
  const int lane = static_cast<int>(threadIdx.x) % 32;
  const int ty = lane / 8, tx = lane % 8;
  float* ring = shared + warp * kRing * kPiece;

  // The warp's i-th chunk is chunk first + warp + kWarps i of K, held in buffer i % kRing; the
  // block's chunks are first .. first + chunks - 1.
  int first = 0, chunks = ceil_div(k, kChunkK);
  if constexpr (kPartial) {
    first = static_cast<int>(blockIdx.y) * chunks_per_split;
    chunks = max(0, min(chunks - first, chunks_per_split));
    c += static_cast<long long>(blockIdx.y) * m * n;
  }
  auto chunk_k0 = [&](int i) { return (first + warp + kWarps * i) * kChunkK; };
  float acc[4][4] = {};
#pragma unroll
  for (int i = 0; i < kRing - 1; ++i) {
    if (warp + kWarps * i < chunks) issue_chunk<Whole>(ring + i * kPiece, a, b, m, n, k, block_row, block_col, chunk_k0(i), lane);
    cp_async_commit();
  }
  for (int i = 0; warp + kWarps * i < chunks; ++i) {
    const int ahead = i + kRing - 1;
    if (warp + kWarps * ahead < chunks) {
      issue_chunk<Whole>(ring + (ahead % kRing) * kPiece, a, b, m, n, k, block_row, block_col, chunk_k0(ahead), lane);
    }
    cp_async_commit();
    cp_async_wait<kRing - 1>();  // this lane's copies of chunk i have landed
    __syncwarp();                // and every lane's
    const float* piece = ring + (i % kRing) * kPiece;
#pragma unroll
    for (int kk = 0; kk < kChunkK; kk += 4) {
      float4 av[4], bv[4];
#pragma unroll
      for (int r = 0; r < 4; ++r) av[r] = *reinterpret_cast<const float4*>(piece + (ty + 4 * r) * kALd + kk);
#pragma unroll
      for (int j = 0; j < 4; ++j) bv[j] = *reinterpret_cast<const float4*>(piece + kAPiece + (kk + j) * kBN + 4 * tx);
#pragma unroll
      for (int r = 0; r < 4; ++r) {
        const float a_frag[4] = {av[r].x, av[r].y, av[r].z, av[r].w};
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

  float* partial = shared;  // [warp][row][col], kWarps × 16 × 32 floats
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    *reinterpret_cast<float4*>(partial + (warp * kBM + ty + 4 * i) * kBN + 4 * tx) =
        make_float4(acc[i][0], acc[i][1], acc[i][2], acc[i][3]);
  }
  __syncthreads();
  // Thread t adds the partials of row t / 16, columns 2 (t % 16) and + 1, in warp order.
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

}  // namespace

void launch_small_simt(const float* a, const float* b, float* c, Dims dims, cudaStream_t stream) {
  // 52 KB of dynamic shared memory, above the 48 KB a kernel gets without asking: asked for once
  // per process, on the device kbench runs on.
  static const bool shared_memory_set = [] {
    KBENCH_CUDA_CALL(cudaFuncSetAttribute(matmul_small_simt_kernel<true, false>,
                                          cudaFuncAttributeMaxDynamicSharedMemorySize, kSharedBytes));
    KBENCH_CUDA_CALL(cudaFuncSetAttribute(matmul_small_simt_kernel<false, false>,
                                          cudaFuncAttributeMaxDynamicSharedMemorySize, kSharedBytes));
    return true;
  }();
  (void)shared_memory_set;
  const bool whole = dims.m % kBM == 0 && dims.n % kBN == 0 && dims.k % kChunkK == 0;
  const auto kernel = whole ? matmul_small_simt_kernel<true, false> : matmul_small_simt_kernel<false, false>;
  const long long blocks = static_cast<long long>(ceil_div(dims.m, kBM)) * ceil_div(dims.n, kBN);
  kernel<<<static_cast<unsigned>(blocks), kThreads, kSharedBytes, stream>>>(a, b, c, dims.m, dims.n, dims.k, 0);
  KBENCH_CHECK_LAUNCH();
}

void launch_small_simt_partials(const float* a, const float* b, float* partials, Dims dims, int splits,
                                cudaStream_t stream) {
  check_split_count("register_blocked small-tile split-K", splits);
  static const bool shared_memory_set = [] {
    KBENCH_CUDA_CALL(cudaFuncSetAttribute(matmul_small_simt_kernel<true, true>,
                                          cudaFuncAttributeMaxDynamicSharedMemorySize, kSharedBytes));
    KBENCH_CUDA_CALL(cudaFuncSetAttribute(matmul_small_simt_kernel<false, true>,
                                          cudaFuncAttributeMaxDynamicSharedMemorySize, kSharedBytes));
    return true;
  }();
  (void)shared_memory_set;
  const bool whole = dims.m % kBM == 0 && dims.n % kBN == 0 && dims.k % kChunkK == 0;
  const auto kernel = whole ? matmul_small_simt_kernel<true, true> : matmul_small_simt_kernel<false, true>;
  const long long tiles = static_cast<long long>(ceil_div(dims.m, kBM)) * ceil_div(dims.n, kBN);
  // Whole rounds of kWarps chunks per split, so each split's warps share its chunks evenly.
  const int rounds = ceil_div(ceil_div(dims.k, kChunkK), kWarps);
  const int chunks_per_split = ceil_div(rounds, splits) * kWarps;
  const dim3 grid(static_cast<unsigned>(tiles), static_cast<unsigned>(splits));
  kernel<<<grid, kThreads, kSharedBytes, stream>>>(a, b, partials, dims.m, dims.n, dims.k, chunks_per_split);
  KBENCH_CHECK_LAUNCH();
}

}  // namespace kbench::matmul
