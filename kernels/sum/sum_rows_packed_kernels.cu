// Inner-axis reductions of many short rows: tiles of whole rows staged in shared memory.
#include "kernels/common/flat_tile.cuh"
#include "kernels/common/flat_tile.hpp"
#include "kernels/sum/reduce_ops.cuh"
#include "kernels/sum/sum_kernels.hpp"

#include "harness/device/cuda_check.hpp"

#include <stdexcept>

namespace kbench::sum {

namespace {

constexpr int kPackedBlock = 256;

/// Block b copies rows [b * rows_per_tile, +rows_per_tile) as one contiguous tile into shared
/// memory (16-byte loads when the tensor is 16-byte aligned: every tile then is, flat_tile.hpp),
/// then each group of kLanes lanes folds one row of the tile (lane l takes elements l, l + kLanes,
/// ...; consecutive groups take consecutive rows, so a warp reads consecutive shared-memory words)
/// and combines its lanes with xor shuffles inside the group. Every lane runs the same number of
/// row rounds, so the full-mask shuffles stay valid; lanes past the tile's last row fold nothing.
template <typename T, typename Op, int kLanes>
__global__ void __launch_bounds__(kPackedBlock)
    rows_packed_kernel(const T* __restrict__ in, T* __restrict__ out, std::int64_t rows, std::int64_t cols,
                       std::int64_t rows_per_tile, Op op) {
  extern __shared__ uint4 packed_rows_tile[];
  T* tile = reinterpret_cast<T*>(packed_rows_tile);
  const std::int64_t first_row = static_cast<std::int64_t>(blockIdx.x) * rows_per_tile;
  const int tile_rows = static_cast<int>(min(rows_per_tile, rows - first_row));
  const int width = static_cast<int>(cols);  // at most kPackedRowsMaxCols
  load_tile(in + first_row * cols, tile, static_cast<std::int64_t>(tile_rows) * width);
  __syncthreads();
  constexpr int kGroups = kPackedBlock / kLanes;
  const int group = threadIdx.x / kLanes;
  const int lane = threadIdx.x % kLanes;
  for (int base = 0; base < tile_rows; base += kGroups) {
    const int r = base + group;
    float acc = Op::identity();
    if (r < tile_rows) {
      for (int c = lane; c < width; c += kLanes) acc = op(acc, to_float(tile[r * width + c]));
    }
#pragma unroll
    for (int offset = kLanes / 2; offset > 0; offset >>= 1) acc = op(acc, __shfl_xor_sync(0xffffffffu, acc, offset));
    if (lane == 0 && r < tile_rows) out[first_row + r] = from_float<T>(acc);
  }
}

template <typename T, typename Op, int kLanes>
void launch_packed(const T* in, T* out, std::int64_t rows, std::int64_t cols, Op op, cudaStream_t stream) {
  const std::int64_t rows_per_tile = tile_rows(cols, sizeof(T));
  const std::int64_t tiles = tile_count(rows, rows_per_tile);
  if (tiles > 0x7FFFFFFF) throw std::invalid_argument("sum packed rows: too many tiles for a 1-D grid");
  const auto bytes = static_cast<std::size_t>(tile_bytes(rows_per_tile, cols, sizeof(T)));
  rows_packed_kernel<T, Op, kLanes>
      <<<static_cast<unsigned>(tiles), kPackedBlock, bytes, stream>>>(in, out, rows, cols, rows_per_tile, op);
  KBENCH_CHECK_LAUNCH();
}

template <typename T, typename Op>
void rows_packed(const T* in, T* out, std::int64_t rows, std::int64_t cols, Op op, cudaStream_t stream) {
  switch (lanes_per_row(cols)) {
    case 1: launch_packed<T, Op, 1>(in, out, rows, cols, op, stream); break;
    case 2: launch_packed<T, Op, 2>(in, out, rows, cols, op, stream); break;
    case 4: launch_packed<T, Op, 4>(in, out, rows, cols, op, stream); break;
    case 8: launch_packed<T, Op, 8>(in, out, rows, cols, op, stream); break;
    case 16: launch_packed<T, Op, 16>(in, out, rows, cols, op, stream); break;
    default: launch_packed<T, Op, 32>(in, out, rows, cols, op, stream); break;
  }
}

}  // namespace

template <typename T>
void launch_rows_packed(const T* in, T* out, std::int64_t rows, std::int64_t cols, Reduction reduction,
                        cudaStream_t stream) {
  if (cols > kPackedRowsMaxCols) {
    launch_rows_parallel(in, out, rows, cols, reduction, stream);  // a tile of 8 such rows would pass 32 KiB
    return;
  }
  if (reduction == Reduction::sum) rows_packed(in, out, rows, cols, SumOp{}, stream);
  else rows_packed(in, out, rows, cols, MaxOp{}, stream);
}

template void launch_rows_packed<float>(const float*, float*, std::int64_t, std::int64_t, Reduction, cudaStream_t);
template void launch_rows_packed<__half>(const __half*, __half*, std::int64_t, std::int64_t, Reduction, cudaStream_t);
template void launch_rows_packed<__nv_bfloat16>(const __nv_bfloat16*, __nv_bfloat16*, std::int64_t, std::int64_t,
                                                Reduction, cudaStream_t);

}  // namespace kbench::sum
