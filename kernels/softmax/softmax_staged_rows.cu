// Softmax of many rows of 32-128 bytes of any width (16-bit 16-64 columns, fp32 8-32) in 16-byte
// aligned tensors: kernels/softmax/NOTES.md, "staged_rows".
//
// vector_rows' staging for rows that no small group of rows makes whole vectors (61 columns would
// need 8 rows, 61 vectors). Warp w owns the tile of rows [w x tile_rows, +tile_rows), one
// contiguous stretch that starts and ends inside a 16-byte vector. The warp copies the vectors
// covering it into its own slice of shared memory with coalesced 16-byte loads
// (softmax_warp_tile.cuh), __syncwarp, then each pair of lanes takes one row at a time, 16 rows per
// round: lane h of the pair reads elements h, h + 2, ... of the row into registers (2-byte shared
// loads; the pair's two lanes read neighbouring elements, mostly one 4-byte word), one shuffle
// each for the row's max and sum, and the pair writes y over x in the slice; __syncwarp, and the
// tile leaves with coalesced 16-byte stores, its partial end vectors element by element, so no
// two warps write the same element. No block barrier: warps never wait for each other.
#include "kernels/softmax/softmax_auto.hpp"
#include "kernels/softmax/softmax_kernels.hpp"

#include "harness/device/cuda_check.hpp"
#include "kernels/common/row_ring.cuh"
#include "kernels/softmax/softmax_device.cuh"
#include "kernels/softmax/softmax_warp_tile.cuh"

#include <cstdint>
#include <stdexcept>

namespace kbench::softmax {

namespace {

constexpr int kStagedRowsBlock = 128;
constexpr int kStagedRowsWarps = kStagedRowsBlock / 32;
constexpr int kStagedRowsRoundRows = 32 / kStagedRowsLanes;

/// Blocks of 128 per SM that the register cap aims at (ptxas, sm_90, CUDA 13.0, no spills): 8 (64
/// registers, 32 warps, 144 KiB of slices) up to 24 slots a lane; 7 (72 registers) for the 28-32
/// slots of 16-bit rows of 49-64 columns (32 slots spill 48 bytes under 64).
constexpr int staged_rows_min_blocks(int per_lane) { return per_lane <= 24 ? 8 : 7; }

/// Softmax of the rows of a warp's tile, held in `elements` (shared memory, row r at r x cols),
/// in place. Every lane runs every round, so the pair's shuffles have their partner.
template <typename T, int kPerLane>
__device__ __forceinline__ void softmax_tile_rows(T* elements, int tile_rows, int cols) {
  constexpr float kLog2e = 1.4426950408889634f;
  const int lane = static_cast<int>(threadIdx.x % 32);
  const int half = lane % kStagedRowsLanes;
  for (int round = 0; round < tile_rows; round += kStagedRowsRoundRows) {
    const int r = round + lane / kStagedRowsLanes;
    const bool live = r < tile_rows;
    T* row = elements + r * cols;
    // Values in log2 units (x log2 e), so that each exponential is one subtract and one ex2.
    float v[kPerLane];
    float row_max = negative_infinity();
#pragma unroll
    for (int k = 0; k < kPerLane; ++k) {
      const int j = kStagedRowsLanes * k + half;
      v[k] = live && j < cols ? to_float(row[j]) * kLog2e : negative_infinity();
      row_max = fmaxf(row_max, v[k]);
    }
    row_max = ring::group_allreduce<kStagedRowsLanes>(row_max, MaxOp{});
    float sum = 0.0f;
#pragma unroll
    for (int k = 0; k < kPerLane; ++k) {
      const int j = kStagedRowsLanes * k + half;
      v[k] = live && j < cols ? exp2f(v[k] - row_max) : 0.0f;
      sum += v[k];
    }
    const float inverse_sum = 1.0f / ring::group_allreduce<kStagedRowsLanes>(sum, SumOp{});
#pragma unroll
    for (int k = 0; k < kPerLane; ++k) {
      const int j = kStagedRowsLanes * k + half;
      if (live && j < cols) row[j] = from_float<T>(v[k] * inverse_sum);
    }
  }
}

/// Warp w of the grid takes rows [w x tile_rows, +tile_rows), fewer in the last warp.
/// kPerLane: staged_rows_shape(cols, sizeof(T)).per_lane, tile_rows its tile_rows.
template <typename T, int kPerLane>
__global__ void __launch_bounds__(kStagedRowsBlock, staged_rows_min_blocks(kPerLane))
    softmax_staged_rows_kernel(const T* __restrict__ x, T* __restrict__ y, std::int64_t rows, int cols,
                               int tile_rows) {
  constexpr int kSliceVectors = 32 * kStagedRowsLaneVectors;
  __shared__ uint4 slices[kStagedRowsWarps * kSliceVectors];  // the warps' tiles

  const std::int64_t warp = static_cast<std::int64_t>(blockIdx.x) * kStagedRowsWarps + threadIdx.x / 32;
  const std::int64_t first_row = warp * tile_rows;
  if (first_row >= rows) return;  // the whole warp
  const int rows_here = static_cast<int>(min(rows - first_row, static_cast<std::int64_t>(tile_rows)));
  const std::int64_t first = first_row * cols;
  const std::int64_t end = first + static_cast<std::int64_t>(rows_here) * cols;
  const WarpTileSpan span = warp_tile_span<T>(first, end);

  uint4* slice = slices + (threadIdx.x / 32) * kSliceVectors;
  warp_tile_load<T, kStagedRowsLaneVectors>(slice, x, span, rows * cols);
  __syncwarp();
  T* elements = reinterpret_cast<T*>(slice) + (first - span.first_vector * kVector<T>);
  softmax_tile_rows<T, kPerLane>(elements, rows_here, cols);
  __syncwarp();
  warp_tile_store<T, kStagedRowsLaneVectors>(slice, y, span, first, end);
}

template <typename T, int kPerLane>
void launch_per_lane(const T* x, T* y, std::int64_t rows, std::int64_t cols, const StagedRowsShape& shape,
                     cudaStream_t stream) {
  if constexpr (staged_rows_reachable(sizeof(T), kPerLane)) {
    const std::int64_t warps = (rows + shape.tile_rows - 1) / shape.tile_rows;
    const std::int64_t blocks = (warps + kStagedRowsWarps - 1) / kStagedRowsWarps;
    if (blocks > 0x7FFFFFFF) throw std::invalid_argument("softmax staged_rows: too many blocks for a 1-D grid");
    softmax_staged_rows_kernel<T, kPerLane><<<static_cast<unsigned>(blocks), kStagedRowsBlock, 0, stream>>>(
        x, y, rows, static_cast<int>(cols), shape.tile_rows);
    KBENCH_CHECK_LAUNCH();
  } else {
    throw std::logic_error("softmax staged_rows: a per-lane count staged_rows_shape does not give");
  }
}

}  // namespace

template <typename T>
void launch_staged_rows(const T* x, T* y, std::int64_t rows, std::int64_t cols, cudaStream_t stream) {
  if (!staged_rows_fits(cols, sizeof(T)) || !aligned16(x) || !aligned16(y)) {
    launch_grain_rows(x, y, rows, cols, stream);
    return;
  }
  if (rows == 0) return;
  const StagedRowsShape shape = staged_rows_shape(cols, sizeof(T));
  switch (shape.per_lane) {
    case 4: return launch_per_lane<T, 4>(x, y, rows, cols, shape, stream);
    case 8: return launch_per_lane<T, 8>(x, y, rows, cols, shape, stream);
    case 12: return launch_per_lane<T, 12>(x, y, rows, cols, shape, stream);
    case 16: return launch_per_lane<T, 16>(x, y, rows, cols, shape, stream);
    case 20: return launch_per_lane<T, 20>(x, y, rows, cols, shape, stream);
    case 24: return launch_per_lane<T, 24>(x, y, rows, cols, shape, stream);
    case 28: return launch_per_lane<T, 28>(x, y, rows, cols, shape, stream);
    case 32: return launch_per_lane<T, 32>(x, y, rows, cols, shape, stream);
    default: throw std::logic_error("softmax staged_rows: per-lane slots not a multiple of 4 from 4 to 32");
  }
}

template void launch_staged_rows<float>(const float*, float*, std::int64_t, std::int64_t, cudaStream_t);
template void launch_staged_rows<__half>(const __half*, __half*, std::int64_t, std::int64_t, cudaStream_t);
template void launch_staged_rows<__nv_bfloat16>(const __nv_bfloat16*, __nv_bfloat16*, std::int64_t, std::int64_t,
                                                cudaStream_t);

}  // namespace kbench::softmax
