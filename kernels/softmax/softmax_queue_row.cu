// Softmax of long rows in tensors larger than what the GPU holds on chip at once (tens of rows of
// 0.5-8 MB), Hopper: split_row's chunks and two passes in one launch, ordered so that the second
// read of x comes from L2. In each block a producer warp draws tickets from one counter and
// brings each ticket's chunk into a ring of shared-memory slots by bulk copy; 256 consumer
// threads fold or write the chunks in ticket order. queue_item (softmax_auto.hpp) says which
// chunk a ticket folds or writes, each write `lag` chunks behind the folds. DRAM then sees one
// read and one write per element, and reads and writes of different chunks share it.
#include "kernels/softmax/softmax_auto.hpp"
#include "kernels/softmax/softmax_kernels.hpp"

#include "harness/device/cuda_check.hpp"
#include "kernels/common/bulk_copy.cuh"
#include "kernels/common/device_flags.cuh"
#include "kernels/softmax/softmax_split_chunk.cuh"

#include <cstdint>
#include <stdexcept>

namespace kbench::softmax {

namespace {

constexpr int kConsumers = kSplitBlock;
constexpr int kQueueBlock = kConsumers + 32;  // and the producer warp
constexpr std::int64_t kSlotBytes = kSplitChunkVectors * 16;

/// The launch's hand-over state in the scratch, zeroed once per problem and left so by every call.
struct QueueScratch {
  unsigned* ticket;      ///< the next ticket
  unsigned* epoch;       ///< calls so far: a row's flag holds epoch + 1 once its state is published
  unsigned* row_folds;   ///< per row: its chunks folded in this call
  unsigned* row_flag;    ///< per row
  float2* row_state;     ///< per row: (max, sum)
  float2* chunk_state;   ///< per chunk: (max, sum)
};

std::size_t round_up_8(std::size_t bytes) { return (bytes + 7) / 8 * 8; }

QueueScratch queue_scratch(void* base, std::int64_t rows) {
  auto* bytes = static_cast<char*>(base);
  QueueScratch s{};
  s.ticket = reinterpret_cast<unsigned*>(bytes);
  s.epoch = s.ticket + 1;
  std::size_t at = 8;
  s.row_folds = reinterpret_cast<unsigned*>(bytes + at);
  at += round_up_8(static_cast<std::size_t>(rows) * sizeof(unsigned));
  s.row_flag = reinterpret_cast<unsigned*>(bytes + at);
  at += round_up_8(static_cast<std::size_t>(rows) * sizeof(unsigned));
  s.row_state = reinterpret_cast<float2*>(bytes + at);
  at += static_cast<std::size_t>(rows) * sizeof(float2);
  s.chunk_state = reinterpret_cast<float2*>(bytes + at);
  return s;
}

/// Draws a ticket. The launch's last draw (every block draws exactly one ticket past the end, its
/// last) resets the counter and moves the epoch: every block has read the epoch before its first
/// draw, and the next call starts from ticket 0.
__device__ __forceinline__ unsigned draw_ticket(const QueueScratch& s, unsigned tickets, unsigned epoch) {
  const unsigned t = atomicAdd(s.ticket, 1u);
  if (t == tickets + gridDim.x - 1) {
    *s.ticket = 0;
    *reinterpret_cast<volatile unsigned*>(s.epoch) = epoch + 1;
  }
  return t;
}

/// The consumers' barrier (named barrier 1): the producer warp never joins it.
__device__ __forceinline__ void consumers_sync() { asm volatile("bar.sync 1, %0;" ::"n"(kConsumers) : "memory"); }

__device__ __forceinline__ MaxSum consumers_combine(MaxSum state) {
  return group_combine(state, kConsumers, [] { consumers_sync(); });
}

/// The ring: kQueueSlots chunks of x (dynamic shared memory), the ticket each holds, a barrier
/// that the producer's copy completes (full) and one the consumers' reads complete (empty).
struct Ring {
  uint4* slots;
  unsigned* tickets;
  std::uint64_t* full;
  std::uint64_t* empty;
};

/// The producer (lane 0 of the last warp): for each slot in turn, once the consumers have emptied
/// it, the next ticket and its chunk's aligned body by bulk copy (its edge elements the consumers
/// read themselves). A ticket past the end goes into the ring too, with no bytes: the consumers
/// stop there. The next ticket is drawn while the current one's slot is still being waited for.
template <typename T>
__device__ void produce(const T* x, std::int64_t cols, const QueueRowShape& shape, const QueueScratch& s,
                        const Ring& ring, unsigned tickets, unsigned epoch) {
  unsigned ticket = draw_ticket(s, tickets, epoch);
  for (unsigned i = 0;; ++i) {
    const unsigned slot = i % kQueueSlots;
    if (i >= kQueueSlots) bulk::wait_phase(&ring.empty[slot], ((i / kQueueSlots) - 1) & 1u);
    ring.tickets[slot] = ticket;
    if (ticket >= tickets) {
      bulk::arrive_expect_bytes(&ring.full[slot], 0);
      return;
    }
    const unsigned next = draw_ticket(s, tickets, epoch);
    const QueueItem item = queue_item(ticket, shape.chunks, shape.lag);
    const std::int64_t row = item.chunk / shape.chunks_per_row;
    const T* xr = x + row * cols;
    const AlignedSpan span = aligned_span(xr, cols);
    const std::int64_t begin = (item.chunk % shape.chunks_per_row) * kSplitChunkVectors;
    const std::int64_t remaining = span.vectors - begin;
    const auto count = static_cast<std::uint32_t>(
        remaining < 0 ? 0 : (remaining < kSplitChunkVectors ? remaining : kSplitChunkVectors));
    bulk::fence_proxy_async_shared();
    bulk::arrive_expect_bytes(&ring.full[slot], count * 16u);
    if (count > 0) {
      bulk::load_bulk(ring.slots + slot * kSplitChunkVectors, reinterpret_cast<const uint4*>(xr + span.head) + begin,
                      count * 16u, &ring.full[slot]);
    }
    ticket = next;
  }
}

/// A chunk's fold: its (max, sum) to chunk_state, then the row's count. The fold that completes
/// the count combines the row's chunk states in chunk order, publishes the row's state and
/// zeroes the count for the next call.
template <typename T>
__device__ void fold_queued_chunk(const SplitChunk& c, const HeldChunk& held, const QueueRowShape& shape,
                                  std::int64_t chunk, const QueueScratch& s, unsigned published) {
  __shared__ bool completes_row;
  const MaxSum total = consumers_combine(fold_chunk<T>(c, held));
  if (threadIdx.x == 0) {
    __stcg(s.chunk_state + chunk, make_float2(total.m, total.d));
    __threadfence();
    completes_row = atomicAdd(s.row_folds + c.row, 1u) == static_cast<unsigned>(shape.chunks_per_row) - 1;
  }
  consumers_sync();  // also: every consumer has read consumers_combine's scratch
  if (!completes_row) return;
  __threadfence();
  MaxSum state = empty_max_sum();
  const std::int64_t first = c.row * shape.chunks_per_row;
  for (std::int64_t k = threadIdx.x; k < shape.chunks_per_row; k += kConsumers) {
    const float2 part = __ldcg(s.chunk_state + first + k);
    state = combine(state, MaxSum{part.x, part.y});
  }
  const MaxSum row = consumers_combine(state);
  if (threadIdx.x == 0) {
    __stcg(s.row_state + c.row, make_float2(row.m, row.d));
    s.row_folds[c.row] = 0;
    store_release(s.row_flag + c.row, published);
  }
}

/// A chunk's write, once the row's state is published.
template <typename T>
__device__ void write_queued_chunk(T* y, std::int64_t cols, const SplitChunk& c, const HeldChunk& held,
                                   const QueueScratch& s, unsigned published) {
  __shared__ float2 row_state;
  if (threadIdx.x == 0) {
    // A row whose folds never complete (a broken launch) fails it after about 4 s at H100 clocks
    // rather than hanging the run.
    const long long start = clock64();
    while (load_acquire(s.row_flag + c.row) != published) {
      __nanosleep(32);
      if (clock64() - start > (1ll << 33)) __trap();
    }
    row_state = __ldcg(s.row_state + c.row);
  }
  consumers_sync();
  const float2 state = row_state;
  write_chunk<T, true>(y, cols, c, held, state.x, fast_reciprocal(state.y));
}

/// The consumers: the ring's slots in turn, each thread taking its vectors of the slot into
/// registers (then releasing the slot) and its edge element from global memory.
template <typename T>
__device__ void consume(const T* x, T* y, std::int64_t cols, const QueueRowShape& shape, const QueueScratch& s,
                        const Ring& ring, unsigned tickets, unsigned published) {
  for (unsigned i = 0;; ++i) {
    const unsigned slot = i % kQueueSlots;
    bulk::wait_phase(&ring.full[slot], (i / kQueueSlots) & 1u);
    const unsigned ticket = ring.tickets[slot];
    if (ticket >= tickets) return;
    const QueueItem item = queue_item(ticket, shape.chunks, shape.lag);
    const SplitChunk c = split_chunk(x, cols, shape.chunks_per_row, item.chunk);
    HeldChunk held;
    const uint4* from = ring.slots + slot * kSplitChunkVectors;
#pragma unroll
    for (int k = 0; k < kSplitUnroll; ++k) {
      const int v = static_cast<int>(threadIdx.x) + k * kSplitBlock;
      if (v < c.count) held.vectors[k] = from[v];
    }
    bulk::arrive(&ring.empty[slot]);
    if (c.scalar_at >= 0) held.scalar = to_float(x[c.row * cols + c.scalar_at]);
    if (item.writes) {
      write_queued_chunk(y, cols, c, held, s, published);
    } else {
      fold_queued_chunk<T>(c, held, shape, item.chunk, s, published);
    }
    consumers_sync();  // the item's shared state is free for the next one
  }
}

template <typename T>
__global__ void __launch_bounds__(kQueueBlock)
    softmax_queue_row_kernel(const T* __restrict__ x, T* __restrict__ y, std::int64_t cols, QueueRowShape shape,
                             QueueScratch s) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  extern __shared__ uint4 queue_slots[];
  __shared__ unsigned slot_tickets[kQueueSlots];
  __shared__ alignas(8) std::uint64_t full[kQueueSlots];
  __shared__ alignas(8) std::uint64_t empty[kQueueSlots];
  const Ring ring{queue_slots, slot_tickets, full, empty};
  const unsigned epoch = *reinterpret_cast<volatile unsigned*>(s.epoch);  // before any draw of this block
  if (threadIdx.x == 0) {
    for (int k = 0; k < kQueueSlots; ++k) {
      bulk::barrier_init(&full[k]);
      bulk::barrier_init(&empty[k], kConsumers);
    }
    bulk::fence_barrier_init();
  }
  __syncthreads();
  const auto tickets = static_cast<unsigned>(2 * shape.chunks);
  if (threadIdx.x >= kConsumers) {
    if (threadIdx.x == kConsumers) produce(x, cols, shape, s, ring, tickets, epoch);
    return;
  }
  consume(x, y, cols, shape, s, ring, tickets, epoch + 1);
#else
  __trap();  // planned only on compute capability 9.0 and later (plan_queue_row)
#endif
}

}  // namespace

std::size_t queue_row_scratch_bytes(std::int64_t rows, const QueueRowShape& shape) {
  return 8 + 2 * round_up_8(static_cast<std::size_t>(rows) * sizeof(unsigned)) +
         static_cast<std::size_t>(rows + shape.chunks) * sizeof(float2);
}

template <typename T>
QueueRowPlan plan_queue_row(const T* x, const T* y, std::int64_t rows, std::int64_t cols, int sm_count, int cc_major) {
  QueueRowPlan plan;
  if (cc_major < 9 || rows < 1 || reinterpret_cast<std::uintptr_t>(x) % 16 != reinterpret_cast<std::uintptr_t>(y) % 16) {
    return plan;
  }
  constexpr int kRingBytes = static_cast<int>(kQueueSlots * kSlotBytes);
  KBENCH_CUDA_CALL(
      cudaFuncSetAttribute(softmax_queue_row_kernel<T>, cudaFuncAttributeMaxDynamicSharedMemorySize, kRingBytes));
  int fits = 0;
  KBENCH_CUDA_CALL(
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fits, softmax_queue_row_kernel<T>, kQueueBlock, kRingBytes));
  const int per_sm = fits < kQueueBlocksPerSm ? fits : kQueueBlocksPerSm;
  if (per_sm < 1) return plan;
  const std::int64_t grid = static_cast<std::int64_t>(per_sm) * sm_count;
  const QueueRowShape shape = queue_row_shape(rows, cols, sizeof(T), grid * (kQueueSlots + 1));
  if (2 * shape.chunks + grid >= 0xFFFFFFFFll) return plan;  // tickets are 32-bit
  plan.shape = shape;
  plan.grid = static_cast<int>(grid);
  return plan;
}

template <typename T>
void launch_queue_row(const T* x, T* y, std::int64_t rows, std::int64_t cols, const QueueRowPlan& plan, void* scratch,
                      cudaStream_t stream) {
  if (plan.grid == 0) {
    launch_online(x, y, rows, cols, stream);
    return;
  }
  if (reinterpret_cast<std::uintptr_t>(x) % 16 != reinterpret_cast<std::uintptr_t>(y) % 16) {
    throw std::invalid_argument("softmax queue_row: x and y moved since the plan");
  }
  const QueueScratch s = queue_scratch(scratch, rows);
  softmax_queue_row_kernel<T><<<plan.grid, kQueueBlock, kQueueSlots * kSlotBytes, stream>>>(x, y, cols, plan.shape, s);
  KBENCH_CHECK_LAUNCH();
}

#define KBENCH_INSTANTIATE_QUEUE_ROW(T)                                                            \
  template QueueRowPlan plan_queue_row<T>(const T*, const T*, std::int64_t, std::int64_t, int, int); \
  template void launch_queue_row<T>(const T*, T*, std::int64_t, std::int64_t, const QueueRowPlan&, void*, cudaStream_t);

KBENCH_INSTANTIATE_QUEUE_ROW(float)
KBENCH_INSTANTIATE_QUEUE_ROW(__half)
KBENCH_INSTANTIATE_QUEUE_ROW(__nv_bfloat16)

}  // namespace kbench::softmax
