#pragma once
/// Launch shapes of the softmax kernels for long rows, and the `auto` heuristic: which kernel a
/// framework would ship for a problem, from its extents, dtype, pointers' alignment and device
/// alone (no timing at run time). Host-only and pure, so host tests check them;
/// kernels/softmax/NOTES.md ("auto") gives the reasoning and the predictions.

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

/// The split-row kernels: each block takes kSplitChunkVectors 16-byte vectors of a row's body.
constexpr std::int64_t kSplitChunkVectors = 256 * 4;

/// Blocks per row of the split-row kernels.
constexpr std::int64_t split_row_chunks(std::int64_t cols, std::size_t element_size) {
  const std::int64_t vectors = cols / static_cast<std::int64_t>(16 / element_size);
  const std::int64_t chunks = (vectors + kSplitChunkVectors - 1) / kSplitChunkVectors;
  return chunks > 0 ? chunks : 1;
}

enum class SoftmaxKernel { packed, register_row, cluster, split, online };

/// What the pointers allow: `vector_rows` when x and y are 16-byte aligned and cols is a whole
/// number of 16-byte vectors (every row starts aligned); `same_phase` when x and y sit at the same
/// offset from a 16-byte boundary (a row's aligned body is then aligned in both).
struct SoftmaxLayout {
  bool vector_rows = false;
  bool same_phase = false;
};

/// Longest rows, in 16-byte vectors, that register_row holds (softmax_kernels.hpp).
constexpr std::int64_t auto_register_row_max_vectors(std::size_t element_size) {
  return element_size == 4 ? 8 * 1024 : 4 * 1024;
}

/// The heuristic, in order:
/// 1. up to 128 columns, or up to kPackedMaxCols when rows are not whole vectors: packed rows
///    (several rows per warp, 16-byte tile loads whatever the alignment);
/// 2. rows that register_row holds, with at least 2 rows per SM: register_row (one read, one
///    write, the row in registers; measured at 85-94 % of peak on the H100);
/// 3. x and y out of phase (the other kernels store 16-byte vectors over the aligned body of
///    x's rows): online;
/// 4. rows that a cluster holds in shared memory, with at least one block per SM, on compute
///    capability 9.0+: cluster (one read, one write);
/// 5. otherwise (rows too long for 8 slices, too few rows to fill the GPU, or no clusters):
///    split (two kernels, the second re-reading x, from L2 when the tensor fits there).
constexpr SoftmaxKernel auto_softmax_kernel(std::int64_t rows, std::int64_t cols, std::size_t element_size,
                                            int sm_count, int cc_major, SoftmaxLayout layout) {
  if (cols <= 128 || (cols <= kPackedMaxCols && !layout.vector_rows)) return SoftmaxKernel::packed;
  const std::int64_t vectors = cols / static_cast<std::int64_t>(16 / element_size);
  const std::int64_t sms = sm_count;
  if (layout.vector_rows && vectors <= auto_register_row_max_vectors(element_size) && rows >= 2 * sms) {
    return SoftmaxKernel::register_row;
  }
  if (!layout.same_phase) return SoftmaxKernel::online;
  const int blocks = cluster_row_blocks(rows, cols, element_size, sm_count);
  if (cc_major >= 9 && blocks > 0 && rows * blocks >= sms) return SoftmaxKernel::cluster;
  return SoftmaxKernel::split;
}

constexpr const char* kernel_name(SoftmaxKernel k) {
  switch (k) {
    case SoftmaxKernel::packed: return "packed_rows";
    case SoftmaxKernel::register_row: return "register_row";
    case SoftmaxKernel::cluster: return "cluster_row";
    case SoftmaxKernel::split: return "split_row";
    case SoftmaxKernel::online: return "online";
  }
  return "?";
}

}  // namespace kbench::softmax
