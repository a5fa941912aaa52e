// Inner-axis reductions of many short rows of any width (kernels/sum/NOTES.md, "ring_rows"): tiles
// of whole rows streamed through shared memory by the bulk copy engine (kernels/common/row_ring.cuh),
// a lane group per row folding it out of the tile.
#include "kernels/sum/sum_rows_ring.hpp"

#include "harness/device/cuda_check.hpp"
#include "kernels/common/row_ring.cuh"
#include "kernels/sum/reduce_ops.cuh"

#include <stdexcept>

namespace kbench::sum {

namespace {

/// Block b takes tiles b, b + gridDim.x, ... (stream_row_tiles); in each, lane group g folds rows
/// g, g + 256 / kLanes, ... (for_each_row) over its lanes with xor shuffles, and the group's
/// first lane writes the row's result: consecutive groups write consecutive outputs.
template <typename T, int kLanes, int kElements, typename Op>
__global__ void __launch_bounds__(kRingBlock)
    rows_ring_kernel(const T* __restrict__ in, T* __restrict__ out, std::int64_t rows, int cols, int rows_per_tile,
                     int slot_elements, Op op) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  const bool first_lane = static_cast<int>(threadIdx.x) % kLanes == 0;
  ring::stream_row_tiles<T, false>(
      in, nullptr, rows, cols, rows_per_tile, slot_elements, [&](T* tile, int tile_rows, std::int64_t first_row) {
        ring::for_each_row<T, kLanes, kElements>(
            tile, tile_rows, cols, [&](T*, int r, float(&values)[kElements], const bool(&valid)[kElements]) {
              float acc = Op::identity();
#pragma unroll
              for (int i = 0; i < kElements; ++i) acc = valid[i] ? op(acc, values[i]) : acc;
              acc = ring::group_allreduce<kLanes>(acc, op);
              if (first_lane && r < tile_rows) out[first_row + r] = from_float<T>(acc);
            });
      });
#else
  __trap();  // planned only on compute capability 9.0 and later (plan_rows_ring)
#endif
}

/// The kernel's instantiation for rows of `cols` elements (row_group_shape) and this operator.
template <typename T, typename Op>
auto rows_ring_kernel_for(std::int64_t cols) {
  return ring::with_group_shape(row_group_shape(cols), [](auto lanes, auto elements) {
    return &rows_ring_kernel<T, decltype(lanes)::value, decltype(elements)::value, Op>;
  });
}

template <typename T>
const void* rows_ring_kernel_address(std::int64_t cols, Reduction reduction) {
  return reduction == Reduction::sum ? reinterpret_cast<const void*>(rows_ring_kernel_for<T, SumOp>(cols))
                                     : reinterpret_cast<const void*>(rows_ring_kernel_for<T, MaxOp>(cols));
}

template <typename T, typename Op>
void launch_ring(const T* in, T* out, std::int64_t rows, std::int64_t cols, const RowRingShape& shape, Op op,
                 cudaStream_t stream) {
  const int slot_elements = static_cast<int>(shape.slot_bytes / static_cast<std::int64_t>(sizeof(T)));
  rows_ring_kernel_for<T, Op>(cols)<<<static_cast<unsigned>(shape.blocks), kRingBlock,
                                      static_cast<std::size_t>(shape.shared_bytes), stream>>>(
      in, out, rows, static_cast<int>(cols), static_cast<int>(shape.rows_per_tile), slot_elements, op);
  KBENCH_CHECK_LAUNCH();
}

}  // namespace

template <typename T>
RowsRingPlan plan_rows_ring(const T* in, std::int64_t rows, std::int64_t cols, Reduction reduction, int sm_count,
                            int cc_major) {
  RowsRingPlan plan;
  if (cc_major < 9 || rows < 1 || cols < 1 || cols > kRingMaxCols || !aligned16(in)) return plan;
  plan.shape = ring::plan_row_ring(rows_ring_kernel_address<T>(cols, reduction), rows, cols, sizeof(T), sm_count);
  return plan;
}

template <typename T>
void launch_rows_ring(const T* in, T* out, std::int64_t rows, std::int64_t cols, Reduction reduction,
                      const RowsRingPlan& plan, cudaStream_t stream) {
  if (plan.shape.blocks == 0) {
    launch_rows_flat(in, out, rows, cols, reduction, stream);
    return;
  }
  if (!aligned16(in)) throw std::invalid_argument("sum ring_rows: the input moved since the plan");
  if (reduction == Reduction::sum) launch_ring(in, out, rows, cols, plan.shape, SumOp{}, stream);
  else launch_ring(in, out, rows, cols, plan.shape, MaxOp{}, stream);
}

#define KBENCH_INSTANTIATE_ROWS_RING(T)                                                                          \
  template RowsRingPlan plan_rows_ring<T>(const T*, std::int64_t, std::int64_t, Reduction, int, int);           \
  template void launch_rows_ring<T>(const T*, T*, std::int64_t, std::int64_t, Reduction, const RowsRingPlan&, \
                                    cudaStream_t);

KBENCH_INSTANTIATE_ROWS_RING(float)
KBENCH_INSTANTIATE_ROWS_RING(__half)
KBENCH_INSTANTIATE_ROWS_RING(__nv_bfloat16)

}  // namespace kbench::sum
