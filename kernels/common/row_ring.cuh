#pragma once
/// Streaming a tensor of short rows of any width through shared memory, tile by tile, with
/// Hopper's bulk copy engine (PTX: cp.async.bulk, mbarrier complete_tx, bulk_group stores): the
/// device building block of softmax's and the row reductions' `ring_rows` kernels. Device code for
/// compute capability 9.0 and later; included by .cu files only. The shapes are in row_ring.hpp.
///
/// Why: rows of 7, 61 or 127 elements start at every alignment, so the kernels before this one
/// staged a tile of whole rows in shared memory with 16-byte loads and then worked on it:
/// load, barrier, compute, barrier, store, overlapping only across resident blocks. Here one
/// thread keeps the next tiles' bulk copies in flight (kRingStages slots, 3 tiles ahead for a
/// reduction, 2 for softmax, whose slots also wait for their bulk store to be read) while the
/// block works on the current tile, so the DRAM stream does not stop at each tile's barrier.

#include "harness/device/cuda_check.hpp"
#include "kernels/common/bulk_copy.cuh"
#include "kernels/common/dtype_convert.cuh"
#include "kernels/common/row_ring.hpp"

#include <cstdint>
#include <type_traits>

namespace kbench::ring {

using namespace kbench::bulk;

/// The persistent loop. Block b takes tiles b, b + gridDim.x, ... (row_ring.hpp) of the rows x
/// cols tensor `x` (16-byte aligned): thread 0 starts the bulk copies of its first kRingStages
/// tiles, and for each tile every thread waits for its slot, calls `on_tile(tile, tile_rows,
/// first_row)` (the tile in shared memory, whole rows, 16-byte aligned), and passes a block
/// barrier; then thread 0 refills a slot with the block's next tile. kStore: `on_tile` wrote its
/// results over the tile, which goes to y (16-byte aligned) with a bulk store, and a slot is
/// refilled only once its store has read it (one tile later). The tensor's last tile may end
/// mid-vector: its last elements (under 16 bytes) go by plain loads and stores. The slots are
/// the dynamic shared memory, kRingStages x `slot_elements` elements. Every thread must call it.
template <typename T, bool kStore, typename OnTile>
__device__ __forceinline__ void stream_row_tiles(const T* __restrict__ x, T* __restrict__ y, std::int64_t rows, int cols,
                                                 int rows_per_tile, int slot_elements, OnTile&& on_tile) {
  extern __shared__ __align__(128) unsigned char ring_shared[];
  __shared__ std::uint64_t full[kRingStages];
  T* slots = reinterpret_cast<T*>(ring_shared);
  const std::int64_t tiles = (rows + rows_per_tile - 1) / rows_per_tile;
  const std::int64_t first_tile = blockIdx.x;
  const std::int64_t stride = gridDim.x;
  const std::int64_t mine = first_tile < tiles ? (tiles - 1 - first_tile) / stride + 1 : 0;
  const bool leader = threadIdx.x == 0;

  // Tile j of this block: its first row, its rows, and the elements a bulk copy moves (whole
  // 16-byte vectors; all of them but in the tensor's last tile).
  auto first_row_of = [&](std::int64_t j) { return (first_tile + j * stride) * rows_per_tile; };
  auto elements_of = [&](std::int64_t j) {
    const std::int64_t first = first_row_of(j);
    return static_cast<int>(rows - first < rows_per_tile ? rows - first : rows_per_tile) * cols;
  };
  auto bulk_elements = [](int n) { return static_cast<int>(n * sizeof(T) / 16 * 16 / sizeof(T)); };
  auto fill = [&](std::int64_t j) {
    std::uint64_t* bar = &full[j % kRingStages];
    const auto bytes = static_cast<std::uint32_t>(bulk_elements(elements_of(j)) * sizeof(T));
    arrive_expect_bytes(bar, bytes);
    if (bytes > 0) load_bulk(slots + (j % kRingStages) * slot_elements, x + first_row_of(j) * cols, bytes, bar);
  };

  if (leader) {
    for (int s = 0; s < kRingStages; ++s) barrier_init(&full[s]);
    fence_barrier_init();
    for (std::int64_t j = 0; j < mine && j < kRingStages; ++j) fill(j);
  }
  __syncthreads();

  for (std::int64_t j = 0; j < mine; ++j) {
    T* slot = slots + (j % kRingStages) * slot_elements;
    const std::int64_t first_row = first_row_of(j);
    const int n = elements_of(j);
    const int bulk = bulk_elements(n);
    const T* tile_in = x + first_row * cols;
    wait_phase(&full[j % kRingStages], static_cast<std::uint32_t>((j / kRingStages) & 1));
    if (bulk < n) {  // the tensor's last tile, not whole vectors: the rest by plain loads
      for (int i = bulk + static_cast<int>(threadIdx.x); i < n; i += blockDim.x) slot[i] = tile_in[i];
      __syncthreads();
    }
    on_tile(slot, n / cols, first_row);
    fence_proxy_async_shared();
    __syncthreads();  // the tile is done with: it may be stored, or its slot refilled
    if constexpr (kStore) {
      T* tile_out = y + first_row * cols;
      if (leader) {
        if (bulk > 0) store_bulk(tile_out, slot, static_cast<std::uint32_t>(bulk * sizeof(T)));
        commit_bulk();
        // The previous tile's slot, once its store has read it, takes the tile kRingStages on.
        if (j >= 1 && j - 1 + kRingStages < mine) {
          wait_bulk_reads<1>();
          fill(j - 1 + kRingStages);
        }
      }
      for (int i = bulk + static_cast<int>(threadIdx.x); i < n; i += blockDim.x) tile_out[i] = slot[i];
    } else {
      if (leader && j + kRingStages < mine) fill(j + kRingStages);
    }
  }
  if constexpr (kStore) {
    if (leader) wait_bulk_all();  // the slots stay allocated until the stores have read them
  }
}

/// Reduces `v` over the kLanes lanes of this lane's group (xor shuffles below kLanes stay inside
/// the group); every lane of the warp must call it.
template <int kLanes, typename Op>
__device__ __forceinline__ float group_allreduce(float v, Op op) {
#pragma unroll
  for (int offset = kLanes / 2; offset > 0; offset >>= 1) v = op(v, __shfl_xor_sync(0xffffffffu, v, offset));
  return v;
}

/// Calls `on_row(row, r, values, valid)` for every row r of a tile of `tile_rows` rows of `cols`
/// elements (row = the row's first element in the tile): in rounds of kRingBlock / kLanes rows,
/// lane group g takes row round + g and its lane l the row's elements l, l + kLanes, ... into
/// values (as float; `valid[i]` says which are the row's, the others are 0). Every lane runs every
/// round, so `on_row` may shuffle over the group with a full mask; lanes past the tile's last row
/// get no valid element (r >= tile_rows, row points at the tile's first row).
template <typename T, int kLanes, int kElements, typename OnRow>
__device__ __forceinline__ void for_each_row(T* tile, int tile_rows, int cols, OnRow&& on_row) {
  constexpr int kGroups = kRingBlock / kLanes;
  const int group = static_cast<int>(threadIdx.x) / kLanes;
  const int lane = static_cast<int>(threadIdx.x) % kLanes;
  for (int round = 0; round < tile_rows; round += kGroups) {
    const int r = round + group;
    T* row = tile + (r < tile_rows ? r : 0) * cols;
    float values[kElements];
    bool valid[kElements];
#pragma unroll
    for (int i = 0; i < kElements; ++i) {
      const int c = lane + i * kLanes;
      valid[i] = r < tile_rows && c < cols;
      values[i] = valid[i] ? to_float(row[c]) : 0.0f;
    }
    on_row(row, r, values, valid);
  }
}

/// Calls `f(lanes, elements)` with the RowGroupShape's numbers as std::integral_constant, so that
/// a launcher picks its kernel's instantiation from the shape in one place; returns what f does.
template <typename F>
decltype(auto) with_group_shape(RowGroupShape shape, F&& f) {
  using L1 = std::integral_constant<int, 1>;
  using L2 = std::integral_constant<int, 2>;
  using L4 = std::integral_constant<int, 4>;
  using L8 = std::integral_constant<int, 8>;
  using L16 = std::integral_constant<int, 16>;
  using L32 = std::integral_constant<int, 32>;
  switch (shape.lanes) {
    case 1: return f(L1{}, L8{});
    case 2: return f(L2{}, L8{});
    case 4: return f(L4{}, L8{});
    case 8: return f(L8{}, L8{});
    case 16: return f(L16{}, L8{});
    default: break;
  }
  if (shape.per_lane <= 8) return f(L32{}, L8{});
  if (shape.per_lane <= 16) return f(L32{}, L16{});
  return f(L32{}, L32{});
}

/// What a ring kernel's plan may differ in: the lane-group kernels leave every field at its
/// default; a kernel whose threads own rows gives its tile's rows and its own limits.
struct RingLimits {
  std::int64_t rows_per_tile = 0;  ///< 0: ring_tile_rows
  int max_blocks_per_sm = kRingMaxBlocksPerSm;
  std::int64_t most_shared_bytes = 0;  ///< the kernel's shared-memory limit; 0: ring_most_shared_bytes
};

/// The shape of a ring kernel's launch for this problem on this device: the kernel's shared-memory
/// limit raised to the most any plan of it uses (so that no plan narrows another's), the blocks
/// of it an SM holds with this problem's slots (at most limits.max_blocks_per_sm), and the ring's
/// shape for that many blocks per SM in limits' tiles. blocks = 0 where not one block fits. Host
/// work: call it outside any timed window.
inline RowRingShape plan_row_ring(const void* kernel, std::int64_t rows, std::int64_t cols, std::size_t element_size,
                                  int sm_count, RingLimits limits = {}) {
  const std::int64_t most_shared =
      limits.most_shared_bytes > 0 ? limits.most_shared_bytes : ring_most_shared_bytes(element_size);
  KBENCH_CUDA_CALL(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(most_shared)));
  const std::int64_t tile_rows = limits.rows_per_tile > 0 ? limits.rows_per_tile : ring_tile_rows(cols, element_size);
  const RowRingShape one = row_ring_shape_for_tile(rows, cols, element_size, 1, tile_rows);
  if (one.shared_bytes > most_shared) return RowRingShape{};
  int fits = 0;
  KBENCH_CUDA_CALL(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fits, kernel, kRingBlock,
                                                                 static_cast<std::size_t>(one.shared_bytes)));
  if (fits < 1) return RowRingShape{};
  const int per_sm = fits < limits.max_blocks_per_sm ? fits : limits.max_blocks_per_sm;
  return row_ring_shape_for_tile(rows, cols, element_size, static_cast<std::int64_t>(per_sm) * sm_count, tile_rows);
}

}  // namespace kbench::ring
