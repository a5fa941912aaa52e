#pragma once
/// softmax's `thread_rows` kernel (softmax_thread_rows.cu): short 16-bit rows of any width up to
/// kThreadRowsMaxCols, streamed through ring_rows' shared-memory ring (kernels/common/row_ring.*),
/// a thread per row (two past kThreadRowsOneThreadMaxCols). Host side: the shape, the plan (made
/// once per problem) and the launch.

#include "kernels/common/row_ring.hpp"

#include <cuda_runtime_api.h>

#include <cstdint>

namespace kbench::softmax {

constexpr std::int64_t kThreadRowsMaxCols = 64;
constexpr std::int64_t kThreadRowsOneThreadMaxCols = 32;
constexpr int kThreadRowsMinElements = 16;  ///< register slots of the narrowest instantiation
constexpr int kThreadRowsMaxElements = 32;  ///< and of the widest

/// Bytes a tile aims at: whole rounds of the block's rows, as many as stay within it (at least
/// one round: a round of the widest rows, 256 x 32 or 128 x 64 elements, is 16 KiB).
constexpr std::int64_t kThreadRowsTileTargetBytes = 16 * 1024;
constexpr std::int64_t kThreadRowsWidestRoundBytes = kRingBlock * kThreadRowsOneThreadMaxCols * 2;
static_assert(kThreadRowsWidestRoundBytes == kRingBlock / 2 * kThreadRowsMaxCols * 2,
              "one- and two-thread rounds of the widest rows are the same size");
/// The kernel's shared-memory limit: kRingStages slots of the largest tile.
constexpr std::int64_t kThreadRowsMostSharedBytes =
    kRingStages * (kThreadRowsTileTargetBytes > kThreadRowsWidestRoundBytes ? kThreadRowsTileTargetBytes
                                                                            : kThreadRowsWidestRoundBytes);

/// How a row is cut among threads: `lanes` (1 or 2) neighbouring threads per row, the first taking
/// elements [0, first_part) and the second [first_part, cols); first_part is even, so both parts
/// start on the row's word phase. `elements`: the register slots a part is compiled for, the
/// first part rounded up to even, at least kThreadRowsMinElements: every slot's instructions issue,
/// filled or not, and the kernel is bound by issue where a third of them are empty. A tile is
/// whole rounds of one row per group of lanes of the block (kRingBlock / lanes rows a round), as
/// many as kThreadRowsTileTargetBytes holds, at least one.
struct ThreadRowsShape {
  int lanes = 1;
  int first_part = 0;
  int elements = 16;
  std::int64_t rows_per_tile = kRingBlock;
};

constexpr ThreadRowsShape thread_rows_shape(std::int64_t cols) {
  ThreadRowsShape shape;
  shape.lanes = cols <= kThreadRowsOneThreadMaxCols ? 1 : 2;
  shape.first_part = static_cast<int>(shape.lanes == 1 ? cols : 2 * ((cols + 3) / 4));
  shape.elements = shape.first_part <= kThreadRowsMinElements ? kThreadRowsMinElements : (shape.first_part + 1) / 2 * 2;
  const std::int64_t round_rows = kRingBlock / shape.lanes;
  const std::int64_t round_bytes = round_rows * (cols > 0 ? cols : 1) * 2;
  const std::int64_t rounds = kThreadRowsTileTargetBytes / round_bytes;
  shape.rows_per_tile = round_rows * (rounds > 1 ? rounds : 1);
  return shape;
}

/// Whether thread_rows runs rows of `cols` elements of `element_size` bytes itself.
constexpr bool thread_rows_fits(std::int64_t cols, std::size_t element_size) {
  return element_size == 2 && cols >= 1 && cols <= kThreadRowsMaxCols;
}

/// How launch_thread_rows runs a problem (plan_thread_rows).
struct ThreadRowsPlan {
  std::int64_t cols = 0;  ///< the width the plan was made for
  ThreadRowsShape rows;
  RowRingShape shape;  ///< shape.blocks = 0: the kernel cannot run the problem
};

/// The ring shape for this problem on this device in thread_rows' tiles, with the kernel's
/// shared-memory limit raised; shape.blocks = 0 where it cannot run: below compute capability 9.0
/// (no bulk copies), x or y not 16-byte aligned, not thread_rows_fits. Host work: call it outside
/// any timed window.
template <typename T>
ThreadRowsPlan plan_thread_rows(const T* x, const T* y, std::int64_t rows, std::int64_t cols, int sm_count,
                                int cc_major);

/// y = softmax(x) over 16-bit rows of up to kThreadRowsMaxCols elements: a persistent grid streams
/// tiles of whole rows (ThreadRowsShape) through a 4-slot shared-memory ring with bulk copies;
/// each thread reads its row (or half of it) from the tile as 4-byte words aligned by a funnel
/// shift, computes it in registers, writes it back over the tile the same way, and the tile leaves
/// with a bulk store. Throws std::invalid_argument for a plan with shape.blocks == 0 or one made
/// for another width.
template <typename T>
void launch_thread_rows(const T* x, T* y, std::int64_t rows, std::int64_t cols, const ThreadRowsPlan& plan,
                        cudaStream_t stream);

}  // namespace kbench::softmax
