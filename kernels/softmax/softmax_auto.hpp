#pragma once
/// Launch shapes of the softmax kernels for long rows, and the `auto` heuristic: which kernel a
/// framework would ship for a problem, from its extents, dtype, pointers' alignment and device
/// alone (no timing at run time). Host-only and pure, so host tests check them;
/// kernels/softmax/NOTES.md ("auto") gives the reasoning and the predictions.

#include "kernels/common/vector_row_groups.hpp"
#include "kernels/softmax/softmax_thread_rows.hpp"

#include <cstddef>
#include <cstdint>

namespace kbench::softmax {

/// Rows of at most this many elements take the packed-rows kernel (tiles of whole rows in shared
/// memory); its variant runs the online kernel for longer rows.
constexpr std::int64_t kPackedMaxCols = 1024;

/// The cluster-row kernel: blocks of a cluster share a row, each holding its slice in shared
/// memory. A slice aims at kClusterSliceTarget bytes (then several blocks per SM overlap their
/// load and write phases) and may grow to kClusterSliceMost when 8 blocks are not enough.
constexpr int kClusterMaxBlocks = 8;  ///< the portable cluster size
constexpr std::int64_t kClusterSliceTarget = 32 * 1024;
constexpr std::int64_t kClusterSliceMost = 192 * 1024;

/// 16-byte vectors of one block's slice when a row of `cols` elements is split over `blocks`
/// blocks: the row's aligned body has at most cols / kVector vectors whatever its alignment.
constexpr std::int64_t cluster_slice_vectors(std::int64_t cols, std::size_t element_size, int blocks) {
  const std::int64_t vectors = cols / static_cast<std::int64_t>(16 / element_size);
  return (vectors + blocks - 1) / blocks;
}

/// Blocks per row of the cluster-row kernel: the fewest of 1, 2, 4, 8 whose slices fit
/// kClusterSliceTarget, then doubled (up to 8) while the grid has fewer blocks than 2 per SM; 0
/// when even 8 slices would pass kClusterSliceMost.
constexpr int cluster_row_blocks(std::int64_t rows, std::int64_t cols, std::size_t element_size, int sm_count) {
  int blocks = 1;
  while (blocks < kClusterMaxBlocks && cluster_slice_vectors(cols, element_size, blocks) * 16 > kClusterSliceTarget) {
    blocks *= 2;
  }
  if (cluster_slice_vectors(cols, element_size, blocks) * 16 > kClusterSliceMost) return 0;
  while (blocks < kClusterMaxBlocks && rows * blocks < 2 * static_cast<std::int64_t>(sm_count)) blocks *= 2;
  return blocks;
}

/// cluster_row's two forms of the exponentials (softmax_cluster_row.cu): two an element (the
/// online fold during the load, again in the write), or one (each thread's vectors stored as
/// e^(x - its maximum) by a second pass before the meeting, the write a multiply; 32 registers
/// instead of 48 in 16-bit). One pays where the SFU limits, 16-bit rows in many waves of
/// clusters; where one wave holds the tensor the second pass sits on the critical path. Measured
/// on the H200 (softmax NOTES, session 25; waves counted for the 32-register kernel): 16-bit
/// 3.9-15.5 waves 3.5-12 % faster, 0.3-0.6 waves 3-7 % slower, fp32 1-5 % slower everywhere.
/// Nothing was measured between 0.6 and 3.9 waves: the threshold of 2 is a guess in that gap.
constexpr int kClusterStoredExponentialsWaves = 2;

/// Whether cluster_row has the form that stores exponentials for this element size (16-bit only).
constexpr bool cluster_may_store_exponentials(std::size_t element_size) { return element_size == 2; }

/// Whether cluster_row stores exponentials for `rows` rows (one cluster each) on a device that
/// holds `resident_clusters` such clusters at once: 16-bit, at least kClusterStoredExponentialsWaves waves.
constexpr bool cluster_stores_exponentials(std::size_t element_size, std::int64_t rows, int resident_clusters) {
  return cluster_may_store_exponentials(element_size) && resident_clusters > 0 &&
         rows >= static_cast<std::int64_t>(kClusterStoredExponentialsWaves) * resident_clusters;
}

/// The split-row kernels: each block takes kSplitChunkVectors 16-byte vectors of a row's body.
constexpr std::int64_t kSplitChunkVectors = 256 * 4;

/// Blocks per row of the split-row kernels.
constexpr std::int64_t split_row_chunks(std::int64_t cols, std::size_t element_size) {
  const std::int64_t vectors = cols / static_cast<std::int64_t>(16 / element_size);
  const std::int64_t chunks = (vectors + kSplitChunkVectors - 1) / kSplitChunkVectors;
  return chunks > 0 ? chunks : 1;
}

/// The short-rows kernel (rows of at most kShortMaxCols elements): a group of `lanes` lanes (1 to
/// 32, a power of two) owns a row and holds it in registers, `per_lane` units each (16-byte
/// vectors when rows are whole vectors, read straight from global memory; elements otherwise,
/// from a tile of whole rows staged in shared memory with 16-byte copies). `rows_per_group` rows
/// per group when a row is shorter than 4 vectors, so that every thread keeps 64 bytes in flight.
constexpr std::int64_t kShortMaxCols = 1024;
constexpr int kShortVectorsPerLane = 4;   ///< direct path: 16-byte vectors per lane (8 past 128 vectors)
constexpr int kShortElementsPerLane = 8;  ///< staged path: elements per lane (32 past 256 elements)

struct ShortRowsShape {
  bool staged = false;     ///< elements from a shared-memory tile (rows not whole vectors, or unaligned)
  int lanes = 1;           ///< per row
  int per_lane = 1;        ///< vectors (direct) or elements (staged) each lane holds
  int rows_per_group = 1;  ///< rows each lane group holds at once (direct path)
};

constexpr int next_power_of_two(std::int64_t n) {
  int p = 1;
  while (p < n) p *= 2;
  return p;
}

/// The short-rows shape for rows of `cols` (at most kShortMaxCols) elements; `vector_rows` as in
/// SoftmaxLayout.
constexpr ShortRowsShape short_rows_shape(std::int64_t cols, std::size_t element_size, bool vector_rows) {
  ShortRowsShape shape;
  shape.staged = !vector_rows;
  const std::int64_t units = vector_rows ? cols / static_cast<std::int64_t>(16 / element_size) : cols;
  const int most = vector_rows ? kShortVectorsPerLane : kShortElementsPerLane;
  while (shape.lanes < 32 && (units + shape.lanes - 1) / shape.lanes > most) shape.lanes *= 2;
  shape.per_lane = next_power_of_two((units + shape.lanes - 1) / shape.lanes);
  // A lane holds at least `most` units (guarded), except one lane per row of 1-3 vectors, which
  // holds its rows' vectors and takes several rows instead.
  if (shape.per_lane < most && (shape.staged || shape.lanes > 1)) shape.per_lane = most;
  if (!shape.staged && shape.lanes == 1) shape.rows_per_group = kShortVectorsPerLane / shape.per_lane;
  return shape;
}

/// The warp-rows kernel (rows of at most kWarpRowsMaxCols elements, softmax_warp_rows.cu): a group
/// of `lanes` lanes (1 to 32) per row, each lane loading its row's 4-byte words straight from
/// global memory (an fp32 element, or a pair of 16-bit elements; the one element of a pair that
/// lies in the row at its ends), `words` per row, for `rows` rows, all issued before the first
/// reduction. A row of `cols` elements spans ceil(cols x size / 4) words whatever the row's start
/// (16-bit rows of odd width start on a word or halfway into one, and then end halfway into one).
constexpr std::int64_t kWarpRowsMaxCols = 256;
constexpr int kWarpRowsWordsInFlight = 8;  ///< 4-byte loads each lane issues before its first reduction

struct WarpRowsShape {
  int lanes = 1;  ///< per row, a power of two
  int words = 1;  ///< 4-byte words per lane and row (1, 2, 4 or 8)
  int rows = 1;   ///< rows per lane group, kWarpRowsWordsInFlight / words
};

constexpr std::int64_t warp_rows_words_per_row(std::int64_t cols, std::size_t element_size) {
  return (cols * static_cast<std::int64_t>(element_size) + 3) / 4;
}

/// The fewest lanes (up to 32) that hold a row at one word each, then words per lane (a power of
/// two) for rows past 32 words, and rows per group to keep kWarpRowsWordsInFlight words per lane.
constexpr WarpRowsShape warp_rows_shape(std::int64_t cols, std::size_t element_size) {
  WarpRowsShape shape;
  const std::int64_t words = warp_rows_words_per_row(cols, element_size);
  shape.lanes = next_power_of_two(words < 32 ? words : 32);
  shape.words = next_power_of_two((words + shape.lanes - 1) / shape.lanes);
  shape.rows = shape.words < kWarpRowsWordsInFlight ? kWarpRowsWordsInFlight / shape.words : 1;
  return shape;
}

/// The grain-rows kernel (rows of at most kGrainRowsMaxCols elements, softmax_grain_rows.cu): a
/// group of `lanes` lanes per row, lane l loading the row's grains l, l + lanes, ... (`grains` of
/// them) straight from global memory, for `rows` rows, all issued before the first reduction. A
/// grain is the widest load that never straddles two rows: `grain` elements, the largest power of
/// two (at most 16 bytes) that divides cols and that both pointers' alignment allows, so odd
/// widths load single elements and a warp's load covers consecutive elements of its rows.
constexpr std::int64_t kGrainRowsMaxCols = 256;
constexpr int kGrainRowsBytesInFlight = 32;  ///< bytes of x each lane loads before its first reduction

struct GrainRowsShape {
  int grain = 1;   ///< elements per load
  int lanes = 1;   ///< per row, a power of two
  int grains = 1;  ///< loads per lane and row: ceil(cols / grain / lanes)
  int rows = 1;    ///< rows per lane group in flight
};

constexpr int log2_floor(std::int64_t n) {
  int k = 0;
  while ((std::int64_t{2} << k) <= n) ++k;
  return k;
}

/// `pointer_alignment`: the largest power of two (up to 16) dividing both x's and y's addresses.
/// Lanes: one per grain up to 32, then halved while lanes x log2(lanes) > 2 x cols. A warp
/// shuffle issues once per clock per SM; a row costs 2 log2(lanes) of them for 32 / lanes rows,
/// and at the DRAM rate an H100 SM sees ~3.6 16-bit elements per clock (14.5 bytes per clock, read
/// plus write), so the rule keeps the shuffles under ~45 % of that pipe (7 columns: 4 lanes x 2,
/// not 8 x 1; 33: 16 x 3, not 32 x 2; 100 and up: 32).
constexpr GrainRowsShape grain_rows_shape(std::int64_t cols, std::size_t element_size, int pointer_alignment) {
  GrainRowsShape shape;
  const int size = static_cast<int>(element_size);
  shape.grain = 16 / size;
  while (shape.grain > 1 && (cols % shape.grain != 0 || shape.grain * size > pointer_alignment)) shape.grain /= 2;
  const std::int64_t grains = cols / shape.grain;
  shape.lanes = next_power_of_two(grains < 32 ? grains : 32);
  while (shape.lanes > 1 && shape.lanes * log2_floor(shape.lanes) > 2 * cols) shape.lanes /= 2;
  shape.grains = static_cast<int>((grains + shape.lanes - 1) / shape.lanes);
  const int row_bytes = shape.grains * shape.grain * size;
  shape.rows = row_bytes < kGrainRowsBytesInFlight ? kGrainRowsBytesInFlight / row_bytes : 1;
  return shape;
}

/// Whether grain_rows_shape gives (grain, lanes, grains) for some width up to kGrainRowsMaxCols
/// and some alignment: the kernel instantiations the launcher needs.
constexpr bool grain_rows_reachable(std::size_t element_size, int grain, int lanes, int grains) {
  for (int alignment = static_cast<int>(element_size); alignment <= 16; alignment *= 2) {
    for (std::int64_t cols = 1; cols <= kGrainRowsMaxCols; ++cols) {
      const GrainRowsShape s = grain_rows_shape(cols, element_size, alignment);
      if (s.grain == grain && s.lanes == lanes && s.grains == grains) return true;
    }
  }
  return false;
}

/// The body-rows kernel (rows of body_rows_min_cols..body_rows_max_cols columns, x and y 16-byte
/// aligned; softmax_body_rows.cu): a group of `lanes` lanes per row, lane l loading the 16-byte
/// vectors l, l + lanes, ... (`vectors` of them) of the row's aligned body (from its first 16-byte
/// boundary to its last) and elements l, l + lanes, ... (`edges` of them) of the head and tail
/// around it, for `rows` rows before the first reduction. Odd widths then move 16 bytes per load
/// where grain_rows moves 2 or 4 and packed_rows stages the row in shared memory.
/// Elements of a 16-byte vector.
constexpr std::int64_t body_rows_vector(std::size_t element_size) { return 16 / static_cast<std::int64_t>(element_size); }
/// Two vectors' worth, up to kBodyRowsMostVectors vectors on each of 32 lanes.
constexpr int kBodyRowsMostVectors = 8;
constexpr std::int64_t body_rows_min_cols(std::size_t element_size) { return 2 * body_rows_vector(element_size); }
constexpr std::int64_t body_rows_max_cols(std::size_t element_size) {
  return kBodyRowsMostVectors * 32 * body_rows_vector(element_size);
}
constexpr std::int64_t kBodyRowsMinCols = body_rows_min_cols(2);  ///< 16-bit: 16
constexpr std::int64_t kBodyRowsMaxCols = body_rows_max_cols(2);  ///< 16-bit: 2048
constexpr std::int64_t kBodyRowsAutoMinColsFp32 = 48;  ///< auto_takes_body_rows: fp32 from here

/// 16-byte body vectors per lane in flight before the first reduction, in bytes, for lanes of one
/// vector a row: 2 rows per lane group. 64 (4 rows) lost 1-7 % to it on every width measured (H100,
/// session 13; NOTES.md). Lanes of 2 or 4 vectors a row keep twice as many bytes (2 rows of 2, 1
/// of 4): with one row of 2 (32 bytes) 131071x300 ran at 69 % of the copy roof (session 14).
/// Lanes of 8 vectors hold one row (128 bytes).
constexpr int kBodyRowsBytesInFlight = 32;

struct BodyRowsShape {
  int lanes = 4;    ///< per row, a power of two, 4 to 32
  int vectors = 1;  ///< body vectors per lane and row: 1, 2, 4 or 8 (2-8 with 32 lanes)
  int edges = 0;    ///< head and tail elements per lane and row
  int rows = 1;     ///< rows per lane group in flight
};

/// Head plus tail elements of a row of `cols` (at least one vector) elements that starts `start`
/// elements past a 16-byte boundary: cols less its whole aligned vectors.
constexpr int body_rows_edge_elements(std::int64_t cols, std::int64_t start, std::size_t element_size) {
  const std::int64_t vector = body_rows_vector(element_size);
  const std::int64_t head = (vector - start % vector) % vector;
  return static_cast<int>(cols - (cols - head) / vector * vector);
}

/// Rows per lane group in flight for `vectors` body vectors a lane: `bytes_in_flight` of vectors a
/// lane for one vector, twice that for more, at least one row.
constexpr int body_rows_rows_in_flight(int vectors, int bytes_in_flight) {
  const int bytes = vectors == 1 ? bytes_in_flight : 2 * bytes_in_flight;
  return bytes > 16 * vectors ? bytes / (16 * vectors) : 1;
}

/// Lanes: one per body vector (at most cols / vector), at least 4 (so that the head and tail, up
/// to 14 16-bit or 6 fp32 elements, take at most 4 element loads per lane) and at most 32; past 32
/// vectors, vectors per lane (a power of two) until the lanes hold them. Edges: the most head and
/// tail elements of any row of the tensor (rows start at r x cols elements, r below the vector
/// width gives every phase) over the lanes. Rows: body_rows_rows_in_flight.
constexpr BodyRowsShape body_rows_shape(std::int64_t cols, std::size_t element_size, int bytes_in_flight) {
  BodyRowsShape shape;
  const std::int64_t vector = body_rows_vector(element_size);
  const std::int64_t body_vectors = cols / vector;
  shape.lanes = next_power_of_two(body_vectors < 4 ? 4 : body_vectors < 32 ? body_vectors : 32);
  shape.vectors = next_power_of_two((body_vectors + shape.lanes - 1) / shape.lanes);
  int most_edges = 0;
  for (std::int64_t r = 0; r < vector; ++r) {
    const int edges = body_rows_edge_elements(cols, r * cols, element_size);
    if (edges > most_edges) most_edges = edges;
  }
  shape.edges = (most_edges + shape.lanes - 1) / shape.lanes;
  shape.rows = body_rows_rows_in_flight(shape.vectors, bytes_in_flight);
  return shape;
}

/// Whether body_rows_shape gives (lanes, vectors, edges, rows) for some width body_rows_min_cols..
/// body_rows_max_cols: the kernel instantiations the launcher needs.
constexpr bool body_rows_reachable(std::size_t element_size, int lanes, int vectors, int edges, int rows,
                                   int bytes_in_flight) {
  for (std::int64_t cols = body_rows_min_cols(element_size); cols <= body_rows_max_cols(element_size); ++cols) {
    const BodyRowsShape s = body_rows_shape(cols, element_size, bytes_in_flight);
    if (s.lanes == lanes && s.vectors == vectors && s.edges == edges && s.rows == rows) return true;
  }
  return false;
}

/// The vector-rows kernel (softmax_vector_rows.cu) for rows shorter than two 16-byte vectors whose
/// byte width is not a multiple of 16: R = 16 / gcd(row bytes, 16) consecutive rows span exactly
/// V = R x row bytes / 16 whole vectors (V is odd), so in an aligned tensor a lane owns R whole rows
/// as V 16-byte vectors (16-bit 7 columns: 8 rows in 7 vectors; fp32 7: 4 rows in 7). A warp's
/// tile is `spans` x 32 such groups, one contiguous stretch of the tensor.
constexpr int kVectorRowsMaxRowBytes = 32;   ///< rows of fewer bytes take it
constexpr int kVectorRowsLaneVectors = 8;    ///< a lane's tile holds at least this many vectors (one group if more)

using VectorRowsShape = VectorRowTile;

/// Whether rows of `cols` elements are in vector_rows' class: fewer than kVectorRowsMaxRowBytes
/// bytes, not a whole number of 16-byte vectors.
constexpr bool vector_rows_fits(std::int64_t cols, std::size_t element_size) {
  const std::int64_t row_bytes = cols * static_cast<std::int64_t>(element_size);
  return cols >= 1 && row_bytes < kVectorRowsMaxRowBytes && row_bytes % 16 != 0;
}

constexpr VectorRowsShape vector_rows_shape(std::int64_t cols, std::size_t element_size) {
  if (!vector_rows_fits(cols, element_size)) return {};
  return vector_row_tile(cols * static_cast<std::int64_t>(element_size), kVectorRowsLaneVectors);
}

/// The grid-row kernel (few long rows, Hopper): every row split over `blocks_per_row` blocks of
/// one cooperative grid, each holding a slice of at most kGridSliceMost bytes in shared memory
/// (two blocks per SM); the blocks of a row exchange their (max, sum) through global memory.
/// `rows_in_flight` rows at a time; a grid of rows_in_flight x blocks_per_row blocks (at most
/// the resident blocks) walks the rows in batches.
constexpr std::int64_t kGridSliceMost = 96 * 1024;
constexpr int kGridBlocksPerSm = 2;
constexpr std::int64_t kGridMaxBlocksPerRow = 1024;

struct GridRowShape {
  std::int64_t blocks_per_row = 0;  ///< 0: the kernel cannot hold one slice per block
  std::int64_t rows_in_flight = 0;
  std::int64_t slice_vectors = 0;   ///< 16-byte vectors of each block's slice
};

/// The fewest blocks per row whose slices fit kGridSliceMost, then as many as keep every one of
/// `resident_blocks` busy: rows_in_flight = the rows that many slices hold (at most `rows`), and
/// the blocks spread over them.
constexpr GridRowShape grid_row_shape(std::int64_t rows, std::int64_t cols, std::size_t element_size,
                                      std::int64_t resident_blocks) {
  GridRowShape shape;
  const std::int64_t vectors = cols / static_cast<std::int64_t>(16 / element_size);
  const std::int64_t most_vectors = kGridSliceMost / 16;
  const std::int64_t fewest = vectors > 0 ? (vectors + most_vectors - 1) / most_vectors : 1;
  if (rows < 1 || fewest > resident_blocks || fewest > kGridMaxBlocksPerRow) return shape;
  std::int64_t in_flight = resident_blocks / fewest;
  if (in_flight > rows) in_flight = rows;
  std::int64_t blocks = resident_blocks / in_flight;
  if (blocks > kGridMaxBlocksPerRow) blocks = kGridMaxBlocksPerRow;
  if (blocks > vectors) blocks = vectors > fewest ? vectors : fewest;  // no block without a vector
  shape.blocks_per_row = blocks;
  shape.rows_in_flight = in_flight;
  shape.slice_vectors = vectors > 0 ? (vectors + blocks - 1) / blocks : 1;
  return shape;
}

enum class SoftmaxKernel {
  packed, short_rows, grain_rows, vector_rows, body_rows, thread_rows, register_row, cluster, grid, split, online
};

/// What the pointers allow: `vector_rows` when x and y are 16-byte aligned and cols is a whole
/// number of 16-byte vectors (every row starts aligned); `same_phase` when x and y sit at the same
/// offset from a 16-byte boundary (a row's aligned body is then aligned in both).
struct SoftmaxLayout {
  bool vector_rows = false;
  bool same_phase = false;
  bool aligned = false;  ///< x and y both 16-byte aligned (ring_rows' bulk copies)
};

/// 16-bit rows up to kGrainRowsMaxCols that are not whole 16-byte vectors, at any alignment:
/// grain_rows, unless vector_rows, body_rows or thread_rows takes them (auto_softmax_kernel). On the H100 (2026-11-24, session
/// 11, cold µs) it won 65536x100 (14.1 against warp_rows' 18.4 and torch.compile's 15.1),
/// 1000003x33 (72.7 against short_rows' 84.8), 65537x129 (22.6 against 28.7) and 2097152x7 (30.3
/// against 31.1), and lost to ring_rows on the large tensors of 96-byte rows and more (262144x127:
/// 60.7 against 56.1; 262144x61: 31.9 against 31.6). fp32 rows keep the measured picks below.
///
/// fp32 rows of 36-188 bytes that are not whole vectors (9-47 columns, under body_rows' 48): grain_rows
/// too, ahead of ring_rows. On the H100 (session 13, cold µs) its 4-byte loads beat short_rows'
/// staged tiles at 1048573x13 (42.9 against 51.2), 2097143x17 (104.1 against 139.4) and 699051x23
/// (45.3 against 60.6), and ring_rows at 1000003x33 (99.3 against 105.8) and 524287x47 (68.7
/// against 79.5); ring_rows won only 1048573x9 (26.9 against 29.1), whose 36-byte rows it does not take.
///
/// Rows of whole 16-byte vectors up to kGrainRowsMaxCols columns, any dtype: grain_rows too (16-byte
/// grains), ahead of short_rows' direct path. On the H200 (2026-11-28, session 24, cold µs, 64 MiB
/// tensors against a 64.7 µs copy) grain_rows ran 65.5-66.5 at every such width measured, short_rows
/// 65.4-96.3: fp32 x8 65.8 against 76.9, x16 65.8 against 96.3, x32 66.0 against 74.7; fp16 x16 65.7
/// against 77.7, x32 65.6 against 89.3, x64 65.5 against 79.0, x256 66.5 against 70.7; level (within
/// 1.3 %) at fp32 x4, x64, x128, x256, 65537x96 and fp16 x8. On the H100 (session 22) fp32
/// 1048576x32 ran 88.7 against short_rows' 95.1.
constexpr bool auto_takes_grain_rows(std::int64_t cols, std::size_t element_size, SoftmaxLayout layout) {
  if (layout.vector_rows) return cols <= kGrainRowsMaxCols;
  if (element_size == 2) return cols <= kGrainRowsMaxCols;
  return element_size == 4 && cols * 4 > kVectorRowsMaxRowBytes && cols < kBodyRowsAutoMinColsFp32;
}

/// 16-bit rows of kBodyRowsAutoMinCols..kGrainRowsMaxCols columns whose width is not a multiple of 4
/// elements (grain_rows' grain would be 2 or 4 bytes), x and y 16-byte aligned: body_rows, ahead of
/// grain_rows and ring_rows. On the H100 (session 13, cold µs, fp16) it won every such width past
/// 64 measured: 65537x129 15.3 against grain_rows' 22.6, 65537x130 15.3 against 19.3, 131071x255
/// 49.3 against ring_rows' 56.1, 262144x127 50.2 against 55.7. At 64 columns and fewer its 1-7
/// body vectors leave up to 15 edge elements to 4-8 lanes and it lost most: 2097143x17 126.8 against
/// grain_rows' 73.0, 699051x23 38.4 against 29.3, 524287x47 45.8 against 41.6, 262144x62 26.7
/// against 25.3 (it won 33 and 61 by 5 %). At 100 columns (8-byte grains) grain_rows kept the lead
/// (14.1 against 15.0).
///
/// 16-bit rows of kGrainRowsMaxCols + 1..kBodyRowsAutoMaxCols columns that are not whole 16-byte
/// vectors (cols % 8 != 0), x and y 16-byte aligned: body_rows with 2-8 body vectors a lane, ahead
/// of packed_rows' shared-memory tiles (H100, session 9: fp16 32768x999 64.9 µs against a 42.9 µs
/// copy roof, 66 %; session 13's fresh draw: bf16 7x2047x999 31.6 against 22.3, 71 %). Measured
/// (H100, session 14, cold µs; NOTES.md, "body_rows past 256 columns"): 32768x999 48.0 (89 %),
/// 7x2047x999 22.9 (97 %), 262144x263 96.5 (94 %), 16384x1023 25.7 (84 %), 65536x257 26.4 (82 %),
/// 32768x513 24.8-26.4 (82-87 %); 131071x300 73.6-78.1 (69-74 %, packed_rows 78.0, cuDNN 70-72).
/// And past 1024 columns to kBodyRowsAutoMaxCols (8 vector slots a lane, the exponentials computed
/// twice), ahead of register_row's 64-thread blocks. H200, session 34, cold µs, bf16 (NOTES.md,
/// "body_rows up to 2048 16-bit columns"): 32715x1071 39.2 against 49.6 (copy 37.3), 65537x1100
/// 75.0 against 93.9, 16384x1025 20.1 against 23.8, 100003x1031 108.3 against 121.2, 30011x1283
/// 40.0 against 46.5, 25810x1407 38.4 against 41.6, 50000x1500 75.1 against 77.6 (fp16 75.0
/// against 73.9); past it register_row: 16384x1801 31.9 against 32.4 (fp16 31.7 against 31.0),
/// 20011x1999 43.2 against 40.5, 8192x2047 21.0 against 19.7. fp32 (8 slots from 516 columns)
/// lost to register_row or packed_rows at 555-1023 and keeps them. And 16-bit rows of whole vectors
/// of kBodyRowsAutoWholeMinCols..kBodyRowsAutoMaxCols columns (no head, no tail), ahead of
/// short_rows (to 1024) and register_row. H200, session 34, call 3, cold µs, fp16 (bf16 alike):
/// 65536x520 43.8 against short_rows' 59.1 (copy 33.6), 65536x768 52.2 against 62.3, 32768x1000
/// 34.5 against 37.1, 16384x1024 19.5 against 20.4, 16384x1032 19.9 against register_row's 25.5,
/// 32768x1040 34.9 against 45.8, 20000x1280 26.6 against 30.1, 25000x1400 36.2 against 36.9,
/// 16384x1536 26.2 against 26.4, 16384x1600 27.4 against 30.0; past it register_row: 20000x2000
/// 40.5 against 39.5, 8192x2048 19.3 against 18.7. Whole-vector rows of 257-512 columns keep
/// short_rows (not measured against body_rows).
///
/// fp32 rows of kBodyRowsAutoMinColsFp32..kBodyRowsAutoMaxColsFp32 columns that are not whole
/// vectors, x and y 16-byte aligned: body_rows, ahead of warp_rows (48-256) and packed_rows
/// (257-512). H100, session 15, cold µs (NOTES.md, "body_rows for fp32"): 65536x257 45.5 against
/// packed_rows' 53.5 and cuDNN's 45.7; 32768x385 35.2 (40.5; cuDNN 34.1); 16384x511 23.5 (26.4;
/// 23.3); 65536x129 24.0 against warp_rows' 31.4 (cuDNN 24.8); 262144x61 45.2 (46.4; 44.6).
constexpr std::int64_t kBodyRowsAutoMinCols = 65;
constexpr std::int64_t kBodyRowsAutoMaxCols = 1600;
constexpr std::int64_t kBodyRowsAutoWholeMinCols = 513;
constexpr std::int64_t kBodyRowsAutoMaxColsFp32 = 512;
constexpr bool auto_takes_body_rows(std::int64_t cols, std::size_t element_size, SoftmaxLayout layout) {
  if (!layout.aligned) return false;
  if (element_size == 4) return cols >= kBodyRowsAutoMinColsFp32 && cols <= kBodyRowsAutoMaxColsFp32 && cols % 4 != 0;
  if (element_size != 2 || cols < kBodyRowsAutoMinCols) return false;
  if (cols <= kGrainRowsMaxCols) return cols % 4 != 0;
  if (cols > kBodyRowsAutoMaxCols) return false;
  return cols % 8 != 0 || cols >= kBodyRowsAutoWholeMinCols;
}

/// Rows vector_rows_fits in 16-byte aligned tensors, any dtype, any row count, any compute
/// capability: vector_rows (staged). Predicted (kernels/softmax/NOTES.md, "vector_rows"; not yet
/// measured) ahead of grain_rows (16-bit 2097152x7: 30.3 µs) and short_rows (fp32 2097152x7: 45.1):
/// 16-bit 2097152x7 at 21.5-24 µs, fp32 at 40-43 µs. The lead's measurement re-tunes this.
constexpr bool auto_takes_vector_rows(std::int64_t cols, std::size_t element_size, SoftmaxLayout layout) {
  return layout.aligned && vector_rows_fits(cols, element_size);
}

/// Longest rows, in 16-byte vectors, that register_row holds (softmax_kernels.hpp).
constexpr std::int64_t auto_register_row_max_vectors(std::size_t element_size) {
  return element_size == 4 ? 8 * 1024 : 4 * 1024;
}

/// Rows past kShortMaxCols that are not whole 16-byte vectors (16-bit ones past
/// kBodyRowsAutoMaxCols: body_rows takes those up to it), up to this many vectors' worth, in
/// aligned tensors with at least 2 rows per SM: register_row, which holds the row's aligned body in
/// registers and its head and tail elements one per thread. Before it they went to cluster_row
/// with one small block per row (H100, session 14, cold µs, fp16: 8192x1999 59.5 against a 21.0
/// copy roof, 35 %; 4096x3001 37.7 against 16.5; 2048x4097 23.3 against 12.8). Measured with
/// register_row (same session; NOTES.md, "register_row for rows past 1024 columns"): 8192x1999
/// 22.9 (92 %, 64-thread blocks), 4096x3001 19.3 (84 %), 2048x4097 14.8 (85 %), 16384x1025 28.3
/// (77 %); fp32 8192x1025 21.8, 4096x3001 32.0, 2048x8191 44.2 (92-99 %). Longer rows keep
/// cluster_row (fp32 3000x32003 at 93 % in session 13).
constexpr std::int64_t kRegisterRowOddMaxVectors = 4096;

/// fp32 rows past this many columns, up to kShortMaxCols, that are not whole 16-byte vectors, in
/// aligned tensors with at least 2 rows per SM: register_row (64-thread blocks holding 3-4 vectors a
/// thread), ahead of packed_rows. H100, session 14, cold µs: 8192x1023 21.9 against 26.4 (98 % of
/// the roof against 81 %); at 513 columns (2 vectors a thread) packed_rows stayed ahead, 44.4
/// against 45.6, and at 257 far ahead (53.5 against 66.1). Widths between 513 and 1023 are not
/// measured: the bound sits where a thread holds at least 3 of its 4 vector slots.
constexpr std::int64_t kRegisterRowOddFp32MinCols = 768;

/// Rows up to this many elements always take short rows; longer ones up to kShortMaxCols only in
/// 16-bit whole-vector rows (to kBodyRowsAutoWholeMinCols - 1 in aligned tensors, where body_rows
/// takes the longer ones; fp32 ones to kShortFp32VectorMaxCols, below) (H100, 2026-11-24: at 999-1000 columns short rows lost to packed rows
/// on odd widths, fp32 92.6 against 107.5 µs at 32768x999, and to register_row in fp32, 42.9
/// against 53.0 µs at 16384x1000; it won 16-bit whole-vector rows, 23.2 against 35.6 µs).
constexpr std::int64_t kShortAlwaysMaxCols = 256;

/// fp32 rows of whole 16-byte vectors up to this many columns also take short rows: register_row's
/// 64-thread blocks hold 1-2 of their 65-128 vectors a thread. H100, session 15, cold µs: 32768x260
/// 22.8 against register_row's 38.1 (cuDNN 23.6), 32768x384 32.5 against 39.2, 32768x512 43.3
/// against 44.5; past it register_row wins (16384x640 27.2 against 33.9, 16384x1000 42.7 against 53.1).
constexpr std::int64_t kShortFp32VectorMaxCols = 512;

/// ring_rows (the bulk-copy ring with a lane group per row) is no longer `auto`'s: it took odd
/// 16-bit rows of 48-256 columns in aligned tensors of 24 MiB or more (H100, session 10: 262144x61
/// 31.4 µs against short_rows' 33.9, 262144x127 55.5 against 65.8), and thread_rows (17-64
/// columns, session 30) and body_rows (65 and more, session 13) now win every such row.

/// 16-bit rows of kThreadRowsAutoMinCols..kThreadRowsAutoMaxCols columns that are not whole 16-byte
/// vectors, x and y 16-byte aligned, compute capability 9.0+: thread_rows (a thread per row, two
/// past 32 columns, through the bulk-copy ring), ahead of grain_rows, for odd widths and even ones
/// of kThreadRowsAutoMaxEvenCols or fewer that are not multiples of 4 (grain_rows' 4-byte grains).
/// H200, session 30, cold µs, fp16 (NOTES.md, "thread_rows"; the kept build, call 3): 2000003x17
/// 39.8 against grain_rows' 55.9 (copy 36.8), 1692154x19 37.4 against 50.4, 1500007x21 37.2
/// against 47.6, 1300003x25 36.6 against 48.6, 1000003x33 41.6 against 56.1, 900001x35 39.0
/// against 51.9, 524287x47 29.6 against 36.4, 524287x63 38.0 against 44.5, 262147x17 (9 MB) 10.8
/// against 12.0; bf16 alike. Call 1: 1048573x30 35.5 against 36.9, and 262144x62 lost (22.4 against
/// grain_rows' 20.1). Not measured: even widths that are multiples of 4 (20, 28: grain_rows' 8-byte
/// grains), left to grain_rows, and tensors under 9 MB.
constexpr std::int64_t kThreadRowsAutoMinCols = 17;
constexpr std::int64_t kThreadRowsAutoMaxCols = kThreadRowsMaxCols;
constexpr std::int64_t kThreadRowsAutoMaxEvenCols = 32;
constexpr bool auto_takes_thread_rows(std::int64_t cols, std::size_t element_size, int cc_major, SoftmaxLayout layout) {
  if (element_size != 2 || cc_major < 9 || !layout.aligned || layout.vector_rows) return false;
  if (cols < kThreadRowsAutoMinCols || cols > kThreadRowsAutoMaxCols) return false;
  return cols % 2 == 1 || (cols <= kThreadRowsAutoMaxEvenCols && cols % 4 != 0);
}

/// Cluster slices past this take one block per SM, and clusters of 8 such blocks do not all fit
/// at once (H100, fp32 17x262147: cluster_row 27.1 against grid_row's 19.4 µs, 128 KiB slices);
/// `auto` takes grid_row for them.
constexpr std::int64_t kClusterAutoSliceMost = 64 * 1024;

/// The heuristic, in order:
/// 0. rows auto_takes_vector_rows: vector_rows (a lane owns R whole rows as V whole 16-byte
///    vectors, a warp's tile through its slice of shared memory); rows auto_takes_body_rows:
///    body_rows (a lane group per row, its aligned body by 16-byte vectors, head and tail by
///    elements); 16-bit rows auto_takes_thread_rows: thread_rows (tiles of whole rows streamed
///    through a shared-memory ring by bulk copies, a thread per row); rows auto_takes_grain_rows
///    (whole-vector rows up to kGrainRowsMaxCols, and odd ones): grain_rows (a lane group per row,
///    loads of the widest grain that divides the row, straight from global memory, no shared
///    memory);
/// 1. up to kShortAlwaysMaxCols columns, or up to kShortMaxCols in 16-bit rows of whole vectors
///    (those from kBodyRowsAutoWholeMinCols took body_rows in step 0; fp32 ones up to
///    kShortFp32VectorMaxCols) or with fewer than 2 rows per SM: short rows (a lane group per row, the row in registers;
///    16-byte loads straight from global memory where rows are whole vectors, a staged tile
///    otherwise); fp32 rows past kRegisterRowOddFp32MinCols that are not whole vectors in aligned
///    tensors: register_row; other rows up to kShortMaxCols that are not whole vectors: packed rows;
/// 2. rows that register_row holds, with at least 2 rows per SM: register_row (one read, one
///    write, the row in registers; measured at 85-94 % of peak on the H100); rows that are not
///    whole vectors up to kRegisterRowOddMaxVectors in aligned tensors too;
/// 3. x and y out of phase (the other kernels store 16-byte vectors over the aligned body of
///    x's rows): online;
/// 4. rows that a cluster holds in shared memory, in slices of at most kClusterAutoSliceMost, with
///    at least one block per SM, compute capability 9.0+: cluster (one read, one write; vocabulary rows measured at 84-90 % of the
///    roof, 32x131072 at 17.7 µs against grid's 18.8);
/// 5. fewer rows, or rows too long for a cluster, on compute capability 9.0+: grid (every row
///    over many blocks of one cooperative grid, the tensor streamed through shared memory in
///    batches of rows: one read, one write);
/// 6. otherwise (no Hopper): split (two kernels, the second re-reading x, from L2 when the
///    tensor fits there).
constexpr SoftmaxKernel auto_softmax_kernel(std::int64_t rows, std::int64_t cols, std::size_t element_size,
                                            int sm_count, int cc_major, SoftmaxLayout layout) {
  const std::int64_t vectors = cols / static_cast<std::int64_t>(16 / element_size);
  const std::int64_t sms = sm_count;
  if (auto_takes_vector_rows(cols, element_size, layout)) return SoftmaxKernel::vector_rows;
  if (auto_takes_body_rows(cols, element_size, layout)) return SoftmaxKernel::body_rows;
  if (auto_takes_thread_rows(cols, element_size, cc_major, layout)) return SoftmaxKernel::thread_rows;
  if (auto_takes_grain_rows(cols, element_size, layout)) return SoftmaxKernel::grain_rows;
  if (cols <= kShortMaxCols) {
    const bool short_vector_rows = layout.vector_rows && (element_size == 2 || cols <= kShortFp32VectorMaxCols);
    if (cols <= kShortAlwaysMaxCols || rows < 2 * sms || short_vector_rows) {
      return SoftmaxKernel::short_rows;
    }
    if (element_size == 4 && layout.aligned && !layout.vector_rows && cols > kRegisterRowOddFp32MinCols) {
      return SoftmaxKernel::register_row;
    }
    if (!layout.vector_rows) return SoftmaxKernel::packed;
  }
  if (layout.vector_rows && vectors <= auto_register_row_max_vectors(element_size) && rows >= 2 * sms) {
    return SoftmaxKernel::register_row;
  }
  if (layout.aligned && vectors <= kRegisterRowOddMaxVectors && rows >= 2 * sms) return SoftmaxKernel::register_row;
  if (!layout.same_phase) return SoftmaxKernel::online;
  if (cc_major < 9) return SoftmaxKernel::split;
  if (const int blocks = cluster_row_blocks(rows, cols, element_size, sm_count);
      blocks > 0 && rows * blocks >= sms && cluster_slice_vectors(cols, element_size, blocks) * 16 <= kClusterAutoSliceMost) {
    return SoftmaxKernel::cluster;
  }
  if (grid_row_shape(rows, cols, element_size, kGridBlocksPerSm * sms).blocks_per_row > 0) return SoftmaxKernel::grid;
  return SoftmaxKernel::split;
}

constexpr const char* kernel_name(SoftmaxKernel k) {
  switch (k) {
    case SoftmaxKernel::packed: return "packed_rows";
    case SoftmaxKernel::short_rows: return "short_rows";
    case SoftmaxKernel::grain_rows: return "grain_rows";
    case SoftmaxKernel::vector_rows: return "vector_rows";
    case SoftmaxKernel::body_rows: return "body_rows";
    case SoftmaxKernel::thread_rows: return "thread_rows";
    case SoftmaxKernel::grid: return "grid_row";
    case SoftmaxKernel::register_row: return "register_row";
    case SoftmaxKernel::cluster: return "cluster_row";
    case SoftmaxKernel::split: return "split_row";
    case SoftmaxKernel::online: return "online";
  }
  return "?";
}

}  // namespace kbench::softmax
