// Softmax of many short rows of any width (kernels/softmax/NOTES.md, "warp_rows"): no shared
// memory and no barrier. A group of 1-32 lanes owns a row; each lane loads its 4-byte words of
// the row straight from global memory (lane l takes words l, l + lanes, ...), and the groups of a
// warp take consecutive rows, so one load instruction of the warp covers one contiguous stretch.
// Every lane issues the loads of all its rows before the first reduction: the bytes in flight
// that hide DRAM latency are the warps' own registers, not a staged tile.
//
// 16-bit rows of odd width start on a word or halfway into one; a word with both elements in the
// row moves as one 4-byte access, the word at either end that shares an element with the
// neighbouring row moves only its own element (a 2-byte access), so no lane writes another
// row's element.
#include "kernels/softmax/softmax_auto.hpp"
#include "kernels/softmax/softmax_kernels.hpp"

#include "harness/device/cuda_check.hpp"
#include "kernels/softmax/softmax_device.cuh"

#include <cstdint>
#include <stdexcept>
#include <type_traits>

namespace kbench::softmax {

namespace {

constexpr int kWarpRowsBlock = 256;

/// Elements of T per 4-byte word.
template <typename T>
constexpr int kPerWord = 4 / static_cast<int>(sizeof(T));

/// The raw bits of one element.
template <typename T>
using Bits = std::conditional_t<sizeof(T) == 2, std::uint16_t, std::uint32_t>;

/// One row's bounds in elements, counted from the warp's first word: [begin, end); empty for rows
/// past the last. 32-bit: a warp's rows span at most 256 x 256 elements.
struct RowSpan {
  int begin = 0;
  int end = 0;
};

/// Word `w` of x, with the elements outside `row` left zero: one 4-byte load when the whole word
/// lies in the row, a load per element in it otherwise (none for a word wholly outside).
template <typename T>
__device__ __forceinline__ std::uint32_t load_word(const T* __restrict__ x, int w, RowSpan row) {
  constexpr int kPack = kPerWord<T>;
  const int e = w * kPack;
  if (e >= row.begin && e + kPack <= row.end) return reinterpret_cast<const std::uint32_t*>(x)[w];
  Bits<T> part[kPack] = {};
#pragma unroll
  for (int j = 0; j < kPack; ++j) {
    if (e + j >= row.begin && e + j < row.end) part[j] = reinterpret_cast<const Bits<T>*>(x)[e + j];
  }
  std::uint32_t word;
  memcpy(&word, part, 4);
  return word;
}

/// Writes `values` (the elements of word `w`) to y, each only where it lies in `row`: one 4-byte
/// store for a whole word.
template <typename T>
__device__ __forceinline__ void store_word(T* __restrict__ y, int w, RowSpan row, const float (&values)[kPerWord<T>]) {
  constexpr int kPack = kPerWord<T>;
  const int e = w * kPack;
  T part[kPack];
#pragma unroll
  for (int j = 0; j < kPack; ++j) part[j] = from_float<T>(values[j]);
  if (e >= row.begin && e + kPack <= row.end) {
    std::uint32_t word;
    memcpy(&word, part, 4);
    reinterpret_cast<std::uint32_t*>(y)[w] = word;
    return;
  }
#pragma unroll
  for (int j = 0; j < kPack; ++j) {
    if (e + j >= row.begin && e + j < row.end) y[e + j] = part[j];
  }
}

/// Reduces `v` over the kLanes lanes of this lane's group; every lane of the warp calls it.
template <int kLanes, typename Op>
__device__ __forceinline__ float group_allreduce(float v, Op op) {
#pragma unroll
  for (int offset = kLanes / 2; offset > 0; offset >>= 1) v = op(v, __shfl_xor_sync(0xffffffffu, v, offset));
  return v;
}

/// Warp w of the grid takes rows [w x kGroups x kRows, +kGroups x kRows): in step r, group g takes
/// row r x kGroups + g of them, so the warp's groups sit on consecutive rows. Lane l of a group
/// holds the row's words (first word) + l + k x kLanes, k < kWords. Rows past `rows` are empty
/// spans: their lanes load and store nothing but still take part in the shuffles. Addresses are
/// 32-bit offsets from the word that holds the warp's first element (fewer registers per row).
template <typename T, int kLanes, int kWords, int kRows>
__global__ void __launch_bounds__(kWarpRowsBlock)
    softmax_warp_rows_kernel(const T* __restrict__ x, T* __restrict__ y, std::int64_t rows, int cols) {
  constexpr int kPack = kPerWord<T>;
  constexpr int kGroups = 32 / kLanes;
  const int lane = static_cast<int>(threadIdx.x) % kLanes;
  const int group = static_cast<int>(threadIdx.x % 32) / kLanes;
  const std::int64_t warp_row = (static_cast<std::int64_t>(blockIdx.x) * (kWarpRowsBlock / 32) + threadIdx.x / 32) *
                                kGroups * kRows;
  const std::int64_t warp_element = warp_row * cols;
  const std::int64_t warp_word = warp_element / kPack;
  const T* xs = x + warp_word * kPack;
  T* ys = y + warp_word * kPack;
  const int lead = static_cast<int>(warp_element - warp_word * kPack);  // elements before the warp's first row
  const int rows_here = static_cast<int>(min(rows - warp_row, static_cast<std::int64_t>(kGroups * kRows)));

  auto span_of = [&](int r) {
    const int row = r * kGroups + group;
    RowSpan span;
    if (row < rows_here) {
      span.begin = lead + row * cols;
      span.end = span.begin + cols;
    }
    return span;
  };
  auto word_of = [&](RowSpan span, int k) { return span.begin / kPack + lane + k * kLanes; };

  std::uint32_t held[kRows][kWords];
#pragma unroll
  for (int r = 0; r < kRows; ++r) {
    const RowSpan span = span_of(r);
#pragma unroll
    for (int k = 0; k < kWords; ++k) held[r][k] = load_word(xs, word_of(span, k), span);
  }

#pragma unroll
  for (int r = 0; r < kRows; ++r) {
    const RowSpan span = span_of(r);
    // Values in log2 units (x log2 e), so that each exponential is one subtract and one ex2.
    float scaled[kWords][kPack];
    bool valid[kWords][kPack];
    float row_max = negative_infinity();
#pragma unroll
    for (int k = 0; k < kWords; ++k) {
      const int e = word_of(span, k) * kPack;
      T part[kPack];
      memcpy(part, &held[r][k], 4);
#pragma unroll
      for (int j = 0; j < kPack; ++j) {
        valid[k][j] = e + j >= span.begin && e + j < span.end;
        scaled[k][j] = to_float(part[j]) * kLog2e;
        if (valid[k][j]) row_max = fmaxf(row_max, scaled[k][j]);
      }
    }
    row_max = group_allreduce<kLanes>(row_max, MaxOp{});
    float sum = 0.0f;
#pragma unroll
    for (int k = 0; k < kWords; ++k) {
#pragma unroll
      for (int j = 0; j < kPack; ++j) {
        scaled[k][j] = valid[k][j] ? fast_exp2(scaled[k][j] - row_max) : 0.0f;
        sum += scaled[k][j];
      }
    }
    const float inverse_sum = fast_reciprocal(group_allreduce<kLanes>(sum, SumOp{}));
#pragma unroll
    for (int k = 0; k < kWords; ++k) {
      float out[kPack];
#pragma unroll
      for (int j = 0; j < kPack; ++j) out[j] = scaled[k][j] * inverse_sum;
      store_word(ys, word_of(span, k), span, out);
    }
  }
}

template <typename T, int kLanes, int kWords, int kRows>
void launch_shape(const T* x, T* y, std::int64_t rows, std::int64_t cols, cudaStream_t stream) {
  constexpr std::int64_t kRowsPerBlock = kWarpRowsBlock / kLanes * kRows;
  const std::int64_t blocks = (rows + kRowsPerBlock - 1) / kRowsPerBlock;
  if (blocks > 0x7FFFFFFF) throw std::invalid_argument("softmax warp_rows: too many blocks for a 1-D grid");
  softmax_warp_rows_kernel<T, kLanes, kWords, kRows>
      <<<static_cast<unsigned>(blocks), kWarpRowsBlock, 0, stream>>>(x, y, rows, static_cast<int>(cols));
  KBENCH_CHECK_LAUNCH();
}

/// The instantiation for warp_rows_shape(cols, sizeof(T)).
template <typename T>
void launch_for_shape(const T* x, T* y, std::int64_t rows, std::int64_t cols, const WarpRowsShape& s,
                      cudaStream_t stream) {
  constexpr int kR = kWarpRowsWordsInFlight;
  switch (s.lanes) {
    case 1: return launch_shape<T, 1, 1, kR>(x, y, rows, cols, stream);
    case 2: return launch_shape<T, 2, 1, kR>(x, y, rows, cols, stream);
    case 4: return launch_shape<T, 4, 1, kR>(x, y, rows, cols, stream);
    case 8: return launch_shape<T, 8, 1, kR>(x, y, rows, cols, stream);
    case 16: return launch_shape<T, 16, 1, kR>(x, y, rows, cols, stream);
    default: break;
  }
  switch (s.words) {
    case 1: return launch_shape<T, 32, 1, kR>(x, y, rows, cols, stream);
    case 2: return launch_shape<T, 32, 2, kR / 2>(x, y, rows, cols, stream);
    case 4: return launch_shape<T, 32, 4, kR / 4>(x, y, rows, cols, stream);
    default: break;
  }
  // 8 words per lane: fp32 rows of 225-256 elements (16-bit rows of 256 are 128 words).
  if constexpr (sizeof(T) == 4) return launch_shape<T, 32, 8, 1>(x, y, rows, cols, stream);
  throw std::logic_error("softmax warp_rows: a 16-bit row of more than 128 words");
}

bool aligned4(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 4 == 0; }

}  // namespace

template <typename T>
void launch_warp_rows(const T* x, T* y, std::int64_t rows, std::int64_t cols, cudaStream_t stream) {
  if (cols > kWarpRowsMaxCols || !aligned4(x) || !aligned4(y)) {
    launch_short_rows(x, y, rows, cols, stream);
    return;
  }
  launch_for_shape(x, y, rows, cols, warp_rows_shape(cols, sizeof(T)), stream);
}

template void launch_warp_rows<float>(const float*, float*, std::int64_t, std::int64_t, cudaStream_t);
template void launch_warp_rows<__half>(const __half*, __half*, std::int64_t, std::int64_t, cudaStream_t);
template void launch_warp_rows<__nv_bfloat16>(const __nv_bfloat16*, __nv_bfloat16*, std::int64_t, std::int64_t,
                                              cudaStream_t);

}  // namespace kbench::softmax
