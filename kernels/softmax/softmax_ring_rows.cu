// Softmax of many short rows of any width (kernels/softmax/NOTES.md, "ring_rows"): tiles of whole
// rows streamed through shared memory by the bulk copy engine (kernels/common/row_ring.cuh), a
// lane group per row holding the row in registers between its reduction and its write.
#include "kernels/softmax/softmax_ring_rows.hpp"

#include "harness/device/cuda_check.hpp"
#include "kernels/common/row_ring.cuh"
#include "kernels/softmax/softmax_device.cuh"
#include "kernels/softmax/softmax_kernels.hpp"

#include <stdexcept>

namespace kbench::softmax {

namespace {

/// Block b takes tiles b, b + gridDim.x, ... (stream_row_tiles); in each, lane group g takes rows
/// g, g + 256 / kLanes, ... (for_each_row): the row's max and sum over the group with xor
/// shuffles, e^(x - max) computed once per element and kept in registers, the results written
/// over the row in the tile, which the ring then stores.
template <typename T, int kLanes, int kElements>
__global__ void __launch_bounds__(kRingBlock)
    softmax_ring_rows_kernel(const T* __restrict__ x, T* __restrict__ y, std::int64_t rows, int cols,
                             int rows_per_tile, int slot_elements) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  const int lane = static_cast<int>(threadIdx.x) % kLanes;
  auto on_row = [&](T* row, int, float(&values)[kElements], const bool(&valid)[kElements]) {
    float row_max = negative_infinity();
#pragma unroll
    for (int i = 0; i < kElements; ++i) row_max = valid[i] ? fmaxf(row_max, values[i]) : row_max;
    row_max = ring::group_allreduce<kLanes>(row_max, MaxOp{});
    float sum = 0.0f;
#pragma unroll
    for (int i = 0; i < kElements; ++i) {
      if (valid[i]) {
        values[i] = exp_via_exp2(values[i] - row_max);
        sum += values[i];
      }
    }
    const float inverse_sum = fast_reciprocal(ring::group_allreduce<kLanes>(sum, SumOp{}));
#pragma unroll
    for (int i = 0; i < kElements; ++i) {
      if (valid[i]) row[lane + i * kLanes] = from_float<T>(values[i] * inverse_sum);
    }
  };
  ring::stream_row_tiles<T, true>(x, y, rows, cols, rows_per_tile, slot_elements,
                                  [&](T* tile, int tile_rows, std::int64_t) {
                                    ring::for_each_row<T, kLanes, kElements>(tile, tile_rows, cols, on_row);
                                  });
#else
  __trap();  // planned only on compute capability 9.0 and later (plan_ring_rows)
#endif
}

/// The kernel's instantiation for rows of `cols` elements (row_group_shape).
template <typename T>
auto ring_rows_kernel(std::int64_t cols) {
  return ring::with_group_shape(row_group_shape(cols), [](auto lanes, auto elements) {
    return &softmax_ring_rows_kernel<T, decltype(lanes)::value, decltype(elements)::value>;
  });
}

}  // namespace

template <typename T>
RingRowsPlan plan_ring_rows(const T* x, const T* y, std::int64_t rows, std::int64_t cols, int sm_count, int cc_major) {
  RingRowsPlan plan;
  if (cc_major < 9 || rows < 1 || cols < 1 || cols > kRingMaxCols || !aligned16(x) || !aligned16(y)) return plan;
  plan.shape = ring::plan_row_ring(reinterpret_cast<const void*>(ring_rows_kernel<T>(cols)), rows, cols, sizeof(T),
                                   sm_count);
  return plan;
}

template <typename T>
void launch_ring_rows(const T* x, T* y, std::int64_t rows, std::int64_t cols, const RingRowsPlan& plan,
                      cudaStream_t stream) {
  const RowRingShape& shape = plan.shape;
  if (shape.blocks == 0) {
    launch_short_rows(x, y, rows, cols, stream);
    return;
  }
  if (!aligned16(x) || !aligned16(y)) throw std::invalid_argument("softmax ring_rows: x or y moved since the plan");
  const int slot_elements = static_cast<int>(shape.slot_bytes / static_cast<std::int64_t>(sizeof(T)));
  ring_rows_kernel<T>(cols)<<<static_cast<unsigned>(shape.blocks), kRingBlock, static_cast<std::size_t>(shape.shared_bytes),
                              stream>>>(x, y, rows, static_cast<int>(cols), static_cast<int>(shape.rows_per_tile),
                                        slot_elements);
  KBENCH_CHECK_LAUNCH();
}

#define KBENCH_INSTANTIATE_RING_ROWS(T)                                                                    \
  template RingRowsPlan plan_ring_rows<T>(const T*, const T*, std::int64_t, std::int64_t, int, int);      \
  template void launch_ring_rows<T>(const T*, T*, std::int64_t, std::int64_t, const RingRowsPlan&, cudaStream_t);

KBENCH_INSTANTIATE_RING_ROWS(float)
KBENCH_INSTANTIATE_RING_ROWS(__half)
KBENCH_INSTANTIATE_RING_ROWS(__nv_bfloat16)

}  // namespace kbench::softmax
