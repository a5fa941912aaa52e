// Outer-axes sums of up to kFlatColumnsMaxCols columns of any width: the tensor read as one flat
// stream of 16-byte vectors, per-column sums kept in registers, one kernel.
//
// Why it works for any width: a window of `threads` x kVector elements is a whole number of
// column periods (flat_columns_threads makes `threads` a multiple of cols / gcd(cols, kVector)),
// so the element that lane l of thread t loads in any window sits at offset t * kVector + l of
// the window, whose column is (t * kVector + l) % cols, the same in every window. Each thread
// adds its kVector lanes into kVector registers and never needs to know a row boundary: no
// shared-memory staging of tiles (narrow_columns), no one-column-per-thread 2-4-byte loads on
// rows that are not whole vectors (two_stage, one_pass), no second launch.
#include "kernels/sum/reduce_ops.cuh"
#include "kernels/sum/sum_kernels.hpp"

#include "harness/device/cuda_check.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

namespace kbench::sum {

namespace {

/// 40 registers keep 1536 threads on an SM (the batch of the last windows would take 48).
constexpr int kFlatMaxRegisters = 40;
constexpr int kFlatThreadsPerSm = 1536;  ///< resident threads aimed at: 4 x 16 B in flight each, ~96 KB per SM
constexpr int kFlatUnroll = 4;           ///< windows each thread loads before adding any
constexpr int kFlatExchangeUnroll = 4;   ///< atomic exchanges each thread of the last block has in flight
constexpr int kFlatMaxEntries = 2048;    ///< slots x cols at most (flat_columns_slots)
/// Atomic adds a call may issue (blocks x cols), above two blocks per SM: they all land at the end
/// of the call, so the grid shrinks for wide tensors (1024 columns: 2 blocks per SM, not 6).
constexpr std::int64_t kFlatAtomicBudget = 128 * 1024;

/// The kVector elements at flat index e (a multiple of kVector) as one 16-byte vector: one load
/// when the tensor is 16-byte aligned, kVector element loads otherwise.
template <typename T, bool kAligned>
__device__ __forceinline__ uint4 load_group(const T* __restrict__ in, std::int64_t e) {
  if constexpr (kAligned) {
    return *reinterpret_cast<const uint4*>(in + e);
  } else {
    T x[kVector<T>];
#pragma unroll
    for (int l = 0; l < kVector<T>; ++l) x[l] = in[e + l];
    uint4 v;
    memcpy(&v, x, sizeof(v));
    return v;
  }
}

/// The last, partial group: elements below n, zeros after them.
template <typename T>
__device__ __forceinline__ uint4 load_group_tail(const T* __restrict__ in, std::int64_t e, std::int64_t n) {
  T x[kVector<T>];
#pragma unroll
  for (int l = 0; l < kVector<T>; ++l) x[l] = e + l < n ? in[e + l] : from_float<T>(0.0f);
  uint4 v;
  memcpy(&v, x, sizeof(v));
  return v;
}

template <typename T>
__device__ __forceinline__ void add_group(uint4 v, float (&acc)[kVector<T>]) {
  T x[kVector<T>];
  memcpy(x, &v, sizeof(v));
#pragma unroll
  for (int l = 0; l < kVector<T>; ++l) acc[l] += to_float(x[l]);
}

/// See launch_columns_flat (sum_kernels.hpp). Dynamic shared memory: blockDim.x x kVector floats.
template <typename T, bool kAligned>
__global__ void __maxnreg__(kFlatMaxRegisters)
    columns_flat_kernel(const T* __restrict__ in, T* __restrict__ out, std::int64_t n, int cols,
                        float* __restrict__ scratch, unsigned* __restrict__ counter, int slots) {
  constexpr int V = kVector<T>;
  extern __shared__ float4 flat_columns_lane_sums[];
  __shared__ float parts[kFlatMaxEntries];
  __shared__ bool last_block;
  const int threads = blockDim.x, t = threadIdx.x;
  const std::int64_t window = static_cast<std::int64_t>(threads) * V;
  const std::int64_t full_windows = n / window;
  const std::int64_t stride = gridDim.x;
  const std::int64_t offset = static_cast<std::int64_t>(t) * V;

  // 1. Stream the windows blockIdx.x, + gridDim.x, ... in batches of kFlatUnroll whose loads are
  //    all out before any is added. What is left, fewer than kFlatUnroll whole windows and the
  //    short last window where it is this block's turn, is one more batch: a block of a small
  //    tensor walks only a few windows, and one load at a time would cost a round trip each.
  float acc[V];
#pragma unroll
  for (int l = 0; l < V; ++l) acc[l] = 0.0f;
  std::int64_t w = blockIdx.x;
  for (; w + (kFlatUnroll - 1) * stride < full_windows; w += kFlatUnroll * stride) {
    uint4 held[kFlatUnroll];
#pragma unroll
    for (int u = 0; u < kFlatUnroll; ++u) held[u] = load_group<T, kAligned>(in, (w + u * stride) * window + offset);
#pragma unroll
    for (int u = 0; u < kFlatUnroll; ++u) add_group<T>(held[u], acc);
  }
  uint4 rest[kFlatUnroll];
#pragma unroll
  for (int u = 0; u < kFlatUnroll; ++u) {
    const std::int64_t e = (w + u * stride) * window + offset;
    if (w + u * stride < full_windows) rest[u] = load_group<T, kAligned>(in, e);
    else if (w + u * stride == full_windows && e < n) rest[u] = e + V <= n ? load_group<T, kAligned>(in, e) : load_group_tail<T>(in, e, n);
    else rest[u] = make_uint4(0u, 0u, 0u, 0u);
  }
#pragma unroll
  for (int u = 0; u < kFlatUnroll; ++u) {
    if (w + u * stride <= full_windows) add_group<T>(rest[u], acc);
  }

  // 2. Fold the block's threads x V lane sums per column: sums[p] belongs to column p % cols.
  //    `lanes` threads per column add every lanes-th of its window / cols sums, then a fixed tree
  //    joins the lanes: the same order on every call.
  float* sums = reinterpret_cast<float*>(flat_columns_lane_sums);
#pragma unroll
  for (int l = 0; l < V; l += 4) {
    flat_columns_lane_sums[(offset + l) / 4] = make_float4(acc[l], acc[l + 1], acc[l + 2], acc[l + 3]);
  }
  __syncthreads();
  const int per_column = static_cast<int>(window / cols);
  const int lanes = max(1, threads / cols);
  for (int i = t; i < lanes * cols; i += threads) {
    const int lane = i / cols, col = i - lane * cols;
    float s = 0.0f;
    for (int k = lane; k < per_column; k += lanes) s += sums[col + k * cols];
    parts[i] = s;
  }
  __syncthreads();
  for (int active = lanes; active > 1;) {
    const int half = (active + 1) / 2;
    for (int i = t; i < (active - half) * cols; i += threads) parts[i] += parts[i + half * cols];
    __syncthreads();
    active = half;
  }

  // 3. Add the block's column sums into its copy of the accumulator; the last block to count
  //    itself reads every copy back (resetting it), adds the copies and writes the output.
  float* copy = scratch + static_cast<std::int64_t>(blockIdx.x % slots) * cols;
  for (int c = t; c < cols; c += threads) atomicAdd(copy + c, parts[c]);
  __threadfence();  // this thread's adds are performed device-wide before the block is counted
  __syncthreads();
  if (t == 0) last_block = atomicAdd(counter, 1u) == gridDim.x - 1;
  __syncthreads();
  if (!last_block) return;
  __threadfence();
  const int entries = slots * cols;
  for (int i = t; i < entries; i += kFlatExchangeUnroll * threads) {
    float got[kFlatExchangeUnroll];
#pragma unroll
    for (int u = 0; u < kFlatExchangeUnroll; ++u) {
      const int j = i + u * threads;
      got[u] = j < entries ? atomicExch(scratch + j, 0.0f) : 0.0f;
    }
#pragma unroll
    for (int u = 0; u < kFlatExchangeUnroll; ++u) {
      const int j = i + u * threads;
      if (j < entries) parts[j] = got[u];
    }
  }
  __syncthreads();
  for (int c = t; c < cols; c += threads) {
    float total = 0.0f;
    for (int s = 0; s < slots; ++s) total += parts[s * cols + c];
    out[c] = from_float<T>(total);
  }
  if (t == 0) *counter = 0u;
}

template <typename T>
std::size_t lane_sums_bytes(int threads) {
  return static_cast<std::size_t>(threads) * kVector<T> * sizeof(float);
}

void check_flat_cols(std::int64_t cols) {
  if (cols < 1 || cols > kFlatColumnsMaxCols) {
    throw std::invalid_argument("sum_outer flat columns: cols " + std::to_string(cols) + " outside 1.." +
                                std::to_string(kFlatColumnsMaxCols));
  }
}

}  // namespace

template <typename T>
FlatColumnsShape flat_columns_shape(std::int64_t rows, std::int64_t cols, int sm_count) {
  check_flat_cols(cols);
  FlatColumnsShape shape;
  shape.threads = flat_columns_threads(cols, sizeof(T));
  shape.slots = flat_columns_slots(cols);
  int aligned = 0, unaligned = 0;
  KBENCH_CUDA_CALL(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&aligned, columns_flat_kernel<T, true>, shape.threads,
                                                                 lane_sums_bytes<T>(shape.threads)));
  KBENCH_CUDA_CALL(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &unaligned, columns_flat_kernel<T, false>, shape.threads, lane_sums_bytes<T>(shape.threads)));
  const int padded = (shape.threads + 31) / 32 * 32;
  const int per_sm = std::max(1, std::min({aligned, unaligned, kFlatThreadsPerSm / padded}));
  const std::int64_t resident = std::int64_t{per_sm} * sm_count;
  const std::int64_t wanted = std::max<std::int64_t>(2 * std::int64_t{sm_count}, kFlatAtomicBudget / cols);
  const std::int64_t window = static_cast<std::int64_t>(shape.threads) * kVector<T>;
  const std::int64_t windows = (rows * cols + window - 1) / window;
  shape.blocks = static_cast<int>(std::max<std::int64_t>(1, std::min({windows, resident, wanted})));
  return shape;
}

template <typename T>
void launch_columns_flat(const T* in, T* out, std::int64_t rows, std::int64_t cols, const FlatColumnsShape& shape,
                         float* scratch, unsigned* counter, cudaStream_t stream) {
  check_flat_cols(cols);
  if (shape.threads != flat_columns_threads(cols, sizeof(T)) || shape.blocks < 1 ||
      shape.slots != flat_columns_slots(cols)) {
    throw std::invalid_argument("sum_outer flat columns: the launch shape was made for another problem");
  }
  const std::int64_t n = rows * cols;
  const std::size_t smem = lane_sums_bytes<T>(shape.threads);
  const int c = static_cast<int>(cols);
  if (aligned16(in)) {
    columns_flat_kernel<T, true><<<shape.blocks, shape.threads, smem, stream>>>(in, out, n, c, scratch, counter,
                                                                               shape.slots);
  } else {
    columns_flat_kernel<T, false><<<shape.blocks, shape.threads, smem, stream>>>(in, out, n, c, scratch, counter,
                                                                                shape.slots);
  }
  KBENCH_CHECK_LAUNCH();
}

#define KBENCH_FLAT_COLUMNS(T)                                                                                    \
  template FlatColumnsShape flat_columns_shape<T>(std::int64_t, std::int64_t, int);                               \
  template void launch_columns_flat<T>(const T*, T*, std::int64_t, std::int64_t, const FlatColumnsShape&, float*, \
                                       unsigned*, cudaStream_t);
KBENCH_FLAT_COLUMNS(float)
KBENCH_FLAT_COLUMNS(__half)
KBENCH_FLAT_COLUMNS(__nv_bfloat16)
#undef KBENCH_FLAT_COLUMNS

}  // namespace kbench::sum
