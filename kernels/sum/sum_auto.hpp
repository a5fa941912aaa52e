#pragma once
/// The `auto` heuristics of the reduction ops: which kernel a framework would ship for a problem,
/// chosen from its extents, dtype and device alone (no timing at run time). Host-only and pure, so
/// host tests check them; kernels/sum/NOTES.md ("auto") gives the reasoning and the predictions.

#include "kernels/sum/sum_kernels.hpp"

#include <cstddef>
#include <cstdint>

namespace kbench::sum {

/// sum_inner's and max_inner's kernels.
enum class RowKernel { thread_per_row, packed, split, row_parallel };

/// Rows up to this many elements: a thread per row (the `naive` kernel). On the H100's shape zoo it
/// ran 3-17-column rows in half packed_rows' time and 61 columns 7 % faster: a warp's 32 rows are
/// one contiguous stretch that L1 serves across the row's steps.
constexpr std::int64_t kAutoThreadPerRowMaxCols = 64;
/// Rows up to this many elements (and above the thread-per-row limit): the packed-rows kernel (a
/// warp per row would leave lanes idle; measured at 100 columns: 61.2 µs against row_parallel's 69.7).
constexpr std::int64_t kAutoPackedMaxCols = 128;
/// Fewer rows than this many per SM, each at least two split blocks (32 KiB) long: the split-row
/// kernel. One block per row then gives each SM at most 3 blocks (768 threads with 4 loads in
/// flight: under the ~25 KB an SM needs in flight to stream its share of the bandwidth), and
/// fewer rows than SMs leave SMs idle.
constexpr std::int64_t kAutoSplitRowsPerSm = 4;
constexpr std::int64_t kAutoSplitMinRowBytes = 32 * 1024;

constexpr RowKernel auto_row_kernel(std::int64_t rows, std::int64_t cols, std::size_t element_size, int sm_count) {
  if (cols <= kAutoThreadPerRowMaxCols) return RowKernel::thread_per_row;
  if (cols <= kAutoPackedMaxCols) return RowKernel::packed;
  const std::int64_t row_bytes = cols * static_cast<std::int64_t>(element_size);
  if (rows < kAutoSplitRowsPerSm * sm_count && row_bytes >= kAutoSplitMinRowBytes) return RowKernel::split;
  return RowKernel::row_parallel;
}

/// sum_outer's kernels.
enum class ColumnKernel { narrow, one_pass };

/// Columns up to this many: the narrow-column kernel. two_stage's and one_pass's blocks are 32
/// column lanes of a 16-byte strip (128 fp32 or 256 16-bit columns), so below a strip most of
/// their threads have no column; above 64 columns their strips are at least half full.
constexpr std::int64_t kAutoNarrowMaxCols = 64;

/// `vector_rows`: every row starts 16-byte aligned (aligned tensor, cols a multiple of the
/// vector width). Rows that are not whole vectors put one_pass on 4- or 2-byte loads, so they
/// take the narrow kernel (16-byte loads of the flat array) up to its limit (kNarrowColumnsMaxCols).
constexpr ColumnKernel auto_column_kernel(std::int64_t cols, bool vector_rows) {
  if (cols <= kAutoNarrowMaxCols) return ColumnKernel::narrow;
  if (!vector_rows && cols <= kNarrowColumnsMaxCols) return ColumnKernel::narrow;
  return ColumnKernel::one_pass;
}

/// A name for reports and tests.
constexpr const char* kernel_name(RowKernel k) {
  return k == RowKernel::thread_per_row ? "naive"
         : k == RowKernel::packed     ? "packed_rows"
         : k == RowKernel::split      ? "split_row"
                                      : "row_parallel";
}
constexpr const char* kernel_name(ColumnKernel k) { return k == ColumnKernel::narrow ? "narrow_columns" : "one_pass"; }

}  // namespace kbench::sum
