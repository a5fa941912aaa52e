// Softmax of few long rows on Hopper with the bulk copy engine: a cluster of up to 16 blocks per
// row (cluster_bulk_blocks), each block asking for its whole slice of the row at once with
// cp.async.bulk, so that every SM has all its bytes in flight from the first clock instead of a
// few vectors per thread; the row's (max, sum) meets through distributed shared memory, y is
// computed in place and leaves by bulk stores. Rows no such cluster holds run grid_row or online
// (the variant in softmax_op.cpp).
#include "kernels/softmax/softmax_auto.hpp"
#include "kernels/softmax/softmax_kernels.hpp"

#include "harness/device/cuda_check.hpp"
#include "kernels/common/bulk_copy.cuh"
#include "kernels/common/flat_tile.cuh"
#include "kernels/softmax/softmax_device.cuh"

#include <cooperative_groups.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <utility>

namespace kbench::softmax {

namespace {

constexpr int kBulkBlock = kBulkBlockThreads;
/// A slice arrives in pieces of kPieceBytes, each on its own mbarrier, so that the threads fold the
/// first pieces while the later ones are in flight; y leaves piece by piece the same way.
constexpr std::int64_t kPieceBytes = 8 * 1024;
constexpr int kPieceVectors = static_cast<int>(kPieceBytes / 16);
constexpr int kPieces = static_cast<int>((kBulkSliceMost + kPieceBytes - 1) / kPieceBytes);
/// The thread that holds tail element i is kTailThread + i (the head's are threads 0..head - 1),
/// so that a cluster of one never gives one thread two elements.
constexpr int kTailThread = 32;

/// Block `rank` of the cluster of row blockIdx.x / clusterDim.x takes vectors [rank x slice, +slice)
/// of the row's aligned body (aligned_span). Thread 0 starts the bulk copies of all its pieces
/// (one mbarrier each); the threads fold each piece as it lands; rank 0 also holds the head
/// elements and the last rank the tail elements, one per thread, in registers. The block's state
/// is published in its shared memory; after a cluster barrier the first warp of every block
/// combines the cluster's states in rank order (the same total, bit for bit, in every block). Then
/// piece by piece: the threads overwrite x with y in shared memory, a proxy fence and a block
/// barrier, and thread 0 bulk-stores the piece. Thread 0 waits until the stores have read shared
/// memory before the block leaves, and no block leaves before every block has read its state.
template <typename T>
__global__ void __launch_bounds__(kBulkBlock)
    softmax_cluster_bulk_row_kernel(const T* __restrict__ x, T* __restrict__ y, std::int64_t cols,
                                    std::int64_t slice_vectors) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  extern __shared__ uint4 bulk_slice[];
  __shared__ alignas(8) std::uint64_t piece_ready[kPieces];
  __shared__ float published[2];  ///< this block's (max, sum)
  __shared__ float row_state[2];  ///< the row's (max, sum)
  namespace cg = cooperative_groups;
  const cg::cluster_group cluster = cg::this_cluster();
  const unsigned rank = cluster.block_rank();
  const unsigned blocks = cluster.num_blocks();
  const std::int64_t row = blockIdx.x / blocks;
  const T* xr = x + row * cols;
  T* yr = y + row * cols;
  const AlignedSpan span = aligned_span(xr, cols);
  const std::int64_t begin = static_cast<std::int64_t>(rank) * slice_vectors;
  const std::int64_t remaining = span.vectors - begin;
  const int count = static_cast<int>(remaining < 0 ? 0 : (remaining < slice_vectors ? remaining : slice_vectors));
  const int pieces = (count + kPieceVectors - 1) / kPieceVectors;
  const auto* body = reinterpret_cast<const uint4*>(xr + span.head) + begin;

  if (threadIdx.x == 0) {
    for (int p = 0; p < pieces; ++p) bulk::barrier_init(&piece_ready[p]);
    bulk::fence_barrier_init();
    for (int p = 0; p < pieces; ++p) {
      const int first = p * kPieceVectors;
      const auto bytes = static_cast<std::uint32_t>(min(kPieceVectors, count - first)) * 16u;
      bulk::arrive_expect_bytes(&piece_ready[p], bytes);
      bulk::load_bulk(bulk_slice + first, body + first, bytes, &piece_ready[p]);
    }
  }
  // The head and tail elements while the pieces fly.
  std::int64_t scalar_at = -1;  // the row element this thread holds in a register, if any
  if (rank == 0 && threadIdx.x < span.head) scalar_at = threadIdx.x;
  const int tail_index = static_cast<int>(threadIdx.x) - kTailThread;
  if (rank == blocks - 1 && tail_index >= 0 && tail_index < span.tail) {
    scalar_at = span.head + span.vectors * kVector<T> + tail_index;
  }
  float scalar = 0.0f;
  MaxSum state = empty_max_sum();
  if (scalar_at >= 0) {
    scalar = to_float(xr[scalar_at]);
    const float one[1] = {scalar};
    state = fold(state, one);
  }
  __syncthreads();  // the mbarriers are initialised before any thread waits on them

  for (int p = 0; p < pieces; ++p) {
    bulk::wait_phase(&piece_ready[p], 0);
    const int end = min(count, (p + 1) * kPieceVectors);
    int v = p * kPieceVectors + static_cast<int>(threadIdx.x);
    for (; v + kBulkBlock < end; v += 2 * kBulkBlock) {
      const uint4 two[2] = {bulk_slice[v], bulk_slice[v + kBulkBlock]};
      state = fold_vectors<T, 2>(state, two);
    }
    if (v < end) {
      const uint4 one[1] = {bulk_slice[v]};
      state = fold_vectors<T, 1>(state, one);
    }
  }

  const MaxSum block_state = block_combine(state);
  if (threadIdx.x == 0) {
    published[0] = block_state.m;
    published[1] = block_state.d;
  }
  cluster.sync();  // every block has published (and runs, so its shared memory may be read)
  if (threadIdx.x < 32) {
    MaxSum s = empty_max_sum();
    if (threadIdx.x < blocks) {
      const float* remote = cluster.map_shared_rank(published, threadIdx.x);
      s = MaxSum{remote[0], remote[1]};
    }
    s = warp_combine(s);
    if (threadIdx.x == 0) {
      row_state[0] = s.m;
      row_state[1] = s.d;
    }
  }
  auto states_read = cluster.barrier_arrive();
  __syncthreads();
  const float row_max = row_state[0];
  const float inverse_sum = 1.0f / row_state[1];

  auto* out = reinterpret_cast<uint4*>(yr + span.head) + begin;
  for (int p = 0; p < pieces; ++p) {
    const int first = p * kPieceVectors;
    const int n = min(kPieceVectors, count - first);
    for (int v = first + static_cast<int>(threadIdx.x); v < first + n; v += kBulkBlock) {
      bulk_slice[v] = normalize_vector<T>(bulk_slice[v], row_max, inverse_sum);
    }
    bulk::fence_proxy_async_shared();  // this thread's y before the bulk store reads it
    __syncthreads();
    if (threadIdx.x == 0) {
      bulk::store_bulk(out + first, bulk_slice + first, static_cast<std::uint32_t>(n) * 16u);
      bulk::commit_bulk();
    }
  }
  if (scalar_at >= 0) yr[scalar_at] = from_float<T>(exp_via_exp2(scalar - row_max) * inverse_sum);
  if (threadIdx.x == 0) bulk::wait_bulk_reads<0>();  // the slice stays until the stores have read it
  cluster.barrier_wait(std::move(states_read));
#else
  __trap();  // planned only on compute capability 9.0 and later (plan_cluster_bulk_row)
#endif
}

bool same_phase(const void* x, const void* y) {
  return reinterpret_cast<std::uintptr_t>(x) % 16 == reinterpret_cast<std::uintptr_t>(y) % 16;
}

cudaLaunchConfig_t bulk_config(std::int64_t rows, const ClusterRowPlan& plan, cudaLaunchAttribute* attribute,
                               cudaStream_t stream) {
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(static_cast<unsigned>(rows * plan.blocks));
  config.blockDim = dim3(kBulkBlock);
  config.dynamicSmemBytes = static_cast<std::size_t>(plan.slice_vectors) * 16;
  config.stream = stream;
  attribute->id = cudaLaunchAttributeClusterDimension;
  attribute->val.clusterDim.x = static_cast<unsigned>(plan.blocks);
  attribute->val.clusterDim.y = 1;
  attribute->val.clusterDim.z = 1;
  config.attrs = attribute;
  config.numAttrs = 1;
  return config;
}

}  // namespace

template <typename T>
ClusterRowPlan plan_cluster_bulk_row(const T* x, const T* y, std::int64_t rows, std::int64_t cols, int sm_count,
                                     int cc_major) {
  ClusterRowPlan plan;
  if (cc_major < 9 || !same_phase(x, y) || rows < 1) return plan;
  const auto kernel = softmax_cluster_bulk_row_kernel<T>;
  KBENCH_CUDA_CALL(cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  // The largest slice any plan makes, so that a plan never narrows another's limit.
  KBENCH_CUDA_CALL(
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(kBulkSliceMost)));
  // Clusters of 16 where the device holds one, else of 8 (the portable size).
  for (int most = kBulkClusterMaxBlocks; most >= kClusterMaxBlocks; most /= 2) {
    const int blocks = cluster_bulk_blocks(rows, cols, sizeof(T), sm_count, most);
    if (blocks == 0 || rows * blocks > 0x7FFFFFFF) continue;
    const std::int64_t slice = std::max<std::int64_t>(1, cluster_slice_vectors(cols, sizeof(T), blocks));
    const ClusterRowPlan candidate{blocks, slice};
    cudaLaunchAttribute attribute{};
    const cudaLaunchConfig_t config = bulk_config(rows, candidate, &attribute, nullptr);
    int clusters = 0;
    KBENCH_CUDA_CALL(cudaOccupancyMaxActiveClusters(&clusters, kernel, &config));
    if (clusters >= 1) return candidate;
  }
  return plan;
}

template <typename T>
void launch_cluster_bulk_row(const T* x, T* y, std::int64_t rows, std::int64_t cols, const ClusterRowPlan& plan,
                             cudaStream_t stream) {
  if (plan.blocks == 0) throw std::invalid_argument("softmax cluster_bulk_row: no plan holds this problem");
  if (!same_phase(x, y)) throw std::invalid_argument("softmax cluster_bulk_row: x and y moved since the plan");
  cudaLaunchAttribute attribute{};
  const cudaLaunchConfig_t config = bulk_config(rows, plan, &attribute, stream);
  KBENCH_CUDA_CALL(cudaLaunchKernelEx(&config, softmax_cluster_bulk_row_kernel<T>, x, y, cols, plan.slice_vectors));
}

#define KBENCH_INSTANTIATE_CLUSTER_BULK_ROW(T)                                                                   \
  template ClusterRowPlan plan_cluster_bulk_row<T>(const T*, const T*, std::int64_t, std::int64_t, int, int);    \
  template void launch_cluster_bulk_row<T>(const T*, T*, std::int64_t, std::int64_t, const ClusterRowPlan&, \
                                           cudaStream_t);

KBENCH_INSTANTIATE_CLUSTER_BULK_ROW(float)
KBENCH_INSTANTIATE_CLUSTER_BULK_ROW(__half)
KBENCH_INSTANTIATE_CLUSTER_BULK_ROW(__nv_bfloat16)

}  // namespace kbench::softmax
