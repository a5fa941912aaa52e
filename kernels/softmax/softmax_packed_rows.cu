// Softmax of many short rows: tiles of whole rows staged in shared memory, several rows per warp.
// A warp per row (the online kernel) leaves 32 - cols lanes idle on rows of 7 or 32 elements and
// loads odd-length rows 2-4 bytes at a time; here every load and store is a 16-byte vector of the
// flat array and every lane has a row element.
#include "kernels/softmax/softmax_auto.hpp"
#include "kernels/softmax/softmax_kernels.hpp"

#include "harness/device/cuda_check.hpp"
#include "kernels/common/flat_tile.cuh"
#include "kernels/common/flat_tile.hpp"
#include "kernels/softmax/softmax_device.cuh"

#include <stdexcept>

namespace kbench::softmax {

namespace {

constexpr int kPackedBlock = 256;

/// Reduces `v` over the kLanes lanes of this lane's group (xor shuffles below kLanes stay inside
/// the group); every lane of the warp must call it.
template <int kLanes, typename Op>
__device__ __forceinline__ float group_allreduce(float v, Op op) {
#pragma unroll
  for (int offset = kLanes / 2; offset > 0; offset >>= 1) v = op(v, __shfl_xor_sync(0xffffffffu, v, offset));
  return v;
}

/// Block b copies rows [b * rows_per_tile, +rows_per_tile) into shared memory as one tile; each
/// group of kLanes lanes then takes one row (lane l: elements l, l + kLanes, ...; consecutive
/// groups, consecutive rows): its max, its sum of e^(x - max), and e^(x - max) / sum written over
/// the row in shared memory. Every lane runs the same number of rounds (full-mask shuffles);
/// lanes past the tile's last row touch nothing. Then the tile goes to y as one stretch.
template <typename T, int kLanes>
__global__ void __launch_bounds__(kPackedBlock)
    softmax_packed_kernel(const T* __restrict__ x, T* __restrict__ y, std::int64_t rows, std::int64_t cols,
                          std::int64_t rows_per_tile) {
  extern __shared__ uint4 softmax_packed_tile[];
  T* tile = reinterpret_cast<T*>(softmax_packed_tile);
  const std::int64_t first_row = static_cast<std::int64_t>(blockIdx.x) * rows_per_tile;
  const int tile_rows = static_cast<int>(min(rows_per_tile, rows - first_row));
  const int width = static_cast<int>(cols);  // at most kPackedMaxCols
  const std::int64_t elements = static_cast<std::int64_t>(tile_rows) * width;
  load_tile(x + first_row * cols, tile, elements);
  __syncthreads();
  constexpr int kGroups = kPackedBlock / kLanes;
  const int group = threadIdx.x / kLanes;
  const int lane = threadIdx.x % kLanes;
  for (int base = 0; base < tile_rows; base += kGroups) {
    const int r = base + group;
    const bool owned = r < tile_rows;
    T* row = tile + (owned ? r : 0) * width;
    float row_max = negative_infinity();
    if (owned) {
      for (int c = lane; c < width; c += kLanes) row_max = fmaxf(row_max, to_float(row[c]));
    }
    row_max = group_allreduce<kLanes>(row_max, MaxOp{});
    float sum = 0.0f;
    if (owned) {
      for (int c = lane; c < width; c += kLanes) sum += exp_via_exp2(to_float(row[c]) - row_max);
    }
    sum = group_allreduce<kLanes>(sum, SumOp{});
    if (owned) {
      const float inverse_sum = fast_reciprocal(sum);
      for (int c = lane; c < width; c += kLanes) row[c] = from_float<T>(exp_via_exp2(to_float(row[c]) - row_max) * inverse_sum);
    }
  }
  __syncthreads();
  store_tile(tile, y + first_row * cols, elements);
}

template <typename T, int kLanes>
void launch_lanes(const T* x, T* y, std::int64_t rows, std::int64_t cols, cudaStream_t stream) {
  const std::int64_t rows_per_tile = tile_rows(cols, sizeof(T));
  const std::int64_t tiles = tile_count(rows, rows_per_tile);
  if (tiles > 0x7FFFFFFF) throw std::invalid_argument("softmax packed_rows: too many tiles for a 1-D grid");
  const auto bytes = static_cast<std::size_t>(tile_bytes(rows_per_tile, cols, sizeof(T)));
  softmax_packed_kernel<T, kLanes>
      <<<static_cast<unsigned>(tiles), kPackedBlock, bytes, stream>>>(x, y, rows, cols, rows_per_tile);
  KBENCH_CHECK_LAUNCH();
}

}  // namespace

template <typename T>
void launch_packed_rows(const T* x, T* y, std::int64_t rows, std::int64_t cols, cudaStream_t stream) {
  if (cols > kPackedMaxCols) {
    launch_online(x, y, rows, cols, stream);  // a tile of 8 such rows would pass 32 KiB
    return;
  }
  switch (lanes_per_row(cols)) {
    case 1: launch_lanes<T, 1>(x, y, rows, cols, stream); break;
    case 2: launch_lanes<T, 2>(x, y, rows, cols, stream); break;
    case 4: launch_lanes<T, 4>(x, y, rows, cols, stream); break;
    case 8: launch_lanes<T, 8>(x, y, rows, cols, stream); break;
    case 16: launch_lanes<T, 16>(x, y, rows, cols, stream); break;
    default: launch_lanes<T, 32>(x, y, rows, cols, stream); break;
  }
}

template void launch_packed_rows<float>(const float*, float*, std::int64_t, std::int64_t, cudaStream_t);
template void launch_packed_rows<__half>(const __half*, __half*, std::int64_t, std::int64_t, cudaStream_t);
template void launch_packed_rows<__nv_bfloat16>(const __nv_bfloat16*, __nv_bfloat16*, std::int64_t, std::int64_t,
                                                cudaStream_t);

}  // namespace kbench::softmax
