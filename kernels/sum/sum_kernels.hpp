#pragma once
/// Launchers of the reduction kernels and baselines. T is float, __half or __nv_bfloat16; the
/// accumulation is always fp32 and the output is written in T. Every launcher enqueues on
/// `stream` and checks its launches.

#include "kernels/common/flat_tile.hpp"
#include "kernels/common/vector_row_groups.hpp"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace kbench::sum {

enum class Reduction { sum, max };

// ---- full reduction: n elements -> 1 -----------------------------------------------------------

/// One atomicAdd per element into an fp32 accumulator, then a cast: what a first attempt writes.
/// `accumulator` is one float of device scratch. Three operations: memset, atomics, cast.
template <typename T>
void launch_full_atomic(const T* in, T* out, std::int64_t n, float* accumulator, cudaStream_t stream);

/// Blocks of the two-stage full reduction: a full wave of the device, fewer for small n.
int full_two_stage_blocks(std::int64_t n, int sm_count);

/// Stage 1: each of `blocks` blocks reduces a grid-stride share with 16-byte loads into
/// partials[block]; stage 2: one block reduces the partials and writes out[0].
template <typename T>
void launch_full_two_stage(const T* in, T* out, std::int64_t n, float* partials, int blocks, cudaStream_t stream);

/// Blocks of the one-pass full reduction: one per tile of 1024 16-byte vectors, or one per 2-4
/// consecutive tiles where the tiles outnumber the blocks `sm_count` SMs hold at once (8 each)
/// that many times; 1 or the cluster's blocks where the single-block or cluster path runs (see
/// launch_full_one_pass).
template <typename T>
int full_one_pass_blocks(std::int64_t n, int cc_major, int sm_count);

/// One kernel. Up to 8192 16-byte vectors (128 KiB): one block of 1024 threads. Up to 32768 on
/// compute capability 9.0+: one cluster of 8 blocks whose sums meet in block 0's shared memory.
/// Otherwise each of `blocks` worker blocks reduces a
/// contiguous chunk with 16-byte loads (4 in flight per thread) into partials[worker] and counts
/// it on its group's counter, and one more block folds each group's partials in a fixed order as
/// soon as the group is counted and writes out[0]. `partials` holds `blocks` floats; `counters`
/// holds full_one_pass_counters(blocks) unsigned of device memory, zero before the first call and
/// left zero by each call.
template <typename T>
void launch_full_one_pass(const T* in, T* out, std::int64_t n, float* partials, unsigned* counters, int blocks,
                          int cc_major, cudaStream_t stream);

/// Counters launch_full_one_pass needs for `blocks` workers.
int full_one_pass_counters(int blocks);

// ---- inner axis: rows x cols -> rows ------------------------------------------------------------

/// One thread per row, walking the row: uncoalesced, the naive mapping.
template <typename T>
void launch_rows_naive(const T* in, T* out, std::int64_t rows, std::int64_t cols, Reduction reduction,
                       cudaStream_t stream);

/// A warp per row for rows up to warp_row_max_cols elements, a block per row beyond; 16-byte
/// loads over each row's 16-byte aligned body, so rows of odd length load vectors too.
template <typename T>
void launch_rows_parallel(const T* in, T* out, std::int64_t rows, std::int64_t cols, Reduction reduction,
                          cudaStream_t stream);
/// fp32 1024; 16-bit 1536 (192 vectors, at most 6 a lane: a group of 4, then the last 1-3 with the
/// head and tail loaded before them, two rounds of loads). H100,
/// session 15, cold µs (NOTES.md, "a warp per 16-bit row"): a warp won 8192x1025 (10.2 against a
/// block's 11.6) and 65536x1100 (53.0 against 59.4), tied 22087x1571 and 9001x1709, and lost
/// 16384x2000 (27.8 against 25.2) and 4096x2047 (10.6 against 10.1), 8 vectors a lane. Why 8 lose
/// and 6-7 tie is not measured.
constexpr std::int64_t warp_row_max_cols(std::size_t element_size) { return element_size == 4 ? 1024 : 1536; }

/// Rows up to this many elements take the packed-rows kernel; longer rows run launch_rows_parallel.
constexpr std::int64_t kPackedRowsMaxCols = 1024;

/// Many short rows: each block copies a tile of whole rows (kernels/common/flat_tile.hpp: about
/// 16 KiB, one contiguous stretch of the flat array) into shared memory with 16-byte loads,
/// whatever the row length or alignment, then groups of lanes_per_row(cols) lanes reduce one row
/// each out of shared memory. Rows longer than kPackedRowsMaxCols run launch_rows_parallel.
template <typename T>
void launch_rows_packed(const T* in, T* out, std::int64_t rows, std::int64_t cols, Reduction reduction,
                        cudaStream_t stream);

/// Rows up to this many elements take the flat-rows kernel; longer rows run launch_rows_parallel
/// (a tile of 8 rows of 1024 fp32 is already 32 KiB).
constexpr std::int64_t kFlatRowsMaxCols = 1024;

/// Shared memory of a flat-rows block for rows of `cols` elements of `element_size` bytes: two
/// floats (the head and tail pieces) per 16-byte vector of a tile of tile_rows(cols) rows.
constexpr std::int64_t flat_rows_piece_bytes(std::int64_t cols, std::size_t element_size) {
  const std::int64_t per_vector = static_cast<std::int64_t>(16 / element_size);
  const std::int64_t vectors = (tile_rows(cols, element_size) * cols + per_vector - 1) / per_vector;
  return 2 * vectors * static_cast<std::int64_t>(sizeof(float));
}

/// Lanes that join one row's pieces in the flat-rows kernel: the largest power of two (at most
/// 32) with which a tile's rows still fit in one round of the block's 256 threads, at least 1.
constexpr int flat_rows_join_lanes(std::int64_t rows_per_tile) {
  int lanes = 1;
  while (lanes < 32 && rows_per_tile * lanes * 2 <= 256) lanes *= 2;
  return lanes;
}

/// Short-to-medium rows of any width and alignment: each block takes a tile of whole rows
/// (tile_rows: about 16 KiB, one contiguous stretch of the flat array) and loads it as coalesced
/// 16-byte vectors, 4 in flight per thread, as a copy would; each thread cuts its vectors at the
/// rows' ends in registers, a row that lies inside one vector is written at once, and the pieces
/// of rows that cross vectors (two floats per vector in shared memory) are joined in vector order
/// by flat_rows_join_lanes lanes per row after one barrier. Element-wise loads when `in` is not
/// 16-byte aligned. Rows longer than kFlatRowsMaxCols run launch_rows_parallel.
template <typename T>
void launch_rows_flat(const T* in, T* out, std::int64_t rows, std::int64_t cols, Reduction reduction,
                      cudaStream_t stream);

/// The span-rows kernel (launch_rows_span): each lane folds a run of two 16-byte vectors, so rows
/// of at least kSpanRunVectors vectors' elements end at most once per run; up to kFlatRowsMaxCols.
constexpr std::int64_t kSpanRunVectors = 2;
/// Bytes a warp's span of whole rows aims at (it streams them in iterations of 2 windows of 32
/// runs: 2 KiB).
constexpr std::int64_t kSpanTargetBytes = 8 * 1024;
constexpr std::int64_t kSpanIterationVectors = 2 * 32 * kSpanRunVectors;

/// Elements of one lane's run: 16 in 16-bit, 8 in fp32; rows shorter than this run flat_rows.
constexpr std::int64_t span_run_elements(std::size_t element_size) {
  return kSpanRunVectors * static_cast<std::int64_t>(16 / element_size);
}

/// Rows of one warp's span: a multiple of kTileRowMultiple (so every span of an aligned tensor
/// starts 16-byte aligned) of at most kSpanTargetBytes (at least 8 rows), the one whose vectors
/// leave the fewest idle lanes in its last iteration (the smallest on a tie).
constexpr std::int64_t span_rows_per_warp(std::int64_t cols, std::size_t element_size) {
  const std::int64_t row_bytes = cols * static_cast<std::int64_t>(element_size);
  std::int64_t best = kTileRowMultiple, best_vectors = 0, best_slots = 1;
  for (std::int64_t rows = kTileRowMultiple; rows == kTileRowMultiple || rows * row_bytes <= kSpanTargetBytes;
       rows += kTileRowMultiple) {
    const std::int64_t vectors = (rows * row_bytes + 15) / 16;
    const std::int64_t slots = (vectors + kSpanIterationVectors - 1) / kSpanIterationVectors * kSpanIterationVectors;
    if (best_vectors == 0 || vectors * best_slots > best_vectors * slots) {
      best = rows;
      best_vectors = vectors;
      best_slots = slots;
    }
  }
  return best;
}

/// Short-to-medium rows in a 16-byte aligned tensor, span_run_elements to kFlatRowsMaxCols
/// columns: each warp owns a span of span_rows_per_warp whole rows and reads it straight from
/// global memory, 2 windows of 32 lanes x 2 16-byte vectors (a run of 16 or 8 elements per lane)
/// loaded before any is folded. A lane splits its run at the one row end it may hold (the run's
/// row and offset are carried from window to window by additions, no division), a segmented warp
/// scan joins the runs of each row, and the lane where a row ends stores it; the open row's
/// partial is carried to the next window. No shared memory, no block barrier. Other tensors
/// (narrower or wider rows, unaligned) run launch_rows_flat.
template <typename T>
void launch_rows_span(const T* in, T* out, std::int64_t rows, std::int64_t cols, Reduction reduction,
                      cudaStream_t stream);

/// Rows of fewer bytes than this take the vector-rows kernel (launch_rows_vector): 16-bit 1-15,
/// fp32 1-7 columns.
constexpr std::int64_t kVectorRowsMaxRowBytes = 32;
/// A lane's part of a warp's tile holds at least this many 16-byte vectors (one group if more).
constexpr int kVectorRowsLaneVectors = 8;

/// Whether rows of `cols` elements are in the vector-rows kernel's class.
constexpr bool rows_vector_fits(std::int64_t cols, std::size_t element_size) {
  return cols >= 1 && cols * static_cast<std::int64_t>(element_size) < kVectorRowsMaxRowBytes;
}

using RowsVectorShape = VectorRowTile;  ///< kernels/common/vector_row_groups.hpp

/// The vector-rows kernel's tile for rows of `cols` elements: groups of R whole rows in V whole
/// vectors, `spans` x 32 groups per warp.
constexpr RowsVectorShape rows_vector_shape(std::int64_t cols, std::size_t element_size) {
  if (!rows_vector_fits(cols, element_size)) return {};
  return vector_row_tile(cols * static_cast<std::int64_t>(element_size), kVectorRowsLaneVectors);
}

/// Rows under kVectorRowsMaxRowBytes bytes in a tensor whose `in` and `out` are 16-byte aligned:
/// a lane owns R whole rows as V 16-byte vectors (rows_vector_shape). Each warp copies its tile
/// (one contiguous stretch of spans x 32 groups) with coalesced 16-byte loads into its own slice
/// of shared memory (not needed when V is 1), each lane folds its groups' rows in registers and
/// writes each group's R results as one R-element store, so a warp's stores are contiguous too.
/// No block barrier. The last rows % R rows go a thread per row through the last warp. Other
/// widths and unaligned tensors run launch_rows_naive.
template <typename T>
void launch_rows_vector(const T* in, T* out, std::int64_t rows, std::int64_t cols, Reduction reduction,
                        cudaStream_t stream);

/// 16 KiB tiles (256 threads x 4 16-byte vectors) of a row of the split-row kernel, at least 1:
/// the most blocks per row it launches.
std::int64_t rows_split_tiles(std::int64_t cols, std::size_t element_size);

/// The split-row kernel's blocks per row and consecutive tiles per block: tiles per block = the
/// tensor's tiles / (8 blocks x sm_count), floored, between 1 and 4.
struct RowsSplitShape {
  std::int64_t splits;           ///< blocks per row
  std::int64_t tiles_per_block;  ///< 1-4
};
RowsSplitShape rows_split_shape(std::int64_t rows, std::int64_t cols, std::size_t element_size, int sm_count);

/// Few long rows: each row split over shape.splits blocks (rows_split_shape), each folding its
/// tiles of the row's 16-byte aligned body (the first block also the unaligned head and the tail),
/// writing a partial and drawing a ticket on its row's counter; the row's last block folds the
/// row's partials in split order (deterministic on one device; the order follows the SM count),
/// writes out[row] and puts the counter back to 0.
/// `partials` holds rows x shape.splits floats (at most rows_split_tiles a row), `counters` rows
/// unsigned, zero before the first call and left zero by each call.
template <typename T>
void launch_rows_split(const T* in, T* out, std::int64_t rows, std::int64_t cols, float* partials,
                       unsigned* counters, RowsSplitShape shape, Reduction reduction, cudaStream_t stream);

// ---- outer axes: rows x cols -> cols (sum over every axis but the last) -------------------------

/// One thread per column, walking down it: coalesced, but only `cols` threads of parallelism.
template <typename T>
void launch_columns_naive(const T* in, T* out, std::int64_t rows, std::int64_t cols, cudaStream_t stream);

/// Rows each thread of the column walk loads before adding any of them.
constexpr int kColumnWalkUnroll = 8;

/// Bytes the column walk keeps in flight over the whole device when every thread has its loads
/// out: kColumnWalkUnroll rows of every column, whatever the columns per thread.
constexpr std::int64_t column_walk_bytes_in_flight(std::int64_t cols, std::size_t element_size) {
  return cols * kColumnWalkUnroll * static_cast<std::int64_t>(element_size);
}

/// Many columns: a thread per column, or per 16-byte vector of columns when `in` is 16-byte
/// aligned and cols a multiple of the vector width, adds its columns over every row
/// (kColumnWalkUnroll rows in flight) and writes them: one kernel, no partials.
template <typename T>
void launch_columns_walk(const T* in, T* out, std::int64_t rows, std::int64_t cols, cudaStream_t stream);

/// Row chunks for the two-stage column reduction: enough blocks to fill the device.
int column_chunks(std::int64_t rows, std::int64_t cols, int sm_count, std::size_t element_size);

/// Stage 1: 2-D blocks of 32 column lanes x 8 row lanes; each thread sums a 16-byte strip of
/// columns over its rows of one of `chunks` row chunks, the block combines its 8 row lanes and
/// writes partials[chunk][col]; stage 2 sums the chunks per column. Rows that are not whole
/// 16-byte vectors in an aligned tensor take launch_columns_phase (from one vector's width);
/// unaligned tensors and narrower rows load one column a thread. `partials` holds chunks x column_partial_floats(cols) floats.
template <typename T>
void launch_columns_two_stage(const T* in, T* out, std::int64_t rows, std::int64_t cols, float* partials, int chunks,
                              cudaStream_t stream);

/// Column strips of launch_columns_phase: enough for every phase of a row.
std::int64_t column_phase_strips(std::int64_t cols, std::size_t element_size);

/// Floats per row chunk of two_stage's partials (and of the kernels that run it): cols, or the
/// phase strips' entries where they are more.
std::int64_t column_partial_floats(std::int64_t cols, std::size_t element_size);

/// two_stage on rows that are not whole 16-byte vectors but at least one wide, `in` 16-byte
/// aligned (narrower rows could read a vector past the tensor's end): a thread's rows lie
/// 8 apart, so all start at one phase from a 16-byte boundary, and it adds the same aligned vector
/// position of each (its columns moved back by the phase) with no per-row shift; a strip's
/// partials carry the previous strip's last vector of columns, and stage 2 adds both strips'
/// entries of those columns. `partials` holds chunks x column_partial_floats(cols) floats.
template <typename T>
void launch_columns_phase(const T* in, T* out, std::int64_t rows, std::int64_t cols, float* partials, int chunks,
                          cudaStream_t stream);

/// Whether the one-pass column sum runs as one cluster per column strip: compute capability 9.0+
/// and at most 512 rows.
bool columns_use_cluster(std::int64_t rows, int cc_major);

/// Row chunks of the one-pass column sum: at most 8 (one cluster) on the cluster path, else
/// column_chunks.
int columns_one_pass_chunks(std::int64_t rows, std::int64_t cols, int sm_count, std::size_t element_size, int cc_major);

/// The same column strips in one kernel. On the cluster path the row chunks of a strip form one
/// cluster and meet in its block 0's shared memory. Otherwise the last row-chunk block of each
/// strip (an atomic ticket per strip) sums the chunks' partials for its columns and writes them;
/// `partials` holds chunks x cols floats and `tickets` one unsigned per strip (column_strips),
/// zero before the first call and left zero by each call.
template <typename T>
void launch_columns_one_pass(const T* in, T* out, std::int64_t rows, std::int64_t cols, float* partials,
                             unsigned* tickets, int chunks, int cc_major, cudaStream_t stream);

/// Column strips (blocks along the columns) of the two-stage and one-pass column kernels.
std::int64_t column_strips(const void* in, std::int64_t cols, std::size_t element_size);

/// Columns up to which launch_columns_narrow runs its own kernels; wider tensors run
/// launch_columns_two_stage.
constexpr std::int64_t kNarrowColumnsMaxCols = 128;

/// Blocks (tiles of whole rows) of the narrow-column kernel; its partials hold this x cols floats.
std::int64_t narrow_column_tiles(std::int64_t rows, std::int64_t cols, std::size_t element_size);

/// Few columns: each block copies a tile of whole rows (about 16 KiB of the flat array) into
/// shared memory with 16-byte loads, and 256 / cols row lanes per column add it up, so every
/// thread works whatever cols is (two_stage's 32 column lanes idle all but cols of them); the
/// block's per-column sums go to partials[col][tile]; a second kernel, one block per column, adds
/// each column's partials in tile order. Wider than kNarrowColumnsMaxCols: launch_columns_two_stage
/// (then `partials` must hold column_chunks x column_partial_floats(cols) floats).
template <typename T>
void launch_columns_narrow(const T* in, T* out, std::int64_t rows, std::int64_t cols, float* partials, int sm_count,
                           cudaStream_t stream);

/// Columns up to which launch_columns_tiles runs (a tile of 8 rows stays within 32 KiB of shared
/// memory in fp32).
constexpr std::int64_t kColumnTilesMaxCols = 1024;

/// Blocks of the column-tiles kernel (and rows of its partials): 4 per SM, at most one per tile;
/// column_chunks beyond kColumnTilesMaxCols, where launch_columns_tiles runs two_stage.
int column_tiles_chunks(std::int64_t rows, std::int64_t cols, int sm_count, std::size_t element_size);

/// Rows that are not whole 16-byte vectors, up to kColumnTilesMaxCols columns: each of `chunks`
/// blocks walks its chunk of whole-row tiles (about 16 KiB, tile_rows), copying each into shared
/// memory with 16-byte loads of the flat array, and thread t adds columns t, t + 256, ... over the
/// tile's rows; partials[chunk][col], then a thread per column adds the chunks in order. `partials`
/// holds chunks x cols floats (chunks from column_tiles_chunks). Wider than kColumnTilesMaxCols:
/// launch_columns_two_stage.
template <typename T>
void launch_columns_tiles(const T* in, T* out, std::int64_t rows, std::int64_t cols, float* partials, int chunks,
                          cudaStream_t stream);

/// Columns up to which launch_columns_flat runs (its period of columns then fits one block).
constexpr std::int64_t kFlatColumnsMaxCols = 1024;

/// The flat-columns kernel's column period in 16-byte vectors: the vectors after which the
/// columns of a vector's lanes repeat, lcm(cols, kVector) / kVector = cols / gcd(cols, kVector).
constexpr std::int64_t flat_columns_period(std::int64_t cols, std::size_t element_size) {
  std::int64_t a = cols, b = static_cast<std::int64_t>(16 / element_size);
  while (b != 0) {
    const std::int64_t r = a % b;
    a = b;
    b = r;
  }
  return cols / a;
}

/// Threads of a flat-columns block: a multiple of the period, so that each thread meets the same
/// columns in every window it loads; among the multiples in [256, 512] the one with the fewest
/// idle lanes in its last warp (the smallest on a tie), the period itself when it passes 512.
constexpr int flat_columns_threads(std::int64_t cols, std::size_t element_size) {
  const std::int64_t period = flat_columns_period(cols, element_size);
  if (period > 512) return static_cast<int>(period);
  std::int64_t best = 0, best_padded = 1;
  for (std::int64_t t = (256 + period - 1) / period * period; t <= 512; t += period) {
    const std::int64_t padded = (t + 31) / 32 * 32;
    if (best == 0 || t * best_padded > best * padded) {
      best = t;
      best_padded = padded;
    }
  }
  return static_cast<int>(best);
}

/// Copies of the per-column fp32 accumulator that the flat-columns blocks spread their atomic
/// adds over (block b adds into copy b % slots): at most 32, and at most ~2048 floats in all, which
/// the last block reads back.
constexpr int flat_columns_slots(std::int64_t cols) {
  const std::int64_t slots = 2048 / (cols > 0 ? cols : 1);
  return static_cast<int>(slots < 1 ? 1 : slots > 32 ? 32 : slots);
}

/// Launch shape of the flat-columns kernel for one problem.
struct FlatColumnsShape {
  int threads = 0;  ///< flat_columns_threads
  int blocks = 0;   ///< a resident wave at most (the grid strides over the windows)
  int slots = 1;    ///< flat_columns_slots
};

/// The flat-columns shape on this device: blocks = what fits resident (occupancy query, at most
/// 1536 threads per SM) x sm_count, at most max(2 x sm_count, 131072 / cols) so that a call's
/// atomic adds stay near 128 Ki, and at most the tensor's windows of threads x kVector elements.
/// Call once per problem (prepare), not per launch.
template <typename T>
FlatColumnsShape flat_columns_shape(std::int64_t rows, std::int64_t cols, int sm_count);

/// Outer sums of up to kFlatColumnsMaxCols columns, any width, rows or alignment: the tensor is
/// read as one flat stream of 16-byte vectors, as a copy would (grid-stride over windows of
/// threads x kVector elements, 4 windows in flight per thread). A window is a whole number of
/// column periods, so lane l of thread t's vectors always belongs to column (t * kVector + l) %
/// cols: each thread keeps kVector fp32 sums in registers, whatever cols is. The block folds them
/// per column in shared memory (a fixed tree) and adds its cols sums atomically into copy
/// blockIdx.x % slots of `scratch`; the last block (a ticket on `counter`) adds the copies, writes
/// out and leaves scratch and counter at zero. `scratch` holds slots x cols floats and `counter`
/// one unsigned, both zero before the first call. fp32 atomics: the last bits of a result may
/// differ from call to call. Element loads when `in` is not 16-byte aligned. Throws for cols >
/// kFlatColumnsMaxCols.
template <typename T>
void launch_columns_flat(const T* in, T* out, std::int64_t rows, std::int64_t cols, const FlatColumnsShape& shape,
                         float* scratch, unsigned* counter, cudaStream_t stream);

// ---- vendor baselines ---------------------------------------------------------------------------

/// cub::DeviceReduce::TransformReduce (fp32 accumulation). Call with temp == nullptr to get the
/// temporary storage size in temp_bytes.
template <typename T>
void cub_full_sum(void* temp, std::size_t& temp_bytes, const T* in, T* out, std::int64_t n, cudaStream_t stream);

/// cub::DeviceSegmentedReduce::Reduce over rows described by `offsets` (rows + 1 values),
/// fp32 accumulation. Call with temp == nullptr to get the temporary storage size.
template <typename T>
void cub_segmented(void* temp, std::size_t& temp_bytes, const T* in, T* out, std::int64_t rows,
                   const std::int64_t* offsets, Reduction reduction, cudaStream_t stream);

}  // namespace kbench::sum
