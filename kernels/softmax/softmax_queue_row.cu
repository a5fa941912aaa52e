// Softmax of long rows in tensors larger than what the GPU holds on chip at once (tens of rows of
// 0.5-8 MB): split_row's chunks and two passes in one launch, ordered so that the second read of
// x comes from L2. Blocks draw tickets from one counter; queue_item (softmax_auto.hpp) says which
// chunk a ticket folds or writes, each write `lag` chunks behind the folds. DRAM then sees one
// read and one write per element, and reads and writes of different chunks share it.
#include "kernels/softmax/softmax_auto.hpp"
#include "kernels/softmax/softmax_kernels.hpp"

#include "harness/device/cuda_check.hpp"
#include "kernels/softmax/softmax_split_chunk.cuh"

#include <cstdint>
#include <stdexcept>

namespace kbench::softmax {

namespace {

/// The launch's hand-over state in the scratch, zeroed once per problem. The fold counts only grow:
/// call e (the epoch, calls so far) has folded row r once its count reaches (e + 1) x chunks_per_row,
/// and it has then rewritten every chunk state of the row.
struct QueueScratch {
  unsigned* ticket;                  ///< the next ticket; every call leaves it 0
  unsigned* epoch;
  unsigned long long* row_folds;     ///< per row
  float2* chunk_state;               ///< per chunk: (max, sum)
};

QueueScratch queue_scratch(void* base, std::int64_t rows) {
  auto* bytes = static_cast<char*>(base);
  QueueScratch s{};
  s.ticket = reinterpret_cast<unsigned*>(bytes);
  s.epoch = s.ticket + 1;
  s.row_folds = reinterpret_cast<unsigned long long*>(bytes + 8);
  s.chunk_state = reinterpret_cast<float2*>(bytes + 8 + static_cast<std::size_t>(rows) * 8);
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

__device__ __forceinline__ void add_release(unsigned long long* p, unsigned long long v) {
  asm volatile("red.release.gpu.global.add.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}

__device__ __forceinline__ unsigned long long load_acquire(const unsigned long long* p) {
  unsigned long long v;
  asm volatile("ld.acquire.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}

/// A chunk's fold: its (max, sum) to chunk_state, then one more on the row's count, released
/// without waiting for a reply, so that the block goes on to its next ticket at once.
template <typename T>
__device__ void fold_queued_chunk(const T* x, std::int64_t cols, const QueueRowShape& shape, std::int64_t chunk,
                                  const QueueScratch& s) {
  const SplitChunk c = split_chunk(x, cols, shape.chunks_per_row, chunk);
  const MaxSum total = block_combine(fold_chunk<T>(c, load_chunk<T, false>(x, cols, c)));
  if (threadIdx.x == 0) {
    __stcg(s.chunk_state + chunk, make_float2(total.m, total.d));
    add_release(s.row_folds + c.row, 1ull);
  }
}

/// A chunk's write: x read again (last use); once the row's folds are all counted, the row's chunk
/// states combined in chunk order (the same total in every block of the row), then y.
template <typename T>
__device__ void write_queued_chunk(const T* x, T* y, std::int64_t cols, const QueueRowShape& shape,
                                   std::int64_t chunk, const QueueScratch& s, unsigned epoch) {
  const SplitChunk c = split_chunk(x, cols, shape.chunks_per_row, chunk);
  const HeldChunk held = load_chunk<T, true>(x, cols, c);  // in flight while thread 0 waits
  if (threadIdx.x == 0) {
    const unsigned long long folded = (static_cast<unsigned long long>(epoch) + 1) * shape.chunks_per_row;
    // A row whose folds never complete (a broken launch) fails it after about 4 s at H100 clocks
    // rather than hanging the run.
    const long long start = clock64();
    while (load_acquire(s.row_folds + c.row) < folded) {
      __nanosleep(32);
      if (clock64() - start > (1ll << 33)) __trap();
    }
  }
  __syncthreads();
  __threadfence();  // thread 0's acquire, for every thread's reads of the states
  MaxSum state = empty_max_sum();
  const std::int64_t first = c.row * shape.chunks_per_row;
  for (std::int64_t k = threadIdx.x; k < shape.chunks_per_row; k += kSplitBlock) {
    const float2 part = __ldcg(s.chunk_state + first + k);
    state = combine(state, MaxSum{part.x, part.y});
  }
  const MaxSum row = block_combine(state);
  write_chunk<T, true>(y, cols, c, held, row.m, fast_reciprocal(row.d));
}

/// Each block draws a ticket, draws its next one (the atomic's latency under the item), works the
/// item, and so on until it draws one past the end.
template <typename T>
__global__ void __launch_bounds__(kSplitBlock, kQueueBlocksPerSm)
    softmax_queue_row_kernel(const T* __restrict__ x, T* __restrict__ y, std::int64_t cols, QueueRowShape shape,
                             QueueScratch s) {
  __shared__ unsigned drawn[2];
  __shared__ unsigned call_epoch;
  const auto tickets = static_cast<unsigned>(2 * shape.chunks);
  if (threadIdx.x == 0) {
    call_epoch = *reinterpret_cast<volatile unsigned*>(s.epoch);
    drawn[0] = draw_ticket(s, tickets, call_epoch);
  }
  __syncthreads();
  const unsigned epoch = call_epoch;
  unsigned ticket = drawn[0];
  for (int slot = 1; ticket < tickets; slot ^= 1) {
    unsigned next = 0;
    if (threadIdx.x == 0) next = draw_ticket(s, tickets, epoch);
    const QueueItem item = queue_item(ticket, shape.chunks, shape.lag);
    if (item.writes) {
      write_queued_chunk(x, y, cols, shape, item.chunk, s, epoch);
    } else {
      fold_queued_chunk(x, cols, shape, item.chunk, s);
    }
    if (threadIdx.x == 0) drawn[slot] = next;
    __syncthreads();  // also: block_combine's scratch is free for the next item
    ticket = drawn[slot];
  }
}

}  // namespace

std::size_t queue_row_scratch_bytes(std::int64_t rows, const QueueRowShape& shape) {
  return 8 + static_cast<std::size_t>(rows) * sizeof(unsigned long long) +
         static_cast<std::size_t>(shape.chunks) * sizeof(float2);
}

template <typename T>
QueueRowPlan plan_queue_row(const T* x, const T* y, std::int64_t rows, std::int64_t cols, int sm_count, int) {
  QueueRowPlan plan;
  if (rows < 1 || reinterpret_cast<std::uintptr_t>(x) % 16 != reinterpret_cast<std::uintptr_t>(y) % 16) return plan;
  int fits = 0;
  KBENCH_CUDA_CALL(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fits, softmax_queue_row_kernel<T>, kSplitBlock, 0));
  const int per_sm = fits < kQueueBlocksPerSm ? fits : kQueueBlocksPerSm;
  if (per_sm < 1) return plan;
  const std::int64_t grid = static_cast<std::int64_t>(per_sm) * sm_count;
  const QueueRowShape shape = queue_row_shape(rows, cols, sizeof(T), 2 * grid);  // a ticket in work, one drawn
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
  softmax_queue_row_kernel<T><<<plan.grid, kSplitBlock, 0, stream>>>(x, y, cols, plan.shape, s);
  KBENCH_CHECK_LAUNCH();
}

#define KBENCH_INSTANTIATE_QUEUE_ROW(T)                                                            \
  template QueueRowPlan plan_queue_row<T>(const T*, const T*, std::int64_t, std::int64_t, int, int); \
  template void launch_queue_row<T>(const T*, T*, std::int64_t, std::int64_t, const QueueRowPlan&, void*, cudaStream_t);

KBENCH_INSTANTIATE_QUEUE_ROW(float)
KBENCH_INSTANTIATE_QUEUE_ROW(__half)
KBENCH_INSTANTIATE_QUEUE_ROW(__nv_bfloat16)

}  // namespace kbench::softmax
