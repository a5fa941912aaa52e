// Softmax of few long rows on Hopper (4 to 64 rows of 64K to 4M elements): the whole GPU works on
// the rows at once. One cooperative grid of two blocks per SM; each row is split over
// blocks_per_row blocks, each holding its slice of the row in shared memory, filled by the bulk
// copy engine (the whole slice in flight at once). The blocks of a row exchange their online
// (max, sum) through global memory, then each block writes its slice from shared memory: one DRAM
// read and one write per element, for rows far longer than a cluster holds. Tensors larger than
// the grid's shared memory go through in batches of rows_in_flight rows (grid_row_shape).
#include "kernels/softmax/softmax_auto.hpp"
#include "kernels/softmax/softmax_kernels.hpp"

#include "harness/device/cuda_check.hpp"
#include "kernels/common/flat_tile.cuh"
#include "kernels/common/bulk_copy.cuh"
#include "kernels/common/device_flags.cuh"
#include "kernels/common/launch_attributes.cuh"
#include "kernels/softmax/softmax_device.cuh"

#include <stdexcept>

namespace kbench::softmax {

namespace {

constexpr int kGridBlock = 512;
/// A slice arrives in pieces of kPieceBytes, each on its own mbarrier, so that the threads fold
/// the first piece while the later ones are still in flight.
constexpr std::int64_t kPieceBytes = 16 * 1024;
constexpr int kPieceVectors = static_cast<int>(kPieceBytes / 16);
constexpr int kPieces = static_cast<int>((kGridSliceMost + kPieceBytes - 1) / kPieceBytes);

/// Block b takes chunk b % blocks_per_row of rows b / blocks_per_row, + rows_in_flight, ...: vectors
/// [chunk x slice, +slice) of the row's aligned body (aligned_span); chunk 0 also holds the head
/// elements and the last chunk the tail elements, one per thread, in registers. Per row: thread 0
/// starts the bulk copies of the slice; the threads fold each piece as it lands; the block's state
/// goes to the row's slot of `states` and the slot's arrival counter; once all the row's
/// blocks have arrived, every block combines the row's states in chunk order (the same total, bit
/// for bit, in every block) and writes its slice. The blocks of one row form a slot (b /
/// blocks_per_row), which takes the same rows in the same order; the last block to leave the
/// slot's last row resets its counters to 0, so the next call finds them as the first did.
template <typename T>
__global__ void __launch_bounds__(kGridBlock)
    softmax_grid_row_kernel(const T* __restrict__ x, T* __restrict__ y, std::int64_t rows, std::int64_t cols,
                            GridRowShape shape, float* __restrict__ states, unsigned* __restrict__ counters) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  extern __shared__ uint4 grid_slice[];
  __shared__ alignas(8) std::uint64_t piece_ready[kPieces];
  const std::int64_t per_row = shape.blocks_per_row;
  const std::int64_t chunk = blockIdx.x % per_row;
  if (threadIdx.x == 0) {
    for (int p = 0; p < kPieces; ++p) bulk::barrier_init(&piece_ready[p]);
    bulk::fence_barrier_init();
  }
  __syncthreads();

  std::uint32_t parity = 0;  // of the row's batch: the mbarriers' phase and the states' buffer
  std::int64_t batch = 0;
  for (std::int64_t row = blockIdx.x / per_row; row < rows; row += shape.rows_in_flight, parity ^= 1u, ++batch) {
    const T* xr = x + row * cols;
    T* yr = y + row * cols;
    const AlignedSpan span = aligned_span(xr, cols);
    const std::int64_t begin = chunk * shape.slice_vectors;
    const std::int64_t remaining = span.vectors - begin;
    const int count =
        static_cast<int>(remaining < 0 ? 0 : (remaining < shape.slice_vectors ? remaining : shape.slice_vectors));
    const auto* body = reinterpret_cast<const uint4*>(xr + span.head) + begin;

    // Every barrier completes one phase per row (pieces past the slice with 0 bytes), so that all
    // threads agree on the parity to wait for.
    if (threadIdx.x == 0) {
      bulk::fence_proxy_async_shared();  // the previous row's reads of the slice come before the copies
      for (int p = 0; p < kPieces; ++p) {
        const int first = p * kPieceVectors;
        const int n = count - first < 0 ? 0 : (count - first < kPieceVectors ? count - first : kPieceVectors);
        bulk::arrive_expect_bytes(&piece_ready[p], static_cast<std::uint32_t>(n) * 16u);
        if (n > 0) bulk::load_bulk(grid_slice + first, body + first, static_cast<std::uint32_t>(n) * 16u, &piece_ready[p]);
      }
    }

    const std::int64_t scalar_at = row_edge_element<T>(span, chunk == 0, chunk == per_row - 1);
    MaxSum state = empty_max_sum();
    float scalar = 0.0f;
    if (scalar_at >= 0) {
      scalar = to_float(xr[scalar_at]);
      const float one[1] = {scalar};
      state = fold(state, one);
    }
    for (int p = 0; p * kPieceVectors < count; ++p) {
      bulk::wait_phase(&piece_ready[p], parity);
      const int end = count < (p + 1) * kPieceVectors ? count : (p + 1) * kPieceVectors;
      int v = p * kPieceVectors + static_cast<int>(threadIdx.x);
      for (; v + kGridBlock < end; v += 2 * kGridBlock) {
        const uint4 two[2] = {grid_slice[v], grid_slice[v + kGridBlock]};
        state = fold_vectors<T, 2>(state, two);
      }
      if (v < end) {
        const uint4 one[1] = {grid_slice[v]};
        state = fold_vectors<T, 1>(state, one);
      }
    }
    const MaxSum block_state = block_combine(state);

    // Publish, then wait for the slot's other blocks (all resident: a cooperative launch). The
    // slot's arrival counter only grows during a call (the batch-th row is complete at
    // (batch + 1) x blocks_per_row arrivals), and its states alternate between two buffers, so a
    // block may start its next row while a slower one still reads this row's states.
    const std::int64_t slot = blockIdx.x / per_row;
    float2* slot_states = reinterpret_cast<float2*>(states) + (parity * shape.rows_in_flight + slot) * per_row;
    unsigned* arrived = counters + 2 * slot;
    unsigned* left = arrived + 1;
    if (threadIdx.x == 0) {
      __stcg(slot_states + chunk, make_float2(block_state.m, block_state.d));
      add_release(arrived, 1u);  // orders the state before the count, with no reply to wait for
      const unsigned complete = static_cast<unsigned>((batch + 1) * per_row);
      // Polled without sleeps (1-8 % faster than 64 ns sleeps; softmax/NOTES.md). A slot whose
      // blocks never all arrive (co-residency broken) fails the launch after about 4 s at H100
      // clocks rather than hanging the run.
      const long long start = clock64();
      while (load_acquire(arrived) < complete) {
        if (clock64() - start > (1ll << 33)) __trap();
      }
    }
    __syncthreads();
    MaxSum row_state = empty_max_sum();
    for (std::int64_t k = threadIdx.x; k < per_row; k += kGridBlock) {
      const float2 s = __ldcg(slot_states + k);
      row_state = combine(row_state, MaxSum{s.x, s.y});
    }
    const MaxSum total = block_combine(row_state);  // its barrier: every thread has read the states
    const bool last_row = row + shape.rows_in_flight >= rows;
    if (last_row && threadIdx.x == 0 && atomicAdd(left, 1u) == static_cast<unsigned>(per_row) - 1) {
      *arrived = 0;  // every block of the slot has passed its last wait: the next call starts from 0
      *left = 0;
    }

    const float inverse_sum = fast_reciprocal(total.d);
    auto* out = reinterpret_cast<uint4*>(yr + span.head) + begin;
    for (int v = threadIdx.x; v < count; v += kGridBlock) out[v] = normalize_vector<T>(grid_slice[v], total.m, inverse_sum);
    if (scalar_at >= 0) yr[scalar_at] = from_float<T>(exp_via_exp2(scalar - total.m) * inverse_sum);
    __syncthreads();  // the slice and block_combine's scratch are free for the next row
  }
#else
  __trap();  // planned only on compute capability 9.0 and later (plan_grid_row)
#endif
}

bool same_phase(const void* x, const void* y) {
  return reinterpret_cast<std::uintptr_t>(x) % 16 == reinterpret_cast<std::uintptr_t>(y) % 16;
}

}  // namespace

std::size_t grid_row_scratch_bytes(const GridRowShape& shape) {
  const auto blocks = static_cast<std::size_t>(shape.blocks_per_row * shape.rows_in_flight);
  return 2 * blocks * sizeof(float2) + 2 * static_cast<std::size_t>(shape.rows_in_flight) * sizeof(unsigned);
}

template <typename T>
GridRowPlan plan_grid_row(const T* x, const T* y, std::int64_t rows, std::int64_t cols, int sm_count, int cc_major) {
  GridRowPlan plan;
  if (cc_major < 9 || !same_phase(x, y) || rows < 1) return plan;
  // The largest slice any plan makes, so that a plan never narrows another's limit.
  KBENCH_CUDA_CALL(cudaFuncSetAttribute(softmax_grid_row_kernel<T>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        static_cast<int>(kGridSliceMost)));
  int per_sm = kGridBlocksPerSm;
  for (int attempt = 0; attempt < 2 && per_sm > 0; ++attempt) {
    const GridRowShape shape = grid_row_shape(rows, cols, sizeof(T), static_cast<std::int64_t>(per_sm) * sm_count);
    if (shape.blocks_per_row == 0) return plan;
    const int bytes = static_cast<int>(shape.slice_vectors * 16);
    int fits = 0;
    KBENCH_CUDA_CALL(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fits, softmax_grid_row_kernel<T>, kGridBlock, bytes));
    if (fits >= per_sm) {
      plan.shape = shape;
      return plan;
    }
    per_sm = fits;  // fewer resident blocks than planned: plan again for what fits
  }
  return plan;
}

template <typename T>
void launch_grid_row(const T* x, T* y, std::int64_t rows, std::int64_t cols, const GridRowPlan& plan, void* scratch,
                     cudaStream_t stream) {
  if (plan.shape.blocks_per_row == 0) {
    launch_online(x, y, rows, cols, stream);
    return;
  }
  if (!same_phase(x, y)) throw std::invalid_argument("softmax grid_row: x and y moved since the plan");
  const std::int64_t blocks = plan.shape.blocks_per_row * plan.shape.rows_in_flight;
  float* states = static_cast<float*>(scratch);
  auto* counters = reinterpret_cast<unsigned*>(states + 4 * blocks);
  // Every block resident at once, or the launch fails: the blocks of a row wait on each other.
  launch_cooperative(softmax_grid_row_kernel<T>, dim3(static_cast<unsigned>(blocks)), dim3(kGridBlock),
                     static_cast<std::size_t>(plan.shape.slice_vectors) * 16, stream, x, y, rows, cols, plan.shape,
                     states, counters);
}

#define KBENCH_INSTANTIATE_GRID_ROW(T)                                                                       \
  template GridRowPlan plan_grid_row<T>(const T*, const T*, std::int64_t, std::int64_t, int, int);          \
  template void launch_grid_row<T>(const T*, T*, std::int64_t, std::int64_t, const GridRowPlan&, void*, \
                                   cudaStream_t);

KBENCH_INSTANTIATE_GRID_ROW(float)
KBENCH_INSTANTIATE_GRID_ROW(__half)
KBENCH_INSTANTIATE_GRID_ROW(__nv_bfloat16)

}  // namespace kbench::softmax
