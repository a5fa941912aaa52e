// Softmax of many short 16-bit rows (kernels/softmax/NOTES.md, "thread_rows"): ring_rows' tiles of
// whole rows streamed through shared memory by the bulk copy engine (kernels/common/row_ring.cuh),
// but a thread owns a row (two threads a part each past 32 columns) and moves it between the tile
// and its registers as 4-byte words: no lane group, no shuffle up to 32 columns, one instruction
// an element for most of the row's work.
#include "kernels/softmax/softmax_thread_rows.hpp"

#include "harness/device/cuda_check.hpp"
#include "kernels/common/row_ring.cuh"
#include "kernels/softmax/softmax_device.cuh"

#include <stdexcept>
#include <utility>

namespace kbench::softmax {

namespace {

/// Block b takes tiles b, b + gridDim.x, ... (stream_row_tiles) of rounds of kRingBlock / kLanes
/// rows; in each round thread t takes part t % kLanes of the round's row t / kLanes: `length` elements from `begin`, at most
/// kElements. The part starts at element `start` of the tile, `phase` = start % 2 elements into a
/// word, so it is read as the words from start / 2 on, each pair of its elements one funnel shift
/// of two neighbouring words; its results go back as whole words where both halves are its own and
/// as single 16-bit stores at either end (the half word it shares with the neighbouring part).
template <typename T, int kLanes, int kElements>
__global__ void __launch_bounds__(kRingBlock)
    softmax_thread_rows_kernel(const T* __restrict__ x, T* __restrict__ y, std::int64_t rows, int cols, int first_part,
                               int rows_per_tile, int slot_elements) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  static_assert(sizeof(T) == 2 && kElements % 2 == 0, "thread_rows takes 16-bit rows, parts of whole pairs");
  constexpr int kPairs = kElements / 2;
  const int part = static_cast<int>(threadIdx.x) % kLanes;
  const int tile_row = static_cast<int>(threadIdx.x) / kLanes;
  const int begin = part == 0 ? 0 : first_part;
  const int length = (part == 0 ? first_part : cols) - begin;

  auto on_row = [&](T* tile, int tile_rows, int r) {
    const bool live = r < tile_rows;
    const int n = live ? length : 0;
    const int start = (live ? r : 0) * cols + begin;
    const int phase = start & 1;
    auto* words = reinterpret_cast<std::uint32_t*>(tile) + (start >> 1);

    std::uint32_t raw[kPairs + 1];
#pragma unroll
    for (int j = 0; j <= kPairs; ++j) raw[j] = 2 * j < n + phase ? words[j] : 0u;
    float v[kElements];
#pragma unroll
    for (int i = 0; i < kPairs; ++i) {
      const float2 pair = unpack_pair<T>(__funnelshift_r(raw[i], raw[i + 1], 16 * phase));
      v[2 * i] = pair.x;
      v[2 * i + 1] = pair.y;
    }

    float row_max = negative_infinity();
#pragma unroll
    for (int k = 0; k < kElements; ++k) row_max = k < n ? fmaxf(row_max, v[k]) : row_max;
    if constexpr (kLanes == 2) row_max = fmaxf(row_max, __shfl_xor_sync(0xffffffffu, row_max, 1));
    float sum = 0.0f;
#pragma unroll
    for (int k = 0; k < kElements; ++k) {
      if (k < n) {
        v[k] = exp_via_exp2(v[k] - row_max);
        sum += v[k];
      }
    }
    if constexpr (kLanes == 2) sum += __shfl_xor_sync(0xffffffffu, sum, 1);
    const float inverse_sum = fast_reciprocal(sum);

    // packed[i + 1] = the part's elements (2i, 2i + 1); zero words on both sides, so that tile
    // word j, which holds elements 2j - phase and 2j + 1 - phase, is one clamped funnel shift.
    std::uint32_t packed[kPairs + 2];
    packed[0] = 0u;
    packed[kPairs + 1] = 0u;
#pragma unroll
    for (int i = 0; i < kPairs; ++i) packed[i + 1] = pack_pair<T>(v[2 * i] * inverse_sum, v[2 * i + 1] * inverse_sum);
    auto* halves = reinterpret_cast<std::uint16_t*>(words);
#pragma unroll
    for (int j = 0; j <= kPairs; ++j) {
      const std::uint32_t word = __funnelshift_rc(packed[j], packed[j + 1], 32 - 16 * phase);
      const int low = 2 * j - phase;  // the element in the word's low half
      const bool own_low = low >= 0 && low < n;
      const bool own_high = low + 1 < n;
      if (own_low && own_high) {
        words[j] = word;
      } else if (own_low) {
        halves[2 * j] = static_cast<std::uint16_t>(word);  // the part's last element
      } else if (own_high) {
        halves[2 * j + 1] = static_cast<std::uint16_t>(word >> 16);  // the part's first element
      }
    }
  };
  ring::stream_row_tiles<T, true>(x, y, rows, cols, rows_per_tile, slot_elements, [&](T* tile, int tile_rows, std::int64_t) {
    for (int round = 0; round < rows_per_tile; round += kRingBlock / kLanes) on_row(tile, tile_rows, round + tile_row);
  });
#else
  __trap();  // planned only on compute capability 9.0 and later (plan_thread_rows)
#endif
}

/// The kernel's instantiations for kLanes lanes, one per even slot count from kThreadRowsMinElements
/// to kThreadRowsMaxElements, and the one for the shape.
template <typename T, int kLanes, int... kStep>
auto thread_rows_kernel_of(int elements, std::integer_sequence<int, kStep...>) {
  using Kernel = decltype(&softmax_thread_rows_kernel<T, kLanes, kThreadRowsMinElements>);
  constexpr Kernel table[] = {&softmax_thread_rows_kernel<T, kLanes, kThreadRowsMinElements + 2 * kStep>...};
  return table[(elements - kThreadRowsMinElements) / 2];
}

template <typename T>
auto thread_rows_kernel(const ThreadRowsShape& shape) {
  using Steps = std::make_integer_sequence<int, (kThreadRowsMaxElements - kThreadRowsMinElements) / 2 + 1>;
  if (shape.lanes == 1) return thread_rows_kernel_of<T, 1>(shape.elements, Steps{});
  return thread_rows_kernel_of<T, 2>(shape.elements, Steps{});
}

template <typename T>
bool plan_allowed(const T* x, const T* y, std::int64_t rows, std::int64_t cols, int cc_major) {
  return cc_major >= 9 && rows >= 1 && thread_rows_fits(cols, sizeof(T)) && aligned16(x) && aligned16(y);
}

}  // namespace

template <typename T>
ThreadRowsPlan plan_thread_rows(const T* x, const T* y, std::int64_t rows, std::int64_t cols, int sm_count,
                                int cc_major) {
  ThreadRowsPlan plan;
  if constexpr (sizeof(T) == 2) {  // fp32 is declared for the op's dispatch over every dtype: no plan
    if (!plan_allowed(x, y, rows, cols, cc_major)) return plan;
    plan.cols = cols;
    plan.rows = thread_rows_shape(cols);
    ring::RingLimits limits;
    limits.rows_per_tile = plan.rows.rows_per_tile;
    limits.most_shared_bytes = kThreadRowsMostSharedBytes;
    plan.shape = ring::plan_row_ring(reinterpret_cast<const void*>(thread_rows_kernel<T>(plan.rows)), rows, cols,
                                     sizeof(T), sm_count, limits);
  }
  return plan;
}

template <typename T>
void launch_thread_rows(const T* x, T* y, std::int64_t rows, std::int64_t cols, const ThreadRowsPlan& plan,
                        cudaStream_t stream) {
  const RowRingShape& shape = plan.shape;
  if (shape.blocks == 0) throw std::invalid_argument("softmax thread_rows: the plan says it cannot run this problem");
  if (!aligned16(x) || !aligned16(y)) throw std::invalid_argument("softmax thread_rows: x or y moved since the plan");
  if (cols != plan.cols) {
    throw std::invalid_argument("softmax thread_rows: the plan was made for rows of another width");
  }
  if constexpr (sizeof(T) != 2) {
    throw std::invalid_argument("softmax thread_rows: fp32 rows are not its class");
  } else {
    const int slot_elements = static_cast<int>(shape.slot_bytes / static_cast<std::int64_t>(sizeof(T)));
    thread_rows_kernel<T>(plan.rows)<<<static_cast<unsigned>(shape.blocks), kRingBlock,
                                       static_cast<std::size_t>(shape.shared_bytes), stream>>>(
        x, y, rows, static_cast<int>(cols), plan.rows.first_part, static_cast<int>(shape.rows_per_tile),
        slot_elements);
    KBENCH_CHECK_LAUNCH();
  }
}

#define KBENCH_INSTANTIATE_THREAD_ROWS(T)                                                                      \
  template ThreadRowsPlan plan_thread_rows<T>(const T*, const T*, std::int64_t, std::int64_t, int, int);      \
  template void launch_thread_rows<T>(const T*, T*, std::int64_t, std::int64_t, const ThreadRowsPlan&, cudaStream_t);

KBENCH_INSTANTIATE_THREAD_ROWS(float)
KBENCH_INSTANTIATE_THREAD_ROWS(__half)
KBENCH_INSTANTIATE_THREAD_ROWS(__nv_bfloat16)

}  // namespace kbench::softmax
