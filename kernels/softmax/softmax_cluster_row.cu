// Softmax of long rows on Hopper: a thread-block cluster per row, each block holding its slice of
// the row in shared memory, so that DRAM sees one read and one write per element for rows far
// longer than one block's registers (vocabulary rows of 50257, rows of 131072), and a few long
// rows still spread over many SMs.
#include "kernels/softmax/softmax_auto.hpp"
#include "kernels/softmax/softmax_kernels.hpp"

#include "harness/device/cuda_check.hpp"
#include "kernels/common/flat_tile.cuh"
#include "kernels/softmax/softmax_device.cuh"

#include <cooperative_groups.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <utility>

namespace kbench::softmax {

namespace {

constexpr int kClusterBlock = 256;
constexpr int kClusterUnroll = 4;

/// Block `rank` of the cluster of row blockIdx.x / clusterDim.x takes vectors [rank x slice, +slice)
/// of the row's aligned body (aligned_span) and loads them into shared memory kClusterUnroll at a
/// time; rank 0 also holds the head elements and the last rank the tail elements, one per thread,
/// in registers. Each thread's (max, sum) comes in one of two forms:
///   - by default the load folds the vectors into the thread's online state, and the write takes
///     e^(x - row max) / row sum: two exponentials an element;
///   - StoresExponentials (cluster_stores_exponentials): the load takes the thread's maximum only,
///     a second pass over the thread's own vectors turns them into e^(x - that maximum) in place
///     and sums them, and the write multiplies by e^(thread max - row max) / row sum: one.
/// The block combines its threads' states and publishes the result in its shared memory; after a
/// cluster barrier the first warp of every block reads the cluster's states through distributed
/// shared memory and combines them in rank order (the same total, bit for bit, in every block);
/// then the block writes its slice from shared memory. A block leaves only after every block has
/// read its state (the arrive after the reads, the wait at the end). Every thread reads and
/// rewrites only its own vectors, so the second pass needs no barrier.
template <typename T, bool StoresExponentials>
__global__ void __launch_bounds__(kClusterBlock)
    softmax_cluster_row_kernel(const T* __restrict__ x, T* __restrict__ y, std::int64_t cols,
                               std::int64_t slice_vectors) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  extern __shared__ uint4 cluster_slice[];
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
  const auto* body = reinterpret_cast<const uint4*>(xr + span.head) + begin;

  MaxSum state = empty_max_sum();
  float thread_max = negative_infinity();  // StoresExponentials: the maximum of this thread's vectors
  int v = threadIdx.x;
  for (; v + (kClusterUnroll - 1) * kClusterBlock < count; v += kClusterUnroll * kClusterBlock) {
    uint4 group[kClusterUnroll];
#pragma unroll
    for (int k = 0; k < kClusterUnroll; ++k) group[k] = body[v + k * kClusterBlock];
#pragma unroll
    for (int k = 0; k < kClusterUnroll; ++k) cluster_slice[v + k * kClusterBlock] = group[k];
    if constexpr (StoresExponentials) {
#pragma unroll
      for (int k = 0; k < kClusterUnroll; ++k) thread_max = fmaxf(thread_max, vector_max<T>(group[k]));
    } else {
      state = fold_vectors<T, kClusterUnroll>(state, group);
    }
  }
  for (; v < count; v += kClusterBlock) {
    const uint4 one[1] = {body[v]};
    cluster_slice[v] = one[0];
    if constexpr (StoresExponentials) {
      thread_max = fmaxf(thread_max, vector_max<T>(one[0]));
    } else {
      state = fold_vectors<T, 1>(state, one);
    }
  }
  const float offset = exponent_offset(thread_max);  // StoresExponentials only
  if constexpr (StoresExponentials) {
    float sum = 0.0f;
    for (int w = threadIdx.x; w < count; w += kClusterBlock) {
      cluster_slice[w] = exponentiate_vector<T>(cluster_slice[w], offset, sum);
    }
    state = MaxSum{thread_max, sum};
  }
  const std::int64_t scalar_at = row_edge_element<T>(span, rank == 0, rank == blocks - 1);
  float scalar = 0.0f;
  if (scalar_at >= 0) {
    scalar = to_float(xr[scalar_at]);
    const float one[1] = {scalar};
    state = fold(state, one);
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
  // The IEEE division, not fast_reciprocal: with it ptxas gave the fp32 kernel 42 registers
  // instead of 32, and fp32 1024x50257 ran 8 % slower (148.9 -> 161.3 µs, H100; softmax NOTES).
  const float inverse_sum = 1.0f / row_state[1];
  auto* out = reinterpret_cast<uint4*>(yr + span.head) + begin;
  if constexpr (StoresExponentials) {
    const float factor = stored_exponential_scale(thread_max, offset, row_max, inverse_sum);
    for (int w = threadIdx.x; w < count; w += kClusterBlock) out[w] = scale_vector<T>(cluster_slice[w], factor);
  } else {
    for (int w = threadIdx.x; w < count; w += kClusterBlock) out[w] = normalize_vector<T>(cluster_slice[w], row_max, inverse_sum);
  }
  if (scalar_at >= 0) yr[scalar_at] = from_float<T>(exp_via_exp2(scalar - row_max) * inverse_sum);
  cluster.barrier_wait(std::move(states_read));
#else
  __trap();  // planned only on compute capability 9.0 and later (plan_cluster_row)
#endif
}

bool same_phase(const void* x, const void* y) {
  return reinterpret_cast<std::uintptr_t>(x) % 16 == reinterpret_cast<std::uintptr_t>(y) % 16;
}

cudaLaunchConfig_t cluster_config(std::int64_t rows, const ClusterRowPlan& plan, cudaLaunchAttribute* attribute,
                                  cudaStream_t stream) {
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(static_cast<unsigned>(rows * plan.blocks));
  config.blockDim = dim3(kClusterBlock);
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

/// The kernel instance of a plan (no fp32 instance that stores exponentials: none is planned).
template <typename T>
auto cluster_row_kernel(bool stores_exponentials) {
  if constexpr (cluster_may_store_exponentials(sizeof(T))) {
    if (stores_exponentials) return softmax_cluster_row_kernel<T, true>;
  }
  return softmax_cluster_row_kernel<T, false>;
}

/// How many clusters of `plan` the device holds at once (0: not one).
template <typename T>
int resident_clusters(std::int64_t rows, const ClusterRowPlan& plan) {
  const auto kernel = cluster_row_kernel<T>(plan.stores_exponentials);
  KBENCH_CUDA_CALL(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        static_cast<int>(plan.slice_vectors * 16)));
  cudaLaunchAttribute attribute{};
  const cudaLaunchConfig_t config = cluster_config(rows, plan, &attribute, nullptr);
  int clusters = 0;
  KBENCH_CUDA_CALL(cudaOccupancyMaxActiveClusters(&clusters, kernel, &config));
  return clusters;
}

}  // namespace

template <typename T>
ClusterRowPlan plan_cluster_row(const T* x, const T* y, std::int64_t rows, std::int64_t cols, int sm_count,
                                int cc_major) {
  ClusterRowPlan plan;
  if (cc_major < 9 || !same_phase(x, y) || rows < 1) return plan;
  const int blocks = cluster_row_blocks(rows, cols, sizeof(T), sm_count);
  if (blocks == 0 || rows * blocks > 0x7FFFFFFF) return plan;
  // At least one vector per slice, so that the dynamic shared memory is never empty.
  const std::int64_t slice = std::max<std::int64_t>(1, cluster_slice_vectors(cols, sizeof(T), blocks));
  ClusterRowPlan candidate{blocks, slice, cluster_may_store_exponentials(sizeof(T))};
  const int clusters = resident_clusters<T>(rows, candidate);
  if (clusters < 1) return plan;  // the device cannot hold one such cluster: the online kernel runs
  if (candidate.stores_exponentials && !cluster_stores_exponentials(sizeof(T), rows, clusters)) {
    candidate.stores_exponentials = false;  // the other instance: its own limit and residency
    if (resident_clusters<T>(rows, candidate) < 1) return plan;
  }
  return candidate;
}

template <typename T>
void launch_cluster_row(const T* x, T* y, std::int64_t rows, std::int64_t cols, const ClusterRowPlan& plan,
                        cudaStream_t stream) {
  if (plan.blocks == 0) {
    launch_online(x, y, rows, cols, stream);
    return;
  }
  if (!same_phase(x, y)) throw std::invalid_argument("softmax cluster_row: x and y moved since the plan");
  cudaLaunchAttribute attribute{};
  const cudaLaunchConfig_t config = cluster_config(rows, plan, &attribute, stream);
  KBENCH_CUDA_CALL(cudaLaunchKernelEx(&config, cluster_row_kernel<T>(plan.stores_exponentials), x, y, cols, plan.slice_vectors));
}

#define KBENCH_INSTANTIATE_CLUSTER_ROW(T)                                                                          \
  template ClusterRowPlan plan_cluster_row<T>(const T*, const T*, std::int64_t, std::int64_t, int, int);           \
  template void launch_cluster_row<T>(const T*, T*, std::int64_t, std::int64_t, const ClusterRowPlan&, cudaStream_t);

KBENCH_INSTANTIATE_CLUSTER_ROW(float)
KBENCH_INSTANTIATE_CLUSTER_ROW(__half)
KBENCH_INSTANTIATE_CLUSTER_ROW(__nv_bfloat16)

}  // namespace kbench::softmax
