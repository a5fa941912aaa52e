// Softmax of few long rows on Hopper (1 to 64 rows of 64K to 4M elements), with the phases of
// successive rows overlapping. As in grid_row, one cooperative grid of two blocks per SM splits
// every row over blocks_per_row blocks that hold their slices in shared memory and exchange their
// online (max, sum) through global memory. Here a block's shared memory is a ring of pieces that
// the bulk copy engine fills in the block's row order as soon as a piece is free: while the block
// folds a row, waits for the row's exchange and writes it, the reads of its next rows are already
// in flight. DRAM sees one read and one write per element, and stays busy through each row's
// exchange; only the last wave's exchange and writes are exposed (kernels/softmax/NOTES.md).
#include "kernels/softmax/softmax_auto.hpp"
#include "kernels/softmax/softmax_kernels.hpp"

#include "harness/device/cuda_check.hpp"
#include "kernels/common/flat_tile.cuh"
#include "kernels/softmax/bulk_copy.cuh"
#include "kernels/softmax/softmax_device.cuh"

#include <stdexcept>

namespace kbench::softmax {

namespace {

constexpr int kGridRingBlock = 512;
constexpr int kPieceVectors = static_cast<int>(kGridRingPieceBytes / 16);
static_assert(kPieceVectors == kGridRingBlock, "a piece holds one vector per thread");
/// The thread that holds tail element i is kTailThread + i (the head's are threads 0..head - 1).
constexpr int kTailThread = 32;
/// About 4 s at H100 clocks: a wait that long means co-residency broke or a copy never landed;
/// trap instead of hanging.
constexpr long long kWaitLimitClocks = 1ll << 33;

/// Adds `value` to the counter with release semantics at GPU scope: this thread's earlier writes
/// (its state) are visible to whoever acquires the new count. No return value, so no wait.
__device__ __forceinline__ void add_release(unsigned* counter, unsigned value) {
  asm volatile("red.release.gpu.global.add.u32 [%0], %1;" ::"l"(counter), "r"(value) : "memory");
}

/// Reads the counter with acquire semantics at GPU scope: the writes released before the count
/// read are visible to this thread's later loads.
__device__ __forceinline__ unsigned load_acquire(const unsigned* counter) {
  unsigned value;
  asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(value) : "l"(counter) : "memory");
  return value;
}

/// Where one of a block's units (its slice of one row) lies.
template <typename T>
struct Unit {
  const T* xr;
  T* yr;
  AlignedSpan span;
  std::int64_t begin;  ///< first vector of the slice in the row's aligned body
  int count;           ///< vectors of the slice (0 for a slice past the body's end)
};

template <typename T>
__device__ __forceinline__ Unit<T> unit_of(const T* x, T* y, std::int64_t row, std::int64_t cols, std::int64_t chunk,
                                           std::int64_t slice_vectors) {
  Unit<T> u;
  u.xr = x + row * cols;
  u.yr = y + row * cols;
  u.span = aligned_span(u.xr, cols);
  u.begin = chunk * slice_vectors;
  const std::int64_t remaining = u.span.vectors - u.begin;
  u.count = static_cast<int>(remaining < 0 ? 0 : (remaining < slice_vectors ? remaining : slice_vectors));
  return u;
}

/// Block b takes chunk b % blocks_per_row of rows slot, slot + rows_in_flight, ... (slot =
/// b / blocks_per_row): its units, in that order. Unit k's slice takes ring pieces k x
/// slice_pieces, +1, ... (modulo kGridRingPieces); piece g's mbarrier completes phase g / kGridRingPieces
/// when its bytes land (a piece past the slice completes with 0 bytes). Thread 0 issues the bulk
/// copies of pieces g < freed + kGridRingPieces, where freed counts the pieces of the units already
/// written, so a copy never overwrites a piece the block still reads, and no thread is ever two
/// phases behind a piece's mbarrier. Per unit: the threads fold the slice piece by piece, the
/// block's state goes to the slot's state buffer (unit parity) and, released by one reduction,
/// to the slot's arrival counter; warp 0 acquires the count of the unit's last arrival, combines
/// the slot's states in chunk order (the same total, bit for bit, in every block) and the block
/// writes its slice from the ring. The counter only grows within a call; the last block to pass
/// the slot's last wait resets it to 0 for the next call.
template <typename T>
__global__ void __launch_bounds__(kGridRingBlock, kGridRingBlocksPerSm)
    softmax_grid_ring_kernel(const T* __restrict__ x, T* __restrict__ y, std::int64_t rows, std::int64_t cols,
                            GridRingShape shape, float2* __restrict__ states, unsigned* __restrict__ counters) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  extern __shared__ uint4 ring[];
  __shared__ alignas(8) std::uint64_t piece_ready[kGridRingPieces];
  __shared__ float2 row_total;
  const std::int64_t per_row = shape.blocks_per_row;
  const std::int64_t chunk = blockIdx.x % per_row;
  const std::int64_t slot = blockIdx.x / per_row;
  const std::int64_t units = (rows - 1 - slot) / shape.rows_in_flight + 1;
  const std::int64_t pieces = units * shape.slice_pieces;

  std::int64_t issued = 0;  // thread 0's count of pieces whose copies it started
  const auto issue_until = [&](std::int64_t limit) {
    for (; issued < limit && issued < pieces; ++issued) {
      const std::int64_t k = issued / shape.slice_pieces;
      const int first = static_cast<int>(issued % shape.slice_pieces) * kPieceVectors;
      const Unit<T> u = unit_of(x, y, slot + k * shape.rows_in_flight, cols, chunk, shape.slice_vectors);
      const int n = u.count - first < 0 ? 0 : (u.count - first < kPieceVectors ? u.count - first : kPieceVectors);
      const int at = static_cast<int>(issued % kGridRingPieces);
      barrier_arrive_expect_bytes(&piece_ready[at], static_cast<std::uint32_t>(n) * 16u);
      if (n > 0) {
        const auto* body = reinterpret_cast<const uint4*>(u.xr + u.span.head) + u.begin + first;
        bulk_copy_to_shared(ring + at * kPieceVectors, body, static_cast<std::uint32_t>(n) * 16u, &piece_ready[at]);
      }
    }
  };
  if (threadIdx.x == 0) {
    for (int p = 0; p < kGridRingPieces; ++p) barrier_init(&piece_ready[p]);
    fence_barrier_init();
    issue_until(kGridRingPieces);  // the ring's worth of bytes in flight before anything else
  }
  __syncthreads();

  unsigned* arrived = counters + 2 * slot;
  unsigned* left = arrived + 1;
  for (std::int64_t k = 0; k < units; ++k) {
    const Unit<T> u = unit_of(x, y, slot + k * shape.rows_in_flight, cols, chunk, shape.slice_vectors);
    std::int64_t scalar_at = -1;  // the row element this thread holds in a register, if any
    if (chunk == 0 && threadIdx.x < u.span.head) scalar_at = threadIdx.x;
    const int tail_index = static_cast<int>(threadIdx.x) - kTailThread;
    if (chunk == per_row - 1 && tail_index >= 0 && tail_index < u.span.tail) {
      scalar_at = u.span.head + u.span.vectors * kVector<T> + tail_index;
    }
    MaxSum state = empty_max_sum();
    float scalar = 0.0f;
    if (scalar_at >= 0) {
      scalar = to_float(u.xr[scalar_at]);
      const float one[1] = {scalar};
      state = fold(state, one);
    }

    // Fold the slice two pieces at a time (one rescale per two vectors).
    const std::int64_t first_piece = k * shape.slice_pieces;
    for (int p = 0; p < shape.slice_pieces; p += 2) {
      const std::int64_t g = first_piece + p;
      const int at = static_cast<int>(g % kGridRingPieces);
      barrier_wait_or_trap(&piece_ready[at], static_cast<std::uint32_t>((g / kGridRingPieces) & 1), kWaitLimitClocks);
      const int v = p * kPieceVectors + static_cast<int>(threadIdx.x);
      if (p + 1 < shape.slice_pieces) {
        const int next = static_cast<int>((g + 1) % kGridRingPieces);
        barrier_wait_or_trap(&piece_ready[next], static_cast<std::uint32_t>(((g + 1) / kGridRingPieces) & 1),
                             kWaitLimitClocks);
        if (v + kPieceVectors < u.count) {
          const uint4 two[2] = {ring[at * kPieceVectors + threadIdx.x], ring[next * kPieceVectors + threadIdx.x]};
          state = fold_vectors<T, 2>(state, two);
          continue;
        }
      }
      if (v < u.count) {
        const uint4 one[1] = {ring[at * kPieceVectors + threadIdx.x]};
        state = fold_vectors<T, 1>(state, one);
      }
    }
    const MaxSum block_state = block_combine(state);

    // Publish, then warp 0 waits for the slot's other blocks (all resident: a cooperative
    // launch) and combines their states. The states alternate between two buffers by unit, so a
    // block may publish its next unit while a slower one still reads this one's.
    float2* unit_states = states + ((k & 1) * shape.rows_in_flight + slot) * per_row;
    if (threadIdx.x == 0) {
      __stcg(unit_states + chunk, make_float2(block_state.m, block_state.d));
      add_release(arrived, 1u);
    }
    if (threadIdx.x < 32) {
      const unsigned complete = static_cast<unsigned>((k + 1) * per_row);
      const long long start = clock64();
      while (load_acquire(arrived) < complete) {
        if (clock64() - start > kWaitLimitClocks) __trap();
      }
      MaxSum row_state = empty_max_sum();
      for (std::int64_t j = threadIdx.x; j < per_row; j += 32) {
        const float2 s = __ldcg(unit_states + j);
        row_state = combine(row_state, MaxSum{s.x, s.y});
      }
      row_state = warp_combine(row_state);
      if (threadIdx.x == 0) {
        row_total = make_float2(row_state.m, row_state.d);
        // Every block of the slot has passed its last wait: the next call starts from 0.
        if (k == units - 1 && atomicAdd(left, 1u) == static_cast<unsigned>(per_row) - 1) {
          *arrived = 0;
          *left = 0;
        }
      }
    }
    __syncthreads();

    const float row_max = row_total.x;
    const float inverse_sum = 1.0f / row_total.y;
    auto* out = reinterpret_cast<uint4*>(u.yr + u.span.head) + u.begin;
    for (int p = 0; p < shape.slice_pieces; ++p) {
      const int v = p * kPieceVectors + static_cast<int>(threadIdx.x);
      if (v < u.count) {
        const int at = static_cast<int>((first_piece + p) % kGridRingPieces);
        out[v] = normalize_vector<T>(ring[at * kPieceVectors + threadIdx.x], row_max, inverse_sum);
      }
    }
    if (scalar_at >= 0) u.yr[scalar_at] = from_float<T>(exp_via_exp2(scalar - row_max) * inverse_sum);
    __syncthreads();  // the unit's pieces, row_total and block_combine's scratch are free
    if (threadIdx.x == 0) {
      fence_proxy_async_shared();  // the threads' reads of the pieces come before the copies over them
      issue_until((k + 1) * shape.slice_pieces + kGridRingPieces);
    }
  }
#else
  __trap();  // planned only on compute capability 9.0 and later (plan_grid_ring)
#endif
}

bool same_phase(const void* x, const void* y) {
  return reinterpret_cast<std::uintptr_t>(x) % 16 == reinterpret_cast<std::uintptr_t>(y) % 16;
}

}  // namespace

std::size_t grid_ring_scratch_bytes(const GridRingShape& shape) {
  const auto blocks = static_cast<std::size_t>(shape.blocks_per_row * shape.rows_in_flight);
  return 2 * blocks * sizeof(float2) + 2 * static_cast<std::size_t>(shape.rows_in_flight) * sizeof(unsigned);
}

template <typename T>
GridRingPlan plan_grid_ring(const T* x, const T* y, std::int64_t rows, std::int64_t cols, int sm_count, int cc_major) {
  GridRingPlan plan;
  if (cc_major < 9 || !same_phase(x, y) || rows < 1) return plan;
  KBENCH_CUDA_CALL(cudaFuncSetAttribute(softmax_grid_ring_kernel<T>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        static_cast<int>(kGridRingBytes)));
  int fits = 0;
  KBENCH_CUDA_CALL(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fits, softmax_grid_ring_kernel<T>, kGridRingBlock,
                                                                 static_cast<std::size_t>(kGridRingBytes)));
  const int per_sm = fits < kGridRingBlocksPerSm ? fits : kGridRingBlocksPerSm;
  if (per_sm < 1) return plan;
  plan.shape = grid_ring_shape(rows, cols, sizeof(T), static_cast<std::int64_t>(per_sm) * sm_count);
  return plan;
}

template <typename T>
void launch_grid_ring(const T* x, T* y, std::int64_t rows, std::int64_t cols, const GridRingPlan& plan, void* scratch,
                     cudaStream_t stream) {
  if (plan.shape.blocks_per_row == 0) throw std::invalid_argument("softmax grid_ring: no plan for this problem");
  if (!same_phase(x, y)) throw std::invalid_argument("softmax grid_ring: x and y moved since the plan");
  const std::int64_t blocks = plan.shape.blocks_per_row * plan.shape.rows_in_flight;
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(static_cast<unsigned>(blocks));
  config.blockDim = dim3(kGridRingBlock);
  config.dynamicSmemBytes = static_cast<std::size_t>(kGridRingBytes);
  config.stream = stream;
  cudaLaunchAttribute attribute{};
  attribute.id = cudaLaunchAttributeCooperative;  // every block resident at once, or the launch fails
  attribute.val.cooperative = 1;
  config.attrs = &attribute;
  config.numAttrs = 1;
  auto* states = static_cast<float2*>(scratch);
  auto* counters = reinterpret_cast<unsigned*>(states + 2 * blocks);
  KBENCH_CUDA_CALL(cudaLaunchKernelEx(&config, softmax_grid_ring_kernel<T>, x, y, rows, cols, plan.shape, states,
                                      counters));
}

#define KBENCH_INSTANTIATE_RING_ROW(T)                                                                       \
  template GridRingPlan plan_grid_ring<T>(const T*, const T*, std::int64_t, std::int64_t, int, int);          \
  template void launch_grid_ring<T>(const T*, T*, std::int64_t, std::int64_t, const GridRingPlan&, void*, \
                                   cudaStream_t);

KBENCH_INSTANTIATE_RING_ROW(float)
KBENCH_INSTANTIATE_RING_ROW(__half)
KBENCH_INSTANTIATE_RING_ROW(__nv_bfloat16)

}  // namespace kbench::softmax
