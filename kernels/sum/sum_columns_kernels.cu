// Outer-axes reductions: a rows x cols tensor summed over its rows, one value per column (the
// backward pass's sum_to_shape over leading axes).
#include "kernels/sum/reduce_ops.cuh"
#include "kernels/sum/sum_kernels.hpp"

#include "harness/cuda_check.hpp"

#include <cooperative_groups.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

namespace kbench::sum {

namespace {

constexpr int kNaiveBlock = 256;
constexpr int kFinishBlock = 256;
constexpr int kMaxClusterChunks = 8;  ///< the portable cluster size

/// How a block's threads cover a column strip: X column lanes (consecutive lanes read consecutive
/// columns of one row) x Y row lanes, each thread loading U rows before it adds any of them.
template <int X, int Y, int U>
struct Lanes {
  static constexpr int x = X, y = Y, unroll = U, threads = X * Y;
};
/// two_stage, the ticket path and the small clusters.
using NarrowLanes = Lanes<32, 8, 4>;
/// The large clusters: 16 x 16 with 8 rows in flight. Timed as bare reads of 8192^2 in one
/// process on the H100 (sum_handoff_probe, % of peak, fp16 / fp32): 86.0 / 89.4 against 83.0 /
/// 88.3 for NarrowLanes.
using WideLanes = Lanes<16, 16, 8>;

template <typename T>
__global__ void columns_naive_kernel(const T* __restrict__ in, T* __restrict__ out, std::int64_t rows,
                                     std::int64_t cols) {
  const std::int64_t col = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (col >= cols) return;
  float acc = 0.0f;
  for (std::int64_t r = 0; r < rows; ++r) acc += to_float(in[r * cols + col]);
  out[col] = from_float<T>(acc);
}

/// The unsigned vector type of `Bytes` bytes that a thread loads its W columns of a row as.
template <int Bytes>
struct LoadOf;
template <>
struct LoadOf<16> {
  using type = uint4;
};
template <>
struct LoadOf<8> {
  using type = uint2;
};

/// The body of every column kernel, for blocks of L::x x L::y threads. The block covers L::x * W
/// consecutive columns; each thread owns W of them (W x sizeof(T) = 16 or 8 bytes loaded as one
/// vector when every row is aligned to it, else W = 1) and walks the rows of its chunk (chunk
/// blockIdx.y of gridDim.y) with a stride of L::y, L::unroll rows loaded before any is added, so
/// the lanes read contiguous, coalesced stretches of a row and each thread keeps L::unroll loads
/// in flight. The thread's sums land in strip[ty][tx * W + w]; the call ends with a barrier.
template <typename T, int W, typename L>
__device__ __forceinline__ void accumulate_strip(const T* __restrict__ in, std::int64_t rows, std::int64_t cols,
                                                 float (*strip)[L::x * W + 1]) {
  constexpr int kRowUnroll = L::unroll, kLanesY = L::y;
  const int tx = threadIdx.x, ty = threadIdx.y;
  const std::int64_t col = static_cast<std::int64_t>(blockIdx.x) * L::x * W + static_cast<std::int64_t>(tx) * W;
  const std::int64_t rows_per_chunk = (rows + gridDim.y - 1) / gridDim.y;
  const std::int64_t row_begin = blockIdx.y * rows_per_chunk;
  const std::int64_t row_end = min(rows, row_begin + rows_per_chunk);

  float acc[W];
#pragma unroll
  for (int w = 0; w < W; ++w) acc[w] = 0.0f;
  if (col < cols) {
    if constexpr (W > 1) {
      using Load = typename LoadOf<W * sizeof(T)>::type;
      std::int64_t r = row_begin + ty;
      for (; r + (kRowUnroll - 1) * kLanesY < row_end; r += kRowUnroll * kLanesY) {
        Load v[kRowUnroll];
#pragma unroll
        for (int u = 0; u < kRowUnroll; ++u) v[u] = *reinterpret_cast<const Load*>(in + (r + u * kLanesY) * cols + col);
#pragma unroll
        for (int u = 0; u < kRowUnroll; ++u) {
          T elements[W];
          memcpy(elements, &v[u], sizeof(Load));
#pragma unroll
          for (int w = 0; w < W; ++w) acc[w] += to_float(elements[w]);
        }
      }
      for (; r < row_end; r += kLanesY) {
        const Load v = *reinterpret_cast<const Load*>(in + r * cols + col);
        T elements[W];
        memcpy(elements, &v, sizeof(Load));
#pragma unroll
        for (int w = 0; w < W; ++w) acc[w] += to_float(elements[w]);
      }
    } else {
      for (std::int64_t r = row_begin + ty; r < row_end; r += kLanesY) acc[0] += to_float(in[r * cols + col]);
    }
  }
#pragma unroll
  for (int w = 0; w < W; ++w) strip[ty][tx * W + w] = acc[w];
  __syncthreads();
}

/// The block's sum of strip column j (0 <= j < L::x * W) over its L::y row lanes.
template <int W, typename L>
__device__ __forceinline__ float strip_column(const float (*strip)[L::x * W + 1], int j) {
  float sum = 0.0f;
#pragma unroll
  for (int y = 0; y < L::y; ++y) sum += strip[y][j];
  return sum;
}

/// Writes the block's per-column sums as partials[chunk][col].
template <int W, typename L>
__device__ __forceinline__ void write_partials(const float (*strip)[L::x * W + 1], float* __restrict__ partials,
                                               std::int64_t cols) {
  const std::int64_t block_col = static_cast<std::int64_t>(blockIdx.x) * L::x * W;
  const int flat = threadIdx.y * L::x + threadIdx.x;
  for (int j = flat; j < L::x * W; j += L::threads) {
    if (block_col + j < cols) partials[blockIdx.y * cols + block_col + j] = strip_column<W, L>(strip, j);
  }
}

/// Stage 1 of the two-stage column reduction: one partial per column and row chunk.
template <typename T, int W>
__global__ void __launch_bounds__(NarrowLanes::threads)
    columns_stage1_kernel(const T* __restrict__ in, float* __restrict__ partials, std::int64_t rows, std::int64_t cols) {
  using L = NarrowLanes;
  __shared__ float strip[L::y][L::x * W + 1];
  accumulate_strip<T, W, L>(in, rows, cols, strip);
  write_partials<W, L>(strip, partials, cols);
}

/// The one-pass column reduction: stage 1's blocks, then the last row-chunk block of each column
/// strip (the one that draws its strip's last ticket) adds the chunks' partials of its columns
/// in chunk order, as stage 2 does, writes them, and puts the ticket back to 0.
template <typename T, int W>
__global__ void __launch_bounds__(NarrowLanes::threads)
    columns_one_pass_kernel(const T* __restrict__ in, float* __restrict__ partials, unsigned* __restrict__ tickets,
                            T* __restrict__ out, std::int64_t rows, std::int64_t cols) {
  using L = NarrowLanes;
  __shared__ float strip[L::y][L::x * W + 1];
  __shared__ bool last_block;
  accumulate_strip<T, W, L>(in, rows, cols, strip);
  write_partials<W, L>(strip, partials, cols);
  __threadfence();  // every thread's partials are visible device-wide before the ticket is taken
  __syncthreads();
  const int flat = threadIdx.y * L::x + threadIdx.x;
  if (flat == 0) last_block = atomicAdd(tickets + blockIdx.x, 1u) == gridDim.y - 1;
  __syncthreads();
  if (!last_block) return;
  __threadfence();
  const std::int64_t block_col = static_cast<std::int64_t>(blockIdx.x) * L::x * W;
  for (int j = flat; j < L::x * W; j += L::threads) {
    const std::int64_t col = block_col + j;
    if (col >= cols) break;
    float acc = 0.0f;
    for (unsigned k = 0; k < gridDim.y; ++k) acc += __ldcg(partials + k * cols + col);  // L2, not a stale L1
    out[col] = from_float<T>(acc);
  }
  if (flat == 0) tickets[blockIdx.x] = 0;
}

/// The one-pass column reduction on Hopper: the row chunks of a column strip form one thread-block
/// cluster (gridDim.y <= kMaxClusterChunks blocks along y). Each block pushes its per-column sums
/// into the shared memory of the cluster's block 0 (distributed shared memory, once a first
/// cluster barrier shows every block running); after a second cluster barrier block 0 adds them
/// in chunk order and writes the strip. No global partials, fences or atomics: one pass over
/// L2/DRAM and one barrier. NarrowLanes for small tensors, WideLanes for large ones. At 8192^2 on
/// the H100 the ticket path's hand-off (a fence per thread, a ticket, the last block of a strip
/// reading every chunk's partials back) cost 2 us over bare reads of the same layout (fp16
/// 48.9 against 46.9 us, sum_handoff_probe).
template <typename T, int W, typename L>
__global__ void __launch_bounds__(L::threads)
    columns_cluster_kernel(const T* __restrict__ in, T* __restrict__ out, std::int64_t rows, std::int64_t cols) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  __shared__ float strip[L::y][L::x * W + 1];
  __shared__ float gathered[kMaxClusterChunks][L::x * W];
  namespace cg = cooperative_groups;
  const cg::cluster_group cluster = cg::this_cluster();
  // Another block's shared memory may be written only once that block runs: arrive now, wait
  // just before the pushes, so the loads below overlap the barrier.
  auto every_block_started = cluster.barrier_arrive();
  accumulate_strip<T, W, L>(in, rows, cols, strip);
  const unsigned rank = cluster.block_rank();
  cluster.barrier_wait(std::move(every_block_started));
  float* leader = cluster.map_shared_rank(&gathered[0][0], 0);
  const int flat = threadIdx.y * L::x + threadIdx.x;
  for (int j = flat; j < L::x * W; j += L::threads) leader[rank * (L::x * W) + j] = strip_column<W, L>(strip, j);
  cluster.sync();  // release the pushes, acquire them in block 0
  if (rank != 0) return;
  const std::int64_t block_col = static_cast<std::int64_t>(blockIdx.x) * L::x * W;
  for (int j = flat; j < L::x * W; j += L::threads) {
    if (block_col + j >= cols) break;
    float acc = 0.0f;
    for (unsigned k = 0; k < cluster.num_blocks(); ++k) acc += gathered[k][j];
    out[block_col + j] = from_float<T>(acc);
  }
#else
  __trap();  // launched only on compute capability 9.0 and later (launch_columns_one_pass checks)
#endif
}

/// Stage 2: one thread per column adds up the chunks' partials.
template <typename T>
__global__ void columns_stage2_kernel(const float* __restrict__ partials, T* __restrict__ out, std::int64_t cols,
                                      int chunks) {
  const std::int64_t col = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (col >= cols) return;
  float acc = 0.0f;
  for (int k = 0; k < chunks; ++k) acc += partials[k * cols + col];
  out[col] = from_float<T>(acc);
}

/// Columns per thread: a whole 16-byte vector when every row starts 16-byte aligned.
template <typename T>
bool vectorizable(const T* in, std::int64_t cols) {
  return reinterpret_cast<std::uintptr_t>(in) % 16 == 0 && cols % kVector<T> == 0;
}

}  // namespace

template <typename T>
void launch_columns_naive(const T* in, T* out, std::int64_t rows, std::int64_t cols, cudaStream_t stream) {
  const auto blocks = static_cast<unsigned>((cols + kNaiveBlock - 1) / kNaiveBlock);
  columns_naive_kernel<T><<<blocks, kNaiveBlock, 0, stream>>>(in, out, rows, cols);
  KBENCH_CHECK_LAUNCH();
}

int column_chunks(std::int64_t rows, std::int64_t cols, int sm_count, std::size_t element_size) {
  const std::int64_t width = NarrowLanes::x * static_cast<std::int64_t>(16 / element_size);
  const std::int64_t column_blocks = (cols + width - 1) / width;
  // 4 blocks of 256 threads per SM, each with 4 rows in flight per thread. sum_layout_probe at
  // 8192^2 on the H100 (stage 1 alone, % of peak): 88.4 fp32 / 85.3 fp16 with 4 blocks per SM,
  // 87.2 / 79.7 with 8 (more chunks walking rows further apart at once); 256 x 1 and 128 x 2
  // thread layouts were slower still.
  const std::int64_t wanted = (4 * static_cast<std::int64_t>(sm_count) + column_blocks - 1) / column_blocks;
  const std::int64_t most =
      std::max<std::int64_t>(1, std::min<std::int64_t>(65535, (rows + NarrowLanes::y - 1) / NarrowLanes::y));
  return static_cast<int>(std::clamp<std::int64_t>(wanted, 1, most));
}

template <typename T>
void launch_columns_two_stage(const T* in, T* out, std::int64_t rows, std::int64_t cols, float* partials, int chunks,
                              cudaStream_t stream) {
  using L = NarrowLanes;
  const dim3 block(L::x, L::y);
  if (vectorizable(in, cols)) {
    constexpr int W = kVector<T>;
    const dim3 grid(static_cast<unsigned>((cols + L::x * W - 1) / (L::x * W)), static_cast<unsigned>(chunks));
    columns_stage1_kernel<T, W><<<grid, block, 0, stream>>>(in, partials, rows, cols);
  } else {
    const dim3 grid(static_cast<unsigned>((cols + L::x - 1) / L::x), static_cast<unsigned>(chunks));
    columns_stage1_kernel<T, 1><<<grid, block, 0, stream>>>(in, partials, rows, cols);
  }
  KBENCH_CHECK_LAUNCH();
  const auto blocks = static_cast<unsigned>((cols + kFinishBlock - 1) / kFinishBlock);
  columns_stage2_kernel<T><<<blocks, kFinishBlock, 0, stream>>>(partials, out, cols, chunks);
  KBENCH_CHECK_LAUNCH();
}

std::int64_t column_strips(const void* in, std::int64_t cols, std::size_t element_size) {
  const bool vector = reinterpret_cast<std::uintptr_t>(in) % 16 == 0 && cols % static_cast<std::int64_t>(16 / element_size) == 0;
  const std::int64_t width = NarrowLanes::x * (vector ? static_cast<std::int64_t>(16 / element_size) : 1);
  return (cols + width - 1) / width;
}

namespace {

/// Rows up to which the one-pass column sum runs as small clusters (NarrowLanes, kClusterColumns
/// columns per thread): each thread then loads at most two groups of rows.
constexpr std::int64_t kSmallClusterMaxRows = kMaxClusterChunks * NarrowLanes::y * NarrowLanes::unroll * 2;

/// Columns per thread on the small cluster path: 4 in every dtype (16-byte loads in fp32, 8-byte
/// in 16-bit), so a 16-bit strip is 128 columns as in fp32 and a small tensor spreads over twice
/// the blocks that 16-byte strips would give it (256 columns of fp16 at 256 rows: 16 blocks, not 8).
constexpr int kClusterColumns = 4;

/// Column strips of WideLanes blocks: 16-byte vectors per thread where the rows allow them.
std::int64_t wide_strips(const void* in, std::int64_t cols, std::size_t element_size) {
  const bool vector = reinterpret_cast<std::uintptr_t>(in) % 16 == 0 && cols % static_cast<std::int64_t>(16 / element_size) == 0;
  const std::int64_t width = WideLanes::x * (vector ? static_cast<std::int64_t>(16 / element_size) : 1);
  return (cols + width - 1) / width;
}

}  // namespace

ColumnsOnePassPlan plan_columns_one_pass(const void* in, std::int64_t rows, std::int64_t cols, int sm_count,
                                         std::size_t element_size, int cc_major) {
  using Path = ColumnsOnePassPlan::Path;
  if (cc_major >= 9 && rows <= kSmallClusterMaxRows) {
    const std::int64_t rows_per_block = NarrowLanes::y * NarrowLanes::unroll;
    const auto chunks = std::clamp<std::int64_t>((rows + rows_per_block - 1) / rows_per_block, 1, kMaxClusterChunks);
    return {Path::small_cluster, static_cast<int>(chunks)};
  }
  // Large clusters when a cluster per strip still gives at least 3 blocks per SM; each cluster
  // as many row chunks as 4 blocks per SM want, at most the portable cluster size.
  const std::int64_t strips = wide_strips(in, cols, element_size);
  if (cc_major >= 9 && strips * kMaxClusterChunks >= 3 * static_cast<std::int64_t>(sm_count)) {
    const std::int64_t wanted = (4 * static_cast<std::int64_t>(sm_count) + strips - 1) / strips;
    const std::int64_t most = std::min<std::int64_t>(kMaxClusterChunks, (rows + WideLanes::y - 1) / WideLanes::y);
    return {Path::large_cluster, static_cast<int>(std::clamp<std::int64_t>(wanted, 1, most))};
  }
  return {Path::tickets, column_chunks(rows, cols, sm_count, element_size)};
}

namespace {

template <typename T, int W, typename L>
void launch_cluster(const T* in, T* out, std::int64_t rows, std::int64_t cols, int chunks, cudaStream_t stream) {
  cudaLaunchConfig_t config{};
  const std::int64_t strips = (cols + L::x * W - 1) / (L::x * W);
  config.gridDim = dim3(static_cast<unsigned>(strips), static_cast<unsigned>(chunks));
  config.blockDim = dim3(L::x, L::y);
  config.stream = stream;
  cudaLaunchAttribute cluster{};
  cluster.id = cudaLaunchAttributeClusterDimension;
  cluster.val.clusterDim.x = 1;
  cluster.val.clusterDim.y = static_cast<unsigned>(chunks);
  cluster.val.clusterDim.z = 1;
  config.attrs = &cluster;
  config.numAttrs = 1;
  KBENCH_CUDA_CALL(cudaLaunchKernelEx(&config, columns_cluster_kernel<T, W, L>, in, out, rows, cols));
}

}  // namespace

template <typename T>
void launch_columns_one_pass(const T* in, T* out, std::int64_t rows, std::int64_t cols, float* partials,
                             unsigned* tickets, const ColumnsOnePassPlan& plan, cudaStream_t stream) {
  using Path = ColumnsOnePassPlan::Path;
  const bool vector = vectorizable(in, cols);
  const int chunks = plan.chunks;
  if (plan.path != Path::tickets && (chunks < 1 || chunks > kMaxClusterChunks)) {
    throw std::invalid_argument("sum_outer one_pass: a cluster of " + std::to_string(chunks) + " row chunks (1 to " +
                                std::to_string(kMaxClusterChunks) + " expected)");
  }
  if (plan.path == Path::small_cluster) {
    const bool grouped = reinterpret_cast<std::uintptr_t>(in) % (kClusterColumns * sizeof(T)) == 0 &&
                         cols % kClusterColumns == 0;
    if (grouped) launch_cluster<T, kClusterColumns, NarrowLanes>(in, out, rows, cols, chunks, stream);
    else launch_cluster<T, 1, NarrowLanes>(in, out, rows, cols, chunks, stream);
    return;
  }
  if (plan.path == Path::large_cluster) {
    if (vector) launch_cluster<T, kVector<T>, WideLanes>(in, out, rows, cols, chunks, stream);
    else launch_cluster<T, 1, WideLanes>(in, out, rows, cols, chunks, stream);
    return;
  }
  if (chunks < 1) throw std::invalid_argument("sum_outer one_pass: chunks must be at least 1");
  const dim3 block(NarrowLanes::x, NarrowLanes::y);
  const dim3 grid(static_cast<unsigned>(column_strips(in, cols, sizeof(T))), static_cast<unsigned>(chunks));
  if (vector) {
    columns_one_pass_kernel<T, kVector<T>><<<grid, block, 0, stream>>>(in, partials, tickets, out, rows, cols);
  } else {
    columns_one_pass_kernel<T, 1><<<grid, block, 0, stream>>>(in, partials, tickets, out, rows, cols);
  }
  KBENCH_CHECK_LAUNCH();
}

#define KBENCH_INSTANTIATE_COLUMNS(T)                                                                        \
  template void launch_columns_naive<T>(const T*, T*, std::int64_t, std::int64_t, cudaStream_t);              \
  template void launch_columns_two_stage<T>(const T*, T*, std::int64_t, std::int64_t, float*, int, cudaStream_t); \
  template void launch_columns_one_pass<T>(const T*, T*, std::int64_t, std::int64_t, float*, unsigned*,          \
                                           const ColumnsOnePassPlan&, cudaStream_t);

KBENCH_INSTANTIATE_COLUMNS(float)
KBENCH_INSTANTIATE_COLUMNS(__half)
KBENCH_INSTANTIATE_COLUMNS(__nv_bfloat16)

}  // namespace kbench::sum
