// Full reductions: every element of the tensor into one value.
#include "kernels/sum/reduce_ops.cuh"
#include "kernels/sum/sum_kernels.hpp"

#include "harness/device/cuda_check.hpp"
#include "kernels/common/device_flags.cuh"

#include <cooperative_groups.h>

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace kbench::sum {

namespace {

constexpr int kBlock = 256;
constexpr int kFinalBlock = 1024;
/// 16-byte loads each thread of the one-pass kernels issues before folding any of them.
constexpr int kUnroll = 4;
/// The small-problem path: one cluster of kClusterBlocks blocks of kClusterBlock threads.
constexpr int kClusterBlocks = 8;
constexpr int kClusterBlock = 512;
/// The smallest problems: one block of kSingleBlock threads, each loading up to kSingleLoads
/// vectors at once (128 KB: 256² in 16-bit).
constexpr int kSingleBlock = 1024;
constexpr int kSingleLoads = 8;
constexpr std::int64_t kSingleBlockMaxVectors = std::int64_t{kSingleBlock} * kSingleLoads;
/// Vectors up to which the one-pass sum runs as one cluster: at most two groups of kUnroll loads
/// per thread.
constexpr std::int64_t kClusterMaxVectors = std::int64_t{kClusterBlocks} * kClusterBlock * kUnroll * 2;
/// The tiles path: blocks of kBlock threads an SM holds at once (2048 threads), and the most
/// consecutive 16 KB tiles one block takes (full_one_pass_blocks).
constexpr int kResidentBlocksPerSm = 2048 / kBlock;
constexpr int kMostTilesPerBlock = 4;

template <typename T>
__global__ void full_atomic_kernel(const T* __restrict__ in, std::int64_t n, float* accumulator) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(accumulator, to_float(in[i]));
}

template <typename T>
__global__ void cast_one(const float* value, T* out) {
  *out = from_float<T>(*value);
}

/// Stage 1. Each thread keeps two independent fp32 accumulators (two 16-byte loads in flight per
/// iteration), walks the tensor with a grid stride, and the block folds its threads' sums into
/// one partial. Elements past the last whole vector are summed by the first threads.
template <typename T>
__global__ void __launch_bounds__(kBlock)
    full_stage1_kernel(const T* __restrict__ in, std::int64_t n, float* __restrict__ partials) {
  __shared__ float scratch[32];
  const SumOp op;
  const std::int64_t thread = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  float acc0 = 0.0f, acc1 = 0.0f;
  std::int64_t tail_start = 0;
  if (aligned16(in)) {
    const std::int64_t vectors = n / kVector<T>;
    const auto* in4 = reinterpret_cast<const uint4*>(in);
    std::int64_t i = thread;
    for (; i + stride < vectors; i += 2 * stride) {
      const uint4 a = in4[i];
      const uint4 b = in4[i + stride];
      acc0 = fold_vector<T>(a, acc0, op);
      acc1 = fold_vector<T>(b, acc1, op);
    }
    if (i < vectors) acc0 = fold_vector<T>(in4[i], acc0, op);
    tail_start = vectors * kVector<T>;
  }
  for (std::int64_t i = tail_start + thread; i < n; i += stride) acc0 += to_float(in[i]);
  const float block_sum = block_reduce(acc0 + acc1, op, scratch);
  if (threadIdx.x == 0) partials[blockIdx.x] = block_sum;
}

/// Stage 2: one block folds the partials and writes the result in T.
template <typename T>
__global__ void __launch_bounds__(kFinalBlock) full_stage2_kernel(const float* __restrict__ partials, int count, T* out) {
  __shared__ float scratch[32];
  float acc = 0.0f;
  for (int i = threadIdx.x; i < count; i += blockDim.x) acc += partials[i];
  acc = block_reduce(acc, SumOp{}, scratch);
  if (threadIdx.x == 0) *out = from_float<T>(acc);
}

/// Workers per counter of the one-pass full sum: the collector folds a group's partials as soon
/// as its counter is full, one float4 per collector thread (kBlock x 4), while later groups are
/// still being read.
constexpr int kGroupWorkers = kBlock * 4;

/// Adds this thread's float4 of group `group`'s partials (partials[group * kGroupWorkers, +count),
/// 16-byte aligned) to `acc`, in a fixed order, read through L2 (__ldcg: other blocks wrote them,
/// so no L1 line may be trusted).
__device__ __forceinline__ float fold_group(const float* __restrict__ partials, unsigned group, unsigned count,
                                            float acc) {
  const unsigned first = group * kGroupWorkers + 4 * threadIdx.x;
  const unsigned end = group * kGroupWorkers + count;
  if (first + 4 <= end) {
    const float4 v = __ldcg(reinterpret_cast<const float4*>(partials + first));
    return acc + ((v.x + v.y) + (v.z + v.w));
  }
  for (unsigned i = first; i < end; ++i) acc += __ldcg(partials + i);
  return acc;
}

/// The one-pass full reduction: gridDim.x - 1 worker blocks and one collector, block 0.
///
/// Worker w (block w + 1) folds the contiguous chunk of `chunk` 16-byte vectors starting at vector
/// w x chunk, kUnroll loads in flight per thread into kUnroll accumulators; the scalar elements
/// (the n % kVector<T> past the last vector, or all of them when `in` is not 16-byte aligned) are
/// folded grid-stride over the workers. Thread 0 writes the block's partial and counts it with a
/// release add, and the block leaves: no returned ticket to wait for and no barrier after it (a
/// relaxed add, timed once as a diagnostic, measured the same: the release costs nothing visible).
/// Workers count on one counter per group of kGroupWorkers. The collector takes the groups in
/// order: it waits (acquire loads, backing off) until a group's counter is full, folds that group's
/// partials (fold_group: each thread adds the same positions in the same order whichever worker
/// finished last, so the result is deterministic) and puts the counter back to 0 for the next
/// call; then it writes out[0]. Blocks start roughly in index order, so the early groups are
/// folded while later ones are still reading. It holds one block slot while it waits; the workers
/// never wait for it, so every one of them can run.
///
/// Measured at 8192^2 on the H100 (cold, median, fp32 / fp16): with a ticket instead (fence,
/// atomicAdd, the last block folds) 94.8 / 50.7 us (84.5 / 79.0 % of peak): each block stays
/// resident for a fence and an atomic round trip after its loads; with a collector that folded
/// every partial after the last count 91.9 / 49.5 us (87.1 / 80.9 %), group by group as here
/// 89.7 / 48.4 us (89.2 / 82.7 %); sum_layout_probe's tiles, ending in a fire-and-forget float atomic (no
/// order, no fence), 87.9 / 45.5 us. Posting each sum with a call tag in one 8-byte relaxed store
/// (no fence at all) and having the collector poll every post was slower: 107.1 / 52.2 us.
template <typename T>
__global__ void __launch_bounds__(kBlock)
    full_one_pass_kernel(const T* __restrict__ in, std::int64_t n, std::int64_t chunk, float* __restrict__ partials,
                         unsigned* __restrict__ counters, T* __restrict__ out) {
  __shared__ float scratch[32];
  const SumOp op;
  const unsigned workers = gridDim.x - 1;
  if (blockIdx.x == 0) {
    // Groups in order; a group's partials are folded as soon as its counter is full, so when the
    // last worker counts, only its own group is left to read.
    float acc = 0.0f;
    const unsigned groups = (workers + kGroupWorkers - 1) / kGroupWorkers;
    for (unsigned g = 0; g < groups; ++g) {
      const unsigned count = min(workers - g * kGroupWorkers, static_cast<unsigned>(kGroupWorkers));
      if (threadIdx.x == 0) {
        while (load_acquire(counters + g) != count) __nanosleep(64);
        counters[g] = 0;  // no worker of this call touches it again; the next call starts after this one
      }
      __syncthreads();  // the other threads read the group's partials after thread 0's acquire
      acc = fold_group(partials, g, count, acc);
    }
    const float total = block_reduce(acc, op, scratch);
    if (threadIdx.x == 0) *out = from_float<T>(total);
    return;
  }
  const std::int64_t worker = blockIdx.x - 1;
  float acc[kUnroll];
#pragma unroll
  for (int u = 0; u < kUnroll; ++u) acc[u] = 0.0f;
  std::int64_t vectors = 0;
  if (aligned16(in)) {
    vectors = n / kVector<T>;
    const std::int64_t end = min(vectors, (worker + 1) * chunk);
    fold_vectors_strided<T>(reinterpret_cast<const uint4*>(in), worker * chunk + threadIdx.x, end, kBlock, acc, op);
  }
  const std::int64_t stride = static_cast<std::int64_t>(workers) * kBlock;
  for (std::int64_t i = vectors * kVector<T> + worker * kBlock + threadIdx.x; i < n; i += stride) {
    acc[0] += to_float(in[i]);
  }
  const float block_sum = block_reduce((acc[0] + acc[1]) + (acc[2] + acc[3]), op, scratch);
  if (threadIdx.x == 0) {
    partials[worker] = block_sum;
    add_release(counters + worker / kGroupWorkers, 1u);
  }
}

/// The smallest problems (at most kSingleBlockMaxVectors vectors): one block, every thread's
/// vectors loaded at once (absent ones as zeros), then one block reduction: one load round trip
/// and no hand-off between blocks at all. On the H100 at 256² in hot mode: fp16 2.03 µs, bf16
/// 2.16 µs, against 2.90 µs for the 8-block cluster below (NOTES.md).
template <typename T>
__global__ void __launch_bounds__(kSingleBlock)
    full_single_block_kernel(const T* __restrict__ in, std::int64_t n, T* __restrict__ out) {
  __shared__ float scratch[32];
  const SumOp op;
  float acc = 0.0f;
  std::int64_t vectors = 0;
  if (aligned16(in)) {
    vectors = n / kVector<T>;
    const auto* in4 = reinterpret_cast<const uint4*>(in);
    uint4 v[kSingleLoads];
#pragma unroll
    for (int u = 0; u < kSingleLoads; ++u) {
      const std::int64_t i = threadIdx.x + std::int64_t{u} * kSingleBlock;
      v[u] = i < vectors ? in4[i] : make_uint4(0, 0, 0, 0);  // zero bits are +0 in every dtype
    }
#pragma unroll
    for (int u = 0; u < kSingleLoads; ++u) acc = fold_vector<T>(v[u], acc, op);
  }
  for (std::int64_t i = vectors * kVector<T> + threadIdx.x; i < n; i += kSingleBlock) acc += to_float(in[i]);
  const float total = block_reduce(acc, op, scratch);
  if (threadIdx.x == 0) *out = from_float<T>(total);
}

/// The small-problem one-pass full reduction (Hopper): the grid is one cluster of kClusterBlocks
/// blocks striding over the tensor with kUnroll 16-byte loads in flight per thread. Each block
/// pushes its sum into block 0's shared memory (distributed shared memory, once a first cluster
/// barrier shows every block running); after a second cluster barrier block 0 adds the
/// kClusterBlocks sums in rank order and writes out[0]. No global partials, fences or atomics.
template <typename T>
__global__ void __launch_bounds__(kClusterBlock)
    full_cluster_kernel(const T* __restrict__ in, std::int64_t n, T* __restrict__ out) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  __shared__ float scratch[32];
  __shared__ float block_sums[kClusterBlocks];
  namespace cg = cooperative_groups;
  const cg::cluster_group cluster = cg::this_cluster();
  // Another block's shared memory may be written only once that block runs: arrive now, wait
  // just before the push, so the loads below overlap the barrier.
  auto every_block_started = cluster.barrier_arrive();
  const SumOp op;
  float acc[kUnroll];
#pragma unroll
  for (int u = 0; u < kUnroll; ++u) acc[u] = 0.0f;
  constexpr std::int64_t kThreads = std::int64_t{kClusterBlocks} * kClusterBlock;
  const std::int64_t thread = static_cast<std::int64_t>(blockIdx.x) * kClusterBlock + threadIdx.x;
  std::int64_t vectors = 0;
  if (aligned16(in)) {
    vectors = n / kVector<T>;
    fold_vectors_strided<T>(reinterpret_cast<const uint4*>(in), thread, vectors, kThreads, acc, op);
  }
  for (std::int64_t i = vectors * kVector<T> + thread; i < n; i += kThreads) acc[0] += to_float(in[i]);
  const float block_sum = block_reduce((acc[0] + acc[1]) + (acc[2] + acc[3]), op, scratch);
  const unsigned rank = cluster.block_rank();
  cluster.barrier_wait(std::move(every_block_started));
  if (threadIdx.x == 0) *cluster.map_shared_rank(&block_sums[rank], 0) = block_sum;
  cluster.sync();  // release the pushes, acquire them in block 0
  if (rank == 0 && threadIdx.x == 0) {
    float total = 0.0f;
    for (int b = 0; b < kClusterBlocks; ++b) total += block_sums[b];
    *out = from_float<T>(total);
  }
#else
  __trap();  // launched only on compute capability 9.0 and later (launch_full_one_pass checks)
#endif
}

}  // namespace

template <typename T>
void launch_full_atomic(const T* in, T* out, std::int64_t n, float* accumulator, cudaStream_t stream) {
  KBENCH_CUDA_CALL(cudaMemsetAsync(accumulator, 0, sizeof(float), stream));
  const std::int64_t blocks = (n + kBlock - 1) / kBlock;
  full_atomic_kernel<T><<<static_cast<unsigned>(blocks), kBlock, 0, stream>>>(in, n, accumulator);
  KBENCH_CHECK_LAUNCH();
  cast_one<T><<<1, 1, 0, stream>>>(accumulator, out);
  KBENCH_CHECK_LAUNCH();
}

int full_two_stage_blocks(std::int64_t n, int sm_count) {
  // Two vectors of 8 (fp16) or 4 (fp32) elements per thread and iteration: aim for at least a
  // few iterations per thread, at most two blocks per SM of partials to fold in stage 2.
  const std::int64_t wanted = (n + kBlock * 64 - 1) / (kBlock * 64);
  return static_cast<int>(std::clamp<std::int64_t>(wanted, 1, std::min(kFinalBlock, 8 * sm_count)));
}

template <typename T>
void launch_full_two_stage(const T* in, T* out, std::int64_t n, float* partials, int blocks, cudaStream_t stream) {
  full_stage1_kernel<T><<<blocks, kBlock, 0, stream>>>(in, n, partials);
  KBENCH_CHECK_LAUNCH();
  full_stage2_kernel<T><<<1, kFinalBlock, 0, stream>>>(partials, blocks, out);
  KBENCH_CHECK_LAUNCH();
}

/// The one-pass sum's three paths, by size; full_one_pass_blocks and launch_full_one_pass both
/// ask here, so they cannot disagree.
namespace {
enum class OnePassPath { single_block, cluster, tiles };

OnePassPath one_pass_path(std::int64_t vectors, int cc_major) {
  if (vectors <= kSingleBlockMaxVectors) return OnePassPath::single_block;
  if (cc_major >= 9 && vectors <= kClusterMaxVectors) return OnePassPath::cluster;
  return OnePassPath::tiles;
}
}  // namespace

template <typename T>
int full_one_pass_blocks(std::int64_t n, int cc_major, int sm_count) {
  if (sm_count < 1) throw std::invalid_argument("sum one_pass: sm_count must be at least 1");
  const std::int64_t vectors = n / kVector<T>;
  switch (one_pass_path(vectors, cc_major)) {
    case OnePassPath::single_block: return 1;
    case OnePassPath::cluster: return kClusterBlocks;
    case OnePassPath::tiles: break;
  }
  // Tiles of kBlock x kUnroll vectors (16 KB), each block taking 1 to kMostTilesPerBlock
  // consecutive ones: each block issues its loads and leaves, and the blocks in flight read one
  // sliding window of the tensor. sum_layout_probe measured one tile a block at 87.7 % (fp16) and
  // 91.1 % (fp32) of the H100's peak for 8192^2, against 82.7-83.4 % and 87.9-88.3 % for a resident
  // wave of blocks each walking its own contiguous chunk (this kernel's earlier layout). Where the
  // tiles fill every resident slot more than once, a block takes several (NOTES.md, "Tiles per
  // block"): on the H200 (cold µs, one tile → four) fp32 268435456 280.3 → 244.0, 8192^2 fp32 75.2
  // → 66.4 and fp16 40.1 → 36.3, fp16 33554431 22.8 → 21.4: a block's launch, its block reduction
  // and its release cost the same for 16 KB as for 64 KB.
  const std::int64_t tiles = (vectors + kBlock * kUnroll - 1) / (kBlock * kUnroll);
  const std::int64_t resident = std::int64_t{kResidentBlocksPerSm} * sm_count;
  const std::int64_t per_block = std::clamp<std::int64_t>(tiles / resident, 1, kMostTilesPerBlock);
  const std::int64_t blocks = (tiles + per_block - 1) / per_block;
  if (blocks >= 0x7FFFFFFF) throw std::invalid_argument("sum one_pass: too many elements for a 1-D grid");
  return static_cast<int>(std::max<std::int64_t>(1, blocks));
}

int full_one_pass_counters(int blocks) { return (blocks + kGroupWorkers - 1) / kGroupWorkers; }

template <typename T>
void launch_full_one_pass(const T* in, T* out, std::int64_t n, float* partials, unsigned* counters, int blocks,
                          int cc_major, cudaStream_t stream) {
  if (blocks < 1) throw std::invalid_argument("sum one_pass: blocks must be at least 1");
  const std::int64_t vectors = n / kVector<T>;
  const OnePassPath path = one_pass_path(vectors, cc_major);
  if (path == OnePassPath::single_block) {
    full_single_block_kernel<T><<<1, kSingleBlock, 0, stream>>>(in, n, out);
    KBENCH_CHECK_LAUNCH();
    return;
  }
  if (path == OnePassPath::cluster) {
    cudaLaunchConfig_t config{};
    config.gridDim = dim3(kClusterBlocks);
    config.blockDim = dim3(kClusterBlock);
    config.stream = stream;
    cudaLaunchAttribute cluster{};
    cluster.id = cudaLaunchAttributeClusterDimension;
    cluster.val.clusterDim.x = kClusterBlocks;
    cluster.val.clusterDim.y = 1;
    cluster.val.clusterDim.z = 1;
    config.attrs = &cluster;
    config.numAttrs = 1;
    KBENCH_CUDA_CALL(cudaLaunchKernelEx(&config, full_cluster_kernel<T>, in, n, out));
    return;
  }
  // Vectors per block, rounded up to whole kBlock x kUnroll tiles so chunks start tile-aligned.
  const std::int64_t tile = kBlock * kUnroll;
  const std::int64_t chunk = std::max<std::int64_t>(1, ((vectors + blocks - 1) / blocks + tile - 1) / tile) * tile;
  if (blocks >= 0x7FFFFFFF) throw std::invalid_argument("sum one_pass: too many blocks for a 1-D grid");
  full_one_pass_kernel<T><<<blocks + 1, kBlock, 0, stream>>>(in, n, chunk, partials, counters, out);  // + the collector
  KBENCH_CHECK_LAUNCH();
}

#define KBENCH_INSTANTIATE_FULL(T)                                                                   \
  template void launch_full_atomic<T>(const T*, T*, std::int64_t, float*, cudaStream_t);             \
  template void launch_full_two_stage<T>(const T*, T*, std::int64_t, float*, int, cudaStream_t);     \
  template int full_one_pass_blocks<T>(std::int64_t, int, int);                                      \
  template void launch_full_one_pass<T>(const T*, T*, std::int64_t, float*, unsigned*, int, int, cudaStream_t);

KBENCH_INSTANTIATE_FULL(float)
KBENCH_INSTANTIATE_FULL(__half)
KBENCH_INSTANTIATE_FULL(__nv_bfloat16)

}  // namespace kbench::sum
