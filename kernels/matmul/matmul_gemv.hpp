#pragma once
/// The GEMV route: C = A·B for M of 1 to kGemvMaxRows, where the product is M weighted column sums
/// of B (K rows of N) and reading B once is the whole cost. The layout is sum_outer's column
/// strips: a block covers its column lanes × Cols columns (a 512-byte stretch of each row) and
/// walks a chunk of K with its row lanes; the chunks of a strip meet in one kernel (the last block
/// to finish adds their fp32 slices in chunk order). 16-bit B whose rows are whole 16-byte vectors
/// takes a tensor-core kernel over the same strips and chunks (matmul_gemv_mma.cu: mma.sync on
/// C^T = B^T·A^T); the rest the SIMT kernels (matmul_gemv.cu). Plan: host-only
/// (matmul_gemv_plan.cpp).

#include "kernels/matmul/matmul_problem.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace kbench::matmul {

/// The most rows of A (and C) the GEMV kernels take.
constexpr int kGemvMaxRows = 8;
/// Threads of a GEMV block, and the warps of the row lanes' count that chunks are rounded to.
constexpr int kGemvThreads = 256, kGemvWarps = 8;
/// Column lanes of a block by the bytes a lane loads per row: 32 (a warp over one 512-byte stretch
/// of a row) for 16-byte loads, 64 for 8-byte loads (two warps over one 512-byte stretch); the other
/// threads are row lanes, 8 or 4 rows apart.
template <int LoadBytes>
inline constexpr int kGemvColumnLanes = LoadBytes >= 16 ? 32 : 64;
/// Blocks per SM the chunk count aims for, and the kernel's launch bound, by the sums a thread
/// holds: 4 blocks of 256 threads (64 registers), as sum_outer's column kernels measured best on
/// the H100 (sum_columns_kernels.cu, column_chunks); 3 (85 registers) for 32 sums, which spill
/// under 64 registers (ptxas of CUDA 13.0).
constexpr int gemv_blocks_per_sm(int sums_per_thread) { return sums_per_thread >= 32 ? 3 : 4; }
/// Rows a thread loads before it uses any, on the vector path: 128 bytes in flight where it holds
/// up to 8 sums, 64 bytes beyond (the registers left beside the sums; ptxas of CUDA 13.0 spills
/// past that). The H200 run of the first form (4 rows of any width) reached 53 % of the roof at 8
/// rows of 16-bit, whose 8-byte loads kept 32 bytes in flight. The element-wise path loads 4 rows
/// (one register per element).
template <int SumsPerThread, int LoadBytes>
inline constexpr int kGemvRowsInFlight = (SumsPerThread <= 8 ? 128 : 64) / LoadBytes;
/// The tensor-core kernel (16-bit B with whole 16-byte rows; matmul_gemv_mma.cu): strips of 256
/// columns, as the SIMT kernels' 16-bit strips; kGemvMmaStages stages of kGemvMmaStepRows rows of
/// B (16 KB) and of A (8 rows, padded to 40 elements), 49.9 KB a block; at most
/// kGemvMmaBlocksPerSm blocks an SM (its launch bound: 4 on Hopper's 228 KB), and taken only where
/// at least kGemvMmaMinBlocksPerSm fit (3 on the A100's 164 KB; 1 on 100 KB parts).
constexpr int kGemvMmaStrip = 256, kGemvMmaStages = 3, kGemvMmaStepRows = 32;
constexpr std::int64_t kGemvMmaBlockSharedBytes =
    std::int64_t{kGemvMmaStages} * (kGemvMmaStepRows * kGemvMmaStrip * 2 + kGemvMaxRows * (kGemvMmaStepRows + 8) * 2);
constexpr int kGemvMmaBlocksPerSm = 4, kGemvMmaMinBlocksPerSm = 3;
/// What the CUDA runtime keeps per resident block besides the kernel's own shared memory, and the
/// kernel's static shared memory (ptxas, CUDA 13.0: 128 bytes), as the occupancy count charges them.
constexpr std::int64_t kSharedBytesReservedPerBlock = 1024, kGemvMmaStaticSharedBytes = 128;
/// The fewest rows of K a chunk takes: 8 per warp.
constexpr int kGemvMinChunkRows = 64;
/// Up to this many chunks, the last block of a strip adds the chunks' slices inside the kernel (a
/// thread loads all of its up to 32 slices before adding any); more chunks write their
/// slices for launch_split_k_reduce, a second kernel (never more than kMaxSplitK chunks).
constexpr int kGemvInKernelMaxChunks = 32;

/// The most workspace a GEMV plan takes (matmul's auto cap, kAutoWorkspaceCapBytes): chunks are
/// cut until their slices and tickets fit.
constexpr std::size_t kGemvWorkspaceCapBytes = std::size_t{32} << 20;

/// Rows the kernel computes for `m` (1, 2, 4 or 8: C's rows past m are computed from zeros and
/// never stored).
int gemv_rows(int m);

/// Columns per thread: 4 in fp32 (16-byte loads); in 16-bit 8 (16 bytes) up to 4 rows and 4 (8
/// bytes) at 5-8 rows, so a thread holds at most 32 sums.
int gemv_columns(int m, std::size_t element_size);

/// Blocks of the tensor-core kernel an SM with `shared_memory_per_sm` bytes holds (at most
/// kGemvMmaBlocksPerSm; 0 where unknown).
int gemv_mma_blocks_per_sm(std::int64_t shared_memory_per_sm);

/// Whether the tensor-core kernel takes `dims` on an SM of `shared_memory_per_sm` bytes: 16-bit,
/// M <= kGemvMaxRows, N a multiple of 8, and kGemvMmaMinBlocksPerSm blocks resident. B's alignment
/// is checked at launch (gemv_mma_reads).
bool gemv_mma_takes(Dims dims, std::size_t element_size, std::int64_t shared_memory_per_sm);

/// gemv_mma_takes, and `b` 16-byte aligned (B's rows whole 16-byte vectors): what launch_gemv checks.
bool gemv_mma_reads(Dims dims, std::size_t element_size, const void* b, std::int64_t shared_memory_per_sm);

/// Blocks per SM the chunk plan fills: the tensor-core kernel's where it takes the shape, else
/// gemv_blocks_per_sm of the SIMT kernel's sums.
int gemv_resident_blocks_per_sm(Dims dims, std::size_t element_size, std::int64_t shared_memory_per_sm);

/// Column strips (blocks along N).
int gemv_strips(Dims dims, std::size_t element_size);

/// Chunks of K (blocks along K per strip): the fewest that fill kGemvMinWaveFill of their last wave
/// of gemv_resident_blocks_per_sm blocks per SM (else the best fill), each chunk at least
/// kGemvMinChunkRows rows and at most kMaxSplitK chunks, then evened out so that none is empty.
int gemv_chunks(Dims dims, std::size_t element_size, int sm_count, std::int64_t shared_memory_per_sm);
/// The share of the last wave that gemv_chunks asks its blocks to fill: strips × chunks blocks
/// over waves of resident ones (a last wave of few blocks leaves SMs idle: the H200's bf16
/// 1x151936x1024, 594 strips for 528 resident blocks, ran at 80 % of the roof in one chunk).
constexpr double kGemvMinWaveFill = 0.95;

/// The most chunks gemv_chunks gives `dims`: kMaxSplitK, one per kGemvMinChunkRows rows of K, and
/// as many as kGemvWorkspaceCapBytes holds (at least 1).
int gemv_most_chunks(Dims dims, std::size_t element_size);

/// Rows of K per chunk.
int gemv_chunk_rows(Dims dims, int chunks);

/// Workspace of a call with `chunks` chunks: none for one chunk; else chunks × M × N fp32 slices
/// followed by one ticket (unsigned) per strip, rounded up to 256 bytes. The tickets must be zero
/// before the first call (cudaMemset once); every call leaves them zero.
std::size_t gemv_workspace_bytes(Dims dims, std::size_t element_size, int chunks);

/// Empty when the GEMV kernels run `dims`, else why not.
std::string gemv_unsupported(Dims dims);

/// The tensor-core kernel (matmul_gemv_mma.cu) over `chunks` chunks: slices and tickets as in
/// gemv_workspace_bytes (null for one chunk; tickets null past kGemvInKernelMaxChunks, whose
/// slices the caller adds). Called by launch_gemv where gemv_mma_reads holds.
void launch_gemv_mma(const __half* a, const __half* b, __half* c, Dims dims, int chunks, float* slices,
                     unsigned* tickets, cudaStream_t stream);
void launch_gemv_mma(const __nv_bfloat16* a, const __nv_bfloat16* b, __nv_bfloat16* c, Dims dims, int chunks,
                     float* slices, unsigned* tickets, cudaStream_t stream);

/// C = A·B with M <= kGemvMaxRows over `chunks` chunks of K (gemv_chunks), `workspace` as
/// gemv_workspace_bytes says (null for one chunk). One kernel up to kGemvInKernelMaxChunks chunks,
/// then two; sums in fp32 in a fixed order (rows of a warp, warps, chunks), C rounded once.
/// Chunks past K's end sum nothing (their slices are zeros). Throws std::invalid_argument for
/// M > kGemvMaxRows, chunks outside 1..kMaxSplitK or a missing workspace.
void launch_gemv(const float* a, const float* b, float* c, Dims dims, int chunks, void* workspace,
                 cudaStream_t stream);
void launch_gemv(const __half* a, const __half* b, __half* c, Dims dims, int chunks, void* workspace,
                 cudaStream_t stream);
void launch_gemv(const __nv_bfloat16* a, const __nv_bfloat16* b, __nv_bfloat16* c, Dims dims, int chunks,
                 void* workspace, cudaStream_t stream);

}  // namespace kbench::matmul
