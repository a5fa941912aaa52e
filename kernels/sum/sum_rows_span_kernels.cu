// Inner-axis reductions of short-to-medium rows (16 or 8 to 1024 elements) of any width: a warp
// per span of whole rows, read straight from global memory as 16-byte vectors, each lane's run of
// two vectors split at its (at most one) row end, and a segmented warp scan joining the runs of a
// row. Written against flat_rows' costs (kernels/sum/NOTES.md, "span_rows"): one integer division
// and about nine instructions per element there, a block barrier between a tile's loads and its
// join; here about four per element, no division in the loop and no barrier.
#include "kernels/sum/reduce_ops.cuh"
#include "kernels/sum/sum_kernels.hpp"

#include "harness/device/cuda_check.hpp"

#include <stdexcept>
#include <utility>

namespace kbench::sum {

namespace {

constexpr int kSpanBlock = 256;
constexpr int kSpanWarps = kSpanBlock / 32;
constexpr int kSpanWindows = 2;  ///< windows of 32 runs whose loads are issued before any is folded

/// Vector v of a span of n elements (16-byte aligned): one 16-byte load when whole, element loads
/// for the tensor's last, partial vector, zero bits past n (they belong to no row of the span).
template <typename T>
__device__ __forceinline__ uint4 load_span_vector(const T* __restrict__ span, int v, int n) {
  const int first = v * kVector<T>;
  if (first + kVector<T> <= n) return reinterpret_cast<const uint4*>(span)[v];
  uint4 packed = make_uint4(0u, 0u, 0u, 0u);
  if (first < n) {
    T elements[kVector<T>];
    memcpy(elements, &packed, 16);
#pragma unroll
    for (int i = 0; i < kVector<T>; ++i) {
      if (first + i < n) elements[i] = span[first + i];
    }
    memcpy(&packed, elements, 16);
  }
  return packed;
}

/// acc_before = op(acc_before, x) when i < k, else acc_after = op(acc_after, x): one compare and
/// two predicated instructions (the C++ ternary compiles to two adds and two selects).
template <int kI>
__device__ __forceinline__ void fold_split(float x, int k, float& before, float& after, SumOp) {
  asm("{\n\t.reg .pred p;\n\tsetp.gt.s32 p, %2, %3;\n\t@p add.f32 %0, %0, %4;\n\t@!p add.f32 %1, %1, %4;\n\t}"
      : "+f"(before), "+f"(after)
      : "r"(k), "n"(kI), "f"(x));
}
template <int kI>
__device__ __forceinline__ void fold_split(float x, int k, float& before, float& after, MaxOp) {
  asm("{\n\t.reg .pred p;\n\tsetp.gt.s32 p, %2, %3;\n\t@p max.f32 %0, %0, %4;\n\t@!p max.f32 %1, %1, %4;\n\t}"
      : "+f"(before), "+f"(after)
      : "r"(k), "n"(kI), "f"(x));
}

template <typename T, int kFirst, typename Op, int... kI>
__device__ __forceinline__ void split_elements(const T (&elements)[kVector<T>], int k, float& before, float& after,
                                               Op op, std::integer_sequence<int, kI...>) {
  (fold_split<kFirst + kI>(to_float(elements[kI]), k, before, after, op), ...);
}

/// Folds one 16-byte vector, elements kFirst.. of a run, into `before` (run elements below k) and
/// `after` (the others).
template <typename T, int kFirst, typename Op>
__device__ __forceinline__ void split_vector(uint4 packed, int k, float& before, float& after, Op op) {
  T elements[kVector<T>];
  memcpy(elements, &packed, 16);
  split_elements<T, kFirst>(elements, k, before, after, op, std::make_integer_sequence<int, kVector<T>>{});
}

/// Warp w of the grid reduces rows [w * rows_per_span, +rows_per_span): n elements from a 16-byte
/// aligned start (rows_per_span is a multiple of 8). The span is read in windows of 32 runs, run
/// r being vectors 2r and 2r + 1 of the window: lane l's run in window w starts at element
/// (w * 32 + l) * kRun. `row` and `offset` (the run's first element is element `offset` of span
/// row `row`) advance by 32 runs per window with additions only.
///
/// A run holds at most one row end (cols >= kRun). Its elements before it (k = cols - offset of
/// them, all of them when k >= kRun) go to `before`, the rest, the start of the next row, to
/// `after`. Lane l's row then receives, in order: the previous lane's `after` (or, on lane 0, the
/// open row's partial carried from the previous window), this lane's `before`, and the `before` of
/// the next lanes up to the one where the row ends. An inclusive segmented scan (5 shuffles; a
/// segment starts on a lane whose previous lane ended a row) leaves that total on the row's last
/// lane, which stores it. Elements past the span (the last window's spare runs, the zero bits of a
/// partial vector) fold into rows past span_rows, which are never stored. Deterministic: the
/// order of the folds depends only on cols.
template <typename T, typename Op>
__global__ void __launch_bounds__(kSpanBlock)
    rows_span_kernel(const T* __restrict__ in, T* __restrict__ out, std::int64_t rows, int cols, int rows_per_span,
                     Op op) {
  constexpr int kRun = 2 * kVector<T>;
  constexpr int kWindowVectors = 64;
  const int lane = static_cast<int>(threadIdx.x) % 32;
  const std::int64_t warp = static_cast<std::int64_t>(blockIdx.x) * kSpanWarps + threadIdx.x / 32;
  const std::int64_t first_row = warp * rows_per_span;
  if (first_row >= rows) return;  // whole warps leave together: the shuffles below stay full-warp
  const int span_rows = static_cast<int>(min(static_cast<std::int64_t>(rows_per_span), rows - first_row));
  const int n = span_rows * cols;
  const int vectors = (n + kVector<T> - 1) / kVector<T>;
  const T* span = in + first_row * cols;
  T* span_out = out + first_row;

  // Once per warp: this lane's first run, and how far 32 runs move a run.
  int row = lane * kRun / cols;
  int offset = lane * kRun - row * cols;
  const int step_rows = 32 * kRun / cols;
  const int step_offset = 32 * kRun - step_rows * cols;
  const unsigned below_lane = (2u << lane) - 1u;  // lanes 0..lane (all 32 on lane 31)
  float carry = Op::identity();

  for (int base = 0; base < vectors; base += kSpanWindows * kWindowVectors) {
    uint4 held[kSpanWindows][2];
#pragma unroll
    for (int w = 0; w < kSpanWindows; ++w) {
#pragma unroll
      for (int j = 0; j < 2; ++j) {
        const int v = base + w * kWindowVectors + 2 * lane + j;
        held[w][j] = v < vectors ? load_span_vector(span, v, n) : make_uint4(0u, 0u, 0u, 0u);
      }
    }
#pragma unroll
    for (int w = 0; w < kSpanWindows; ++w) {
      const int k = cols - offset;  // elements of `row` from the run's first on, >= 1
      float before = Op::identity(), after = Op::identity();
      split_vector<T, 0>(held[w][0], k, before, after, op);
      split_vector<T, kVector<T>>(held[w][1], k, before, after, op);
      const bool ends = k <= kRun;
      const unsigned ended = __ballot_sync(0xffffffffu, ends);
      const float previous_after = __shfl_up_sync(0xffffffffu, after, 1);
      float total = op(lane == 0 ? carry : previous_after, before);
      // The segment of lane l starts after the last lane below l that ended a row (lane 0 if none).
      const unsigned starts = ((ended << 1) | 1u) & below_lane;
      const int head = 31 - __clz(starts);
#pragma unroll
      for (int d = 1; d < 32; d <<= 1) {
        const float earlier = __shfl_up_sync(0xffffffffu, total, d);
        if (lane - d >= head) total = op(earlier, total);
      }
      if (ends && row < span_rows) span_out[row] = from_float<T>(total);
      // The row open after lane 31's run: its `after` if the run ended a row, else the scan's total.
      const float last_total = __shfl_sync(0xffffffffu, total, 31);
      const float last_after = __shfl_sync(0xffffffffu, after, 31);
      carry = (ended >> 31) ? last_after : last_total;
      offset += step_offset;
      row += step_rows;
      if (offset >= cols) {
        offset -= cols;
        ++row;
      }
    }
  }
}

template <typename T, typename Op>
void rows_span(const T* in, T* out, std::int64_t rows, std::int64_t cols, Op op, cudaStream_t stream) {
  const std::int64_t rows_per_span = span_rows_per_warp(cols, sizeof(T));
  const std::int64_t warps = (rows + rows_per_span - 1) / rows_per_span;
  const std::int64_t blocks = (warps + kSpanWarps - 1) / kSpanWarps;
  if (blocks > 0x7FFFFFFF) throw std::invalid_argument("sum span rows: too many spans for a 1-D grid");
  rows_span_kernel<T><<<static_cast<unsigned>(blocks), kSpanBlock, 0, stream>>>(
      in, out, rows, static_cast<int>(cols), static_cast<int>(rows_per_span), op);
  KBENCH_CHECK_LAUNCH();
}

}  // namespace

template <typename T>
void launch_rows_span(const T* in, T* out, std::int64_t rows, std::int64_t cols, Reduction reduction,
                      cudaStream_t stream) {
  if (cols < span_run_elements(sizeof(T)) || cols > kFlatRowsMaxCols || !aligned16(in)) {
    launch_rows_flat(in, out, rows, cols, reduction, stream);
    return;
  }
  if (rows == 0) return;
  if (reduction == Reduction::sum) rows_span(in, out, rows, cols, SumOp{}, stream);
  else rows_span(in, out, rows, cols, MaxOp{}, stream);
}

template void launch_rows_span<float>(const float*, float*, std::int64_t, std::int64_t, Reduction, cudaStream_t);
template void launch_rows_span<__half>(const __half*, __half*, std::int64_t, std::int64_t, Reduction, cudaStream_t);
template void launch_rows_span<__nv_bfloat16>(const __nv_bfloat16*, __nv_bfloat16*, std::int64_t, std::int64_t,
                                              Reduction, cudaStream_t);

}  // namespace kbench::sum
