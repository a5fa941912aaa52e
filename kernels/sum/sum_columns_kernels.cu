// Outer-axes reductions: a rows x cols tensor summed over its rows, one value per column (the
// backward pass's sum_to_shape over leading axes).
#include "kernels/sum/reduce_ops.cuh"
#include "kernels/sum/sum_column_strips.hpp"
#include "kernels/sum/sum_kernels.hpp"

#include "harness/device/cuda_check.hpp"
#include "kernels/common/launch_attributes.cuh"

#include <cooperative_groups.h>

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace kbench::sum {

namespace {

constexpr int kNaiveBlock = 256;
constexpr int kLanesX = kStripLanesX;
constexpr int kLanesY = kStripLanesY;
constexpr int kFinishBlock = 256;
constexpr int kRowUnroll = kStripRowUnroll;
constexpr int kMaxClusterChunks = 8;  ///< the portable cluster size

template <typename T>
__global__ void columns_naive_kernel(const T* __restrict__ in, T* __restrict__ out, std::int64_t rows,
                                     std::int64_t cols) {
  const std::int64_t col = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (col >= cols) return;
  float acc = 0.0f;
  for (std::int64_t r = 0; r < rows; ++r) acc += to_float(in[r * cols + col]);
  out[col] = from_float<T>(acc);
}

/// The body of every column kernel. The block covers kLanesX * W consecutive columns; each thread
/// owns W of them (W x sizeof(T) = 16 or 8 bytes loaded as one vector when every row is aligned
/// to it, else W = 1) and walks the rows of its chunk (chunk blockIdx.y of gridDim.y) with a stride of
/// kLanesY, kRowUnroll rows loaded before any is added, so a warp reads one contiguous,
/// coalesced stretch of a row per load and each thread keeps kRowUnroll loads in flight. The
/// thread's sums land in strip[ty][tx * W + w]; the call ends with a barrier.
template <typename T, int W>
__device__ __forceinline__ void accumulate_strip(const T* __restrict__ in, std::int64_t rows, std::int64_t cols,
                                                 float (*strip)[kLanesX * W + 1]) {
  const int tx = threadIdx.x, ty = threadIdx.y;
  const std::int64_t col = static_cast<std::int64_t>(blockIdx.x) * kLanesX * W + static_cast<std::int64_t>(tx) * W;
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

/// The block's sum of strip column j (0 <= j < kLanesX * W) over its kLanesY row lanes.
template <int W>
__device__ __forceinline__ float strip_column(const float (*strip)[kLanesX * W + 1], int j) {
  float sum = 0.0f;
#pragma unroll
  for (int y = 0; y < kLanesY; ++y) sum += strip[y][j];
  return sum;
}

/// Writes the block's per-column sums as partials[chunk][col].
template <int W>
__device__ __forceinline__ void write_partials(const float (*strip)[kLanesX * W + 1], float* __restrict__ partials,
                                               std::int64_t cols) {
  const std::int64_t block_col = static_cast<std::int64_t>(blockIdx.x) * kLanesX * W;
  const int flat = threadIdx.y * kLanesX + threadIdx.x;
  for (int j = flat; j < kLanesX * W; j += kLanesX * kLanesY) {
    if (block_col + j < cols) partials[blockIdx.y * cols + block_col + j] = strip_column<W>(strip, j);
  }
}

/// Stage 1 of the two-stage column reduction: one partial per column and row chunk.
template <typename T, int W>
__global__ void __launch_bounds__(kLanesX* kLanesY)
    columns_stage1_kernel(const T* __restrict__ in, float* __restrict__ partials, std::int64_t rows, std::int64_t cols) {
  __shared__ float strip[kLanesY][kLanesX * W + 1];
  allow_dependents();  // stage 2 (launch_dependent) may be placed once every block runs
  accumulate_strip<T, W>(in, rows, cols, strip);
  write_partials<W>(strip, partials, cols);
}

/// The one-pass column reduction: stage 1's blocks, then the last row-chunk block of each column
/// strip (the one that draws its strip's last ticket) adds the chunks' partials of its columns
/// in chunk order, as stage 2 does, writes them, and puts the ticket back to 0.
template <typename T, int W>
__global__ void __launch_bounds__(kLanesX* kLanesY)
    columns_one_pass_kernel(const T* __restrict__ in, float* __restrict__ partials, unsigned* __restrict__ tickets,
                            T* __restrict__ out, std::int64_t rows, std::int64_t cols) {
  __shared__ float strip[kLanesY][kLanesX * W + 1];
  __shared__ bool last_block;
  accumulate_strip<T, W>(in, rows, cols, strip);
  write_partials<W>(strip, partials, cols);
  __threadfence();  // every thread's partials are visible device-wide before the ticket is taken
  __syncthreads();
  const int flat = threadIdx.y * kLanesX + threadIdx.x;
  if (flat == 0) last_block = atomicAdd(tickets + blockIdx.x, 1u) == gridDim.y - 1;
  __syncthreads();
  if (!last_block) return;
  __threadfence();
  const std::int64_t block_col = static_cast<std::int64_t>(blockIdx.x) * kLanesX * W;
  for (int j = flat; j < kLanesX * W; j += kLanesX * kLanesY) {
    const std::int64_t col = block_col + j;
    if (col >= cols) break;
    float acc = 0.0f;
    for (unsigned k = 0; k < gridDim.y; ++k) acc += __ldcg(partials + k * cols + col);  // L2, not a stale L1
    out[col] = from_float<T>(acc);
  }
  if (flat == 0) tickets[blockIdx.x] = 0;
}

/// The small-problem one-pass column reduction (Hopper): the row chunks of a column strip form one
/// thread-block cluster (gridDim.y <= kMaxClusterChunks blocks along y). Each block pushes its
/// per-column sums into the shared memory of the cluster's block 0 (distributed shared memory,
/// once a first cluster barrier shows every block running); after a second cluster barrier
/// block 0 adds them in chunk order and writes the strip. No global
/// partials, fences or atomics: one pass over L2/DRAM and one barrier.
template <typename T, int W>
__global__ void __launch_bounds__(kLanesX* kLanesY)
    columns_cluster_kernel(const T* __restrict__ in, T* __restrict__ out, std::int64_t rows, std::int64_t cols) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  __shared__ float strip[kLanesY][kLanesX * W + 1];
  __shared__ float gathered[kMaxClusterChunks][kLanesX * W];
  namespace cg = cooperative_groups;
  const cg::cluster_group cluster = cg::this_cluster();
  // Another block's shared memory may be written only once that block runs: arrive now, wait
  // just before the pushes, so the loads overlap the barrier.
  auto every_block_started = cluster.barrier_arrive();
  accumulate_strip<T, W>(in, rows, cols, strip);
  const unsigned rank = cluster.block_rank();
  cluster.barrier_wait(std::move(every_block_started));
  float* leader = cluster.map_shared_rank(&gathered[0][0], 0);
  const int flat = threadIdx.y * kLanesX + threadIdx.x;
  for (int j = flat; j < kLanesX * W; j += kLanesX * kLanesY) leader[rank * (kLanesX * W) + j] = strip_column<W>(strip, j);
  cluster.sync();  // release the pushes, acquire them in block 0
  if (rank != 0) return;
  const std::int64_t block_col = static_cast<std::int64_t>(blockIdx.x) * kLanesX * W;
  for (int j = flat; j < kLanesX * W; j += kLanesX * kLanesY) {
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
  wait_for_primary();
  if (col >= cols) return;
  float acc = 0.0f;
  for (int k = 0; k < chunks; ++k) acc += partials[k * cols + col];
  out[col] = from_float<T>(acc);
}

/// Columns per thread: a whole 16-byte vector when every row starts 16-byte aligned.
template <typename T>
bool vectorizable(const T* in, std::int64_t cols) {
  return aligned16(in) && cols % kVector<T> == 0;
}

}  // namespace

template <typename T>
void launch_columns_naive(const T* in, T* out, std::int64_t rows, std::int64_t cols, cudaStream_t stream) {
  const auto blocks = static_cast<unsigned>((cols + kNaiveBlock - 1) / kNaiveBlock);
  columns_naive_kernel<T><<<blocks, kNaiveBlock, 0, stream>>>(in, out, rows, cols);
  KBENCH_CHECK_LAUNCH();
}

int column_chunks(std::int64_t rows, std::int64_t cols, int sm_count, std::size_t element_size) {
  const std::int64_t width = kLanesX * static_cast<std::int64_t>(16 / element_size);
  const std::int64_t column_blocks = (cols + width - 1) / width;
  // 4 blocks of 256 threads per SM, each with 4 rows in flight per thread. sum_layout_probe at
  // 8192^2 on the H100 (stage 1 alone, % of peak): 88.4 fp32 / 85.3 fp16 with 4 blocks per SM,
  // 87.2 / 79.7 with 8 (more chunks walking rows further apart at once); 256 x 1 and 128 x 2
  // thread layouts were slower still.
  const std::int64_t wanted = (4 * static_cast<std::int64_t>(sm_count) + column_blocks - 1) / column_blocks;
  const std::int64_t most = std::max<std::int64_t>(1, std::min<std::int64_t>(65535, (rows + kLanesY - 1) / kLanesY));
  return static_cast<int>(std::clamp<std::int64_t>(wanted, 1, most));
}

template <typename T>
void launch_columns_two_stage(const T* in, T* out, std::int64_t rows, std::int64_t cols, float* partials, int chunks,
                              cudaStream_t stream) {
  const dim3 block(kLanesX, kLanesY);
  if (vectorizable(in, cols)) {
    constexpr int W = kVector<T>;
    const dim3 grid(static_cast<unsigned>((cols + kLanesX * W - 1) / (kLanesX * W)), static_cast<unsigned>(chunks));
    columns_stage1_kernel<T, W><<<grid, block, 0, stream>>>(in, partials, rows, cols);
  } else if (aligned16(in) && cols >= kVector<T>) {
    launch_columns_phase(in, out, rows, cols, partials, chunks, stream);
    return;
  } else {
    const dim3 grid(static_cast<unsigned>((cols + kLanesX - 1) / kLanesX), static_cast<unsigned>(chunks));
    columns_stage1_kernel<T, 1><<<grid, block, 0, stream>>>(in, partials, rows, cols);
  }
  KBENCH_CHECK_LAUNCH();
  const auto blocks = static_cast<unsigned>((cols + kFinishBlock - 1) / kFinishBlock);
  launch_dependent<columns_stage2_kernel<T>>(dim3(blocks), dim3(kFinishBlock), 0, stream, partials, out, cols, chunks);
}

std::int64_t column_strips(const void* in, std::int64_t cols, std::size_t element_size) {
  const bool vector = aligned16(in) && cols % static_cast<std::int64_t>(16 / element_size) == 0;
  const std::int64_t width = kLanesX * (vector ? static_cast<std::int64_t>(16 / element_size) : 1);
  return (cols + width - 1) / width;
}

/// Rows up to which the one-pass column sum runs as one cluster per strip: each thread then loads
/// at most two groups of kRowUnroll rows.
constexpr std::int64_t kClusterMaxRows = kMaxClusterChunks * kLanesY * kRowUnroll * 2;

bool columns_use_cluster(std::int64_t rows, int cc_major) { return cc_major >= 9 && rows <= kClusterMaxRows; }

int columns_one_pass_chunks(std::int64_t rows, std::int64_t cols, int sm_count, std::size_t element_size, int cc_major) {
  if (columns_use_cluster(rows, cc_major)) {
    const std::int64_t rows_per_block = kLanesY * kRowUnroll;
    return static_cast<int>(std::clamp<std::int64_t>((rows + rows_per_block - 1) / rows_per_block, 1, kMaxClusterChunks));
  }
  return column_chunks(rows, cols, sm_count, element_size);
}

/// Columns per thread on the cluster path: 4 in every dtype (16-byte loads in fp32, 8-byte in
/// 16-bit), so a 16-bit strip is 128 columns as in fp32 and a small tensor spreads over twice the
/// blocks that 16-byte strips would give it (256 columns of fp16 at 256 rows: 16 blocks, not 8).
constexpr int kClusterColumns = 4;

template <typename T, int W>
void launch_cluster(const T* in, T* out, std::int64_t rows, std::int64_t cols, int chunks, cudaStream_t stream) {
  cudaLaunchConfig_t config{};
  const std::int64_t strips = (cols + kLanesX * W - 1) / (kLanesX * W);
  config.gridDim = dim3(static_cast<unsigned>(strips), static_cast<unsigned>(chunks));
  config.blockDim = dim3(kLanesX, kLanesY);
  config.stream = stream;
  cudaLaunchAttribute cluster{};
  cluster.id = cudaLaunchAttributeClusterDimension;
  cluster.val.clusterDim.x = 1;
  cluster.val.clusterDim.y = static_cast<unsigned>(chunks);
  cluster.val.clusterDim.z = 1;
  config.attrs = &cluster;
  config.numAttrs = 1;
  KBENCH_CUDA_CALL(cudaLaunchKernelEx(&config, columns_cluster_kernel<T, W>, in, out, rows, cols));
}

template <typename T>
void launch_columns_one_pass(const T* in, T* out, std::int64_t rows, std::int64_t cols, float* partials,
                             unsigned* tickets, int chunks, int cc_major, cudaStream_t stream) {
  const bool vector = vectorizable(in, cols);
  if (columns_use_cluster(rows, cc_major)) {
    if (chunks < 1 || chunks > kMaxClusterChunks) throw std::invalid_argument("sum_outer one_pass: chunks out of range");
    const bool grouped = reinterpret_cast<std::uintptr_t>(in) % (kClusterColumns * sizeof(T)) == 0 &&
                         cols % kClusterColumns == 0;
    if (grouped) launch_cluster<T, kClusterColumns>(in, out, rows, cols, chunks, stream);
    else launch_cluster<T, 1>(in, out, rows, cols, chunks, stream);
    return;
  }
  const dim3 block(kLanesX, kLanesY);
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
  template void launch_columns_one_pass<T>(const T*, T*, std::int64_t, std::int64_t, float*, unsigned*, int, int, \
                                           cudaStream_t);

KBENCH_INSTANTIATE_COLUMNS(float)
KBENCH_INSTANTIATE_COLUMNS(__half)
KBENCH_INSTANTIATE_COLUMNS(__nv_bfloat16)

}  // namespace kbench::sum
