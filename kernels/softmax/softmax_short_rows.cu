// Softmax of many short rows (up to 1024 elements): a group of 1 to 32 lanes owns a row and holds
// it in registers from the load to the store, so each element costs one load, one exponential
// and one store. packed_rows, the kernel before this one, gave each lane about one element of a
// row and walked its shared-memory tile three times with shuffles per row; on the H100 that cost
// more than the bytes (kernels/softmax/NOTES.md). Two paths, by layout (short_rows_shape):
// - direct: rows that are whole 16-byte vectors in aligned tensors are loaded straight from
//   global memory, lane l of a group taking vectors l, l + lanes, ... (each load instruction of a
//   warp covers whole 32-byte sectors);
// - staged: other widths (1, 7, 100 in 16-bit, primes) start at every alignment, so the block
//   copies a tile of whole rows (one contiguous stretch, kernels/common/flat_tile.*) into shared
//   memory with 16-byte vectors, each lane group reads its row's elements into registers once and
//   writes the results back once, and the tile leaves with 16-byte stores.
#include "kernels/softmax/softmax_auto.hpp"
#include "kernels/softmax/softmax_kernels.hpp"

#include "harness/device/cuda_check.hpp"
#include "kernels/common/flat_tile.cuh"
#include "kernels/common/flat_tile.hpp"
#include "kernels/softmax/softmax_device.cuh"

#include <stdexcept>

namespace kbench::softmax {

namespace {

constexpr int kShortBlock = 256;

/// Reduces `v` over the kLanes lanes of this lane's group (xor shuffles below kLanes stay inside
/// the group); every lane of the warp must call it.
template <int kLanes, typename Op>
__device__ __forceinline__ float lanes_allreduce(float v, Op op) {
#pragma unroll
  for (int offset = kLanes / 2; offset > 0; offset >>= 1) v = op(v, __shfl_xor_sync(0xffffffffu, v, offset));
  return v;
}

// short_rows keeps exp2f and the IEEE division where the other kernels run fast_exp2 and
// fast_reciprocal: with fast_exp2, fp32 1048576x32 (short_direct, 2 lanes x 4 vectors) took 32
// registers instead of 45 and ran 5 % slower on the H100 (95.6 -> 100.3 µs; softmax NOTES,
// "the same math in every softmax kernel").

/// Turns the n values a lane holds into e^(v - max) and returns the row's sum of them over the
/// group (max and sum reduced over kLanes lanes). `valid[i]` says which values are the row's;
/// the others stay untouched and count nothing.
template <int kLanes, int kCount>
__device__ __forceinline__ float exponentiate(float (&v)[kCount], const bool (&valid)[kCount]) {
  float row_max = negative_infinity();
#pragma unroll
  for (int i = 0; i < kCount; ++i) row_max = valid[i] ? fmaxf(row_max, v[i]) : row_max;
  row_max = lanes_allreduce<kLanes>(row_max, MaxOp{});
  float sum = 0.0f;
#pragma unroll
  for (int i = 0; i < kCount; ++i) {
    if (valid[i]) {
      v[i] = exp2f((v[i] - row_max) * kLog2e);
      sum += v[i];
    }
  }
  return lanes_allreduce<kLanes>(sum, SumOp{});
}

/// Direct path. Block b takes rows [b x kGroups x kRows, +kGroups x kRows); group g holds rows
/// g, g + kGroups, ... (kRows of them), each as up to kVectors 16-byte vectors per lane, all
/// loads issued before the first is used. `vectors` = cols / kVector<T>.
template <typename T, int kLanes, int kVectors, int kRows>
__global__ void __launch_bounds__(kShortBlock)
    softmax_short_direct_kernel(const uint4* __restrict__ x, uint4* __restrict__ y, std::int64_t rows, int vectors) {
  constexpr int kGroups = kShortBlock / kLanes;
  constexpr int kPerRow = kVectors * kVector<T>;
  const int group = threadIdx.x / kLanes;
  const int lane = threadIdx.x % kLanes;
  const std::int64_t first = static_cast<std::int64_t>(blockIdx.x) * kGroups * kRows + group;

  uint4 held[kRows][kVectors];
#pragma unroll
  for (int r = 0; r < kRows; ++r) {
    const std::int64_t row = first + static_cast<std::int64_t>(r) * kGroups;
#pragma unroll
    for (int k = 0; k < kVectors; ++k) {
      const int v = lane + k * kLanes;
      if (row < rows && v < vectors) held[r][k] = x[row * vectors + v];
    }
  }
#pragma unroll
  for (int r = 0; r < kRows; ++r) {
    const std::int64_t row = first + static_cast<std::int64_t>(r) * kGroups;
    float values[kPerRow];
    bool valid[kPerRow];
#pragma unroll
    for (int k = 0; k < kVectors; ++k) {
      const bool here = row < rows && lane + k * kLanes < vectors;
      float part[kVector<T>];
      if (here) unpack<T>(held[r][k], part);
#pragma unroll
      for (int i = 0; i < kVector<T>; ++i) {
        values[k * kVector<T> + i] = here ? part[i] : 0.0f;
        valid[k * kVector<T> + i] = here;
      }
    }
    const float inverse_sum = 1.0f / exponentiate<kLanes>(values, valid);
#pragma unroll
    for (int k = 0; k < kVectors; ++k) {
      const int v = lane + k * kLanes;
      if (row < rows && v < vectors) {
        float part[kVector<T>];
#pragma unroll
        for (int i = 0; i < kVector<T>; ++i) part[i] = values[k * kVector<T> + i] * inverse_sum;
        y[row * vectors + v] = pack<T>(part);
      }
    }
  }
}

/// Staged path. Block b copies rows [b x rows_per_tile, +rows_per_tile) into shared memory; in
/// rounds of kGroups rows, group g takes row round + g, lane l its elements l, l + kLanes, ...
/// (up to kElements), and writes the results over them; then the tile goes to y as one stretch.
/// Every lane runs every round (full-mask shuffles); lanes past the tile's last row touch nothing.
template <typename T, int kLanes, int kElements>
__global__ void __launch_bounds__(kShortBlock)
    softmax_short_staged_kernel(const T* __restrict__ x, T* __restrict__ y, std::int64_t rows, int cols,
                                std::int64_t rows_per_tile) {
  extern __shared__ uint4 softmax_short_tile[];
  T* tile = reinterpret_cast<T*>(softmax_short_tile);
  constexpr int kGroups = kShortBlock / kLanes;
  const std::int64_t first_row = static_cast<std::int64_t>(blockIdx.x) * rows_per_tile;
  const int tile_rows = static_cast<int>(min(rows_per_tile, rows - first_row));
  const std::int64_t elements = static_cast<std::int64_t>(tile_rows) * cols;
  load_tile(x + first_row * cols, tile, elements);
  __syncthreads();
  const int group = threadIdx.x / kLanes;
  const int lane = threadIdx.x % kLanes;
  for (int round = 0; round < tile_rows; round += kGroups) {
    const int r = round + group;
    T* row = tile + static_cast<std::int64_t>(r < tile_rows ? r : 0) * cols;
    float values[kElements];
    bool valid[kElements];
#pragma unroll
    for (int i = 0; i < kElements; ++i) {
      const int c = lane + i * kLanes;
      valid[i] = r < tile_rows && c < cols;
      values[i] = valid[i] ? to_float(row[c]) : 0.0f;
    }
    const float inverse_sum = 1.0f / exponentiate<kLanes>(values, valid);
#pragma unroll
    for (int i = 0; i < kElements; ++i) {
      if (valid[i]) row[lane + i * kLanes] = from_float<T>(values[i] * inverse_sum);
    }
  }
  __syncthreads();
  store_tile(tile, y + first_row * cols, elements);
}

template <typename T, int kLanes, int kVectors, int kRows>
void launch_direct(const T* x, T* y, std::int64_t rows, std::int64_t cols, cudaStream_t stream) {
  constexpr std::int64_t kRowsPerBlock = kShortBlock / kLanes * kRows;
  const std::int64_t blocks = (rows + kRowsPerBlock - 1) / kRowsPerBlock;
  if (blocks > 0x7FFFFFFF) throw std::invalid_argument("softmax short_rows: too many blocks for a 1-D grid");
  softmax_short_direct_kernel<T, kLanes, kVectors, kRows><<<static_cast<unsigned>(blocks), kShortBlock, 0, stream>>>(
      reinterpret_cast<const uint4*>(x), reinterpret_cast<uint4*>(y), rows, static_cast<int>(cols / kVector<T>));
  KBENCH_CHECK_LAUNCH();
}

template <typename T, int kLanes, int kElements>
void launch_staged(const T* x, T* y, std::int64_t rows, std::int64_t cols, cudaStream_t stream) {
  const std::int64_t rows_per_tile = tile_rows(cols, sizeof(T));
  const std::int64_t tiles = tile_count(rows, rows_per_tile);
  if (tiles > 0x7FFFFFFF) throw std::invalid_argument("softmax short_rows: too many tiles for a 1-D grid");
  const auto bytes = static_cast<std::size_t>(tile_bytes(rows_per_tile, cols, sizeof(T)));
  softmax_short_staged_kernel<T, kLanes, kElements><<<static_cast<unsigned>(tiles), kShortBlock, bytes, stream>>>(
      x, y, rows, static_cast<int>(cols), rows_per_tile);
  KBENCH_CHECK_LAUNCH();
}

template <typename T>
void launch_direct_shape(const T* x, T* y, std::int64_t rows, std::int64_t cols, const ShortRowsShape& s,
                         cudaStream_t stream) {
  if (s.lanes == 1) {
    if (s.per_lane == 1) return launch_direct<T, 1, 1, 4>(x, y, rows, cols, stream);
    if (s.per_lane == 2) return launch_direct<T, 1, 2, 2>(x, y, rows, cols, stream);
    return launch_direct<T, 1, 4, 1>(x, y, rows, cols, stream);
  }
  switch (s.lanes) {
    case 2: return launch_direct<T, 2, 4, 1>(x, y, rows, cols, stream);
    case 4: return launch_direct<T, 4, 4, 1>(x, y, rows, cols, stream);
    case 8: return launch_direct<T, 8, 4, 1>(x, y, rows, cols, stream);
    case 16: return launch_direct<T, 16, 4, 1>(x, y, rows, cols, stream);
    default: break;
  }
  if (s.per_lane <= 4) return launch_direct<T, 32, 4, 1>(x, y, rows, cols, stream);
  // More than 128 vectors: fp32 rows of 516 to 1024 elements (16-bit rows of 1024 are 128).
  if constexpr (sizeof(T) == 4) return launch_direct<T, 32, 8, 1>(x, y, rows, cols, stream);
  throw std::logic_error("softmax short_rows: a 16-bit row of more than 128 vectors");
}

template <typename T>
void launch_staged_shape(const T* x, T* y, std::int64_t rows, std::int64_t cols, const ShortRowsShape& s,
                         cudaStream_t stream) {
  switch (s.lanes) {
    case 1: return launch_staged<T, 1, 8>(x, y, rows, cols, stream);
    case 2: return launch_staged<T, 2, 8>(x, y, rows, cols, stream);
    case 4: return launch_staged<T, 4, 8>(x, y, rows, cols, stream);
    case 8: return launch_staged<T, 8, 8>(x, y, rows, cols, stream);
    case 16: return launch_staged<T, 16, 8>(x, y, rows, cols, stream);
    default: break;
  }
  if (s.per_lane <= 8) return launch_staged<T, 32, 8>(x, y, rows, cols, stream);
  if (s.per_lane <= 16) return launch_staged<T, 32, 16>(x, y, rows, cols, stream);
  return launch_staged<T, 32, 32>(x, y, rows, cols, stream);
}

}  // namespace

template <typename T>
void launch_short_rows(const T* x, T* y, std::int64_t rows, std::int64_t cols, cudaStream_t stream) {
  if (cols > kShortMaxCols) {
    launch_online(x, y, rows, cols, stream);
    return;
  }
  const bool vector_rows = aligned16(x) && aligned16(y) && cols % kVector<T> == 0;
  const ShortRowsShape shape = short_rows_shape(cols, sizeof(T), vector_rows);
  if (shape.staged) launch_staged_shape(x, y, rows, cols, shape, stream);
  else launch_direct_shape(x, y, rows, cols, shape, stream);
}

template void launch_short_rows<float>(const float*, float*, std::int64_t, std::int64_t, cudaStream_t);
template void launch_short_rows<__half>(const __half*, __half*, std::int64_t, std::int64_t, cudaStream_t);
template void launch_short_rows<__nv_bfloat16>(const __nv_bfloat16*, __nv_bfloat16*, std::int64_t, std::int64_t,
                                               cudaStream_t);

}  // namespace kbench::softmax
