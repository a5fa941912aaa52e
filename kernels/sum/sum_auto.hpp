#pragma once
/// The `auto` heuristics of the reduction ops: which kernel a framework would ship for a problem,
/// chosen from its extents, dtype and device alone (no timing at run time). Host-only and pure, so
/// host tests check them; kernels/sum/NOTES.md ("auto") gives the reasoning and the predictions.

#include "kernels/sum/sum_kernels.hpp"

#include <cstddef>
#include <cstdint>

namespace kbench::sum {

/// sum_inner's and max_inner's kernels.
enum class RowKernel { vector_rows, thread_per_row, span, flat, split, row_parallel };

/// Fewer rows than this many per SM, each at least two split blocks (32 KiB) long: the split-row
/// kernel. One block per row then gives each SM at most 3 blocks (768 threads with 4 loads in
/// flight: under the ~25 KB an SM needs in flight to stream its share of the bandwidth), and
/// fewer rows than SMs leave SMs idle.
constexpr std::int64_t kAutoSplitRowsPerSm = 4;
constexpr std::int64_t kAutoSplitMinRowBytes = 32 * 1024;

/// Rows between the thread per row and span_rows' narrowest (fp32 13-47 columns): the flat-rows
/// kernel, which takes rows up to kFlatRowsMaxCols (1024) of any width and alignment. Its blocks
/// load 16 KiB tiles of the flat array as coalesced 16-byte vectors (the layout that
/// read at 91 / 88 % of peak in fp32 / fp16 in sum_layout_probe), 16 KiB in flight per block,
/// whatever the row width: the thread-per-row kernel's 2-4-byte strided loads fell to 42 % of the
/// copy roof at 61 fp16 columns (84-87 % at 8-17), packed_rows' shuffles per row made it compute-bound, and a warp
/// per row has 1-2 vectors per lane below 256 columns.
///
/// Rows of at most kThreadPerRowMaxBytes bytes: a thread per row (`naive`). Its 32 rows per warp are
/// one contiguous stretch that L1 serves across the row's steps, and it has no staging: on the
/// H100 (2026-11-24) it beat flat_rows at 3-8 columns in both sizes (fp16 8388608x5 39.6 against
/// 66.4 µs, fp32 4194304x8 51.7 against 54.0) and at 17 16-bit columns (28.4 against 32.4), and
/// lost from 17 fp32 / 33 16-bit columns on (55.1 against 62.1; 30.0 against 41.3).
constexpr std::int64_t kThreadPerRowMaxBytes = 48;

/// `ring_rows` is not taken: on the H100 (2026-11-24, session 10) it lost to flat_rows on every odd
/// width past 48 bytes measured (max fp16/bf16 262144x61 18.0 against 17.1 µs, 65536x100 12.8
/// against 11.3, 262144x127 31.8 against 28.8); the variant stays for comparison.
///
/// Rows past kThreadPerRowMaxBytes (16-bit) or of kSpanRowsMinColsFp32 fp32 columns, up to
/// kSpanRowsMaxBytes: `span_rows` (a warp per span of whole rows, no block barrier, about half
/// flat_rows' instructions per 16-byte vector; NOTES.md "span_rows"). On the H100 (2026-11-24, session 10,
/// cold µs) it beat flat_rows on 16-bit 262144x61 (15.3-16.1 against 17.2-17.5), 262144x127
/// (26.5-27.2 against 28.9-29.6) and 131071x1000 (92.3-94.0 against 98.9-102.6), and on fp32 rows
/// of 61-127 columns by 2-6 %; it lost 1.5-7 % on 16-bit 64x4096x100 and 2 % on fp32 131071x1000.
///
/// Rows past kSpanRowsMaxBytes (1 KiB) run `row_parallel` (a warp per row up to warp_row_max_cols,
/// then a block): on the H100 (session 16, cold µs) it beat span_rows and flat_rows on every row of
/// 295-1023 fp32 columns (45985x295 21.5 against flat_rows' 25.9 and span_rows' 23.7; 20000x513
/// 17.8 against 21.2; 16000x777 20.5 against 24.7; 12000x1023 20.6 against 23.5; 65536x300 29.3
/// against 34.6) and on bf16 max rows of 600 and 959 columns (15.9 against span_rows' 18.3; 19.4
/// against 20.4), while span_rows kept bf16 333 columns (15.1 against 15.3).
constexpr std::int64_t kSpanRowsMinColsFp32 = 48;  ///< measured from 61; flat_rows' 17-33 columns untried
constexpr std::int64_t kSpanRowsMaxBytes = 1024;
///
/// Rows of at most kAutoVectorRowsMaxBytes: `vector_rows` (a lane owns R whole rows as V 16-byte
/// vectors, each warp's tile staged through its own shared memory with coalesced loads, R results
/// per store; NOTES.md "vector_rows"). Its launcher runs the thread per row on tensors that are
/// not 16-byte aligned, so no alignment is asked here. On the H100 (session 13, cold µs, sum and
/// max alike) it beat the thread per row at 2 and 3 columns in every dtype (bf16 6000011x2 14.0
/// against 22.4; fp16 4194301x3 13.8 against 18.3; fp32 4194301x3 22.3 against 24.0), was level at
/// 7 (14.1 against 14.4; fp32 23.8 against 24.0) and lost at 16-bit 13 (13.9 against 13.2).
constexpr std::int64_t kAutoVectorRowsMaxBytes = 16;
constexpr RowKernel auto_row_kernel(std::int64_t rows, std::int64_t cols, std::size_t element_size, int sm_count) {
  if (rows_vector_fits(cols, element_size) && cols * static_cast<std::int64_t>(element_size) <= kAutoVectorRowsMaxBytes) {
    return RowKernel::vector_rows;
  }
  if (cols * static_cast<std::int64_t>(element_size) <= kThreadPerRowMaxBytes) return RowKernel::thread_per_row;
  const std::int64_t span_min_cols = element_size == 2 ? span_run_elements(element_size) : kSpanRowsMinColsFp32;
  const std::int64_t row_bytes = cols * static_cast<std::int64_t>(element_size);
  if (cols < span_min_cols) return RowKernel::flat;
  if (row_bytes <= kSpanRowsMaxBytes) return RowKernel::span;
  if (rows < kAutoSplitRowsPerSm * sm_count && row_bytes >= kAutoSplitMinRowBytes) return RowKernel::split;
  return RowKernel::row_parallel;
}

/// sum_outer's kernels.
enum class ColumnKernel { walk, flat, two_stage, one_pass };

/// Bytes in flight per SM at which the column walk (a thread per column or 16-byte column group,
/// no row split) streams: about what Little's law asks of one SM (3.35 TB/s x ~1 us / 132 SMs is
/// about 25 KB). With fewer columns its threads cannot keep that much in flight and the row-split
/// kernels (flat_columns, one_pass) must make up the parallelism from the rows, at the price of
/// partials and a hand-off; with as many, the walk needs neither (the zoo's fp32 64 x 262147: a
/// thread per column 26.5 us against one_pass's 52.4 and cuBLAS's 30.8).
constexpr std::int64_t kAutoWalkBytesPerSm = 24 * 1024;

/// Up to kFlatColumnsMaxCols (1024) columns, of any width and alignment: the flat-columns kernel,
/// which streams the tensor as 16-byte vectors whatever the width, keeps each thread's column
/// sums in registers and needs one launch. What it replaces (H100 zoo, 2026-11-24, cold):
/// narrow_columns (up to 64 columns, and odd widths up to 1024 through two_stage past 128) stages
/// tiles in shared memory and adds a second launch (bf16 1048573 x 7 at 67 % of the copy roof,
/// fp16 65536 x 64 at 78 %), and two_stage/one_pass load one 2- or 4-byte column per thread on
/// rows that are not whole vectors (fp16 16 x 16384 x 257 at 69 %; 65537 x 129 at 0.78-0.84x
/// cuBLAS). Measured (session 10, NOTES.md "Outcome of flat_columns"): 79-90 % of the copy roof,
/// ahead of cuBLAS's gemv on every case. Wider tensors: one_pass (the 8192^2 targets keep their
/// kernel), or two_stage for rows that are not whole vectors (below).
///
/// Past kFlatColumnsMaxCols, rows that are not whole 16-byte vectors: two_stage, which reads them
/// as aligned 16-byte vectors in aligned tensors (phase strips: a thread's rows lie 8 apart, so
/// they share one phase) and adds the chunks with 8 lanes a column. H100, session 15, cold µs
/// (NOTES.md, "phase strips"): fp16 4096x4097 19.7-20.0 (cuBLAS 18.8), 2049x8191 20.2-20.6
/// (19.1-19.3), 8191x1025 15.2-15.5 (bf16 16.8), 4099x5001 22.8-23.0 (27.4), 3x5000x3001 39.5
/// (61.8); fp32 within 0.95x of cuBLAS; one_pass (one 2-4-byte column a thread) 3-8 µs slower in
/// 16-bit. Shifted loads and the phase strips in one kernel measured slower (NOTES.md).
constexpr ColumnKernel auto_column_kernel(std::int64_t cols, std::size_t element_size, int sm_count) {
  if (column_walk_bytes_in_flight(cols, element_size) >= kAutoWalkBytesPerSm * sm_count) return ColumnKernel::walk;
  if (cols <= kFlatColumnsMaxCols) return ColumnKernel::flat;
  if (cols % static_cast<std::int64_t>(16 / element_size) != 0) return ColumnKernel::two_stage;
  return ColumnKernel::one_pass;
}

/// A name for reports and tests.
constexpr const char* kernel_name(RowKernel k) {
  return k == RowKernel::vector_rows      ? "vector_rows"
         : k == RowKernel::thread_per_row ? "naive"
         : k == RowKernel::span         ? "span_rows"
         : k == RowKernel::flat         ? "flat_rows"
         : k == RowKernel::split        ? "split_row"
                                        : "row_parallel";
}
constexpr const char* kernel_name(ColumnKernel k) {
  return k == ColumnKernel::walk        ? "column_walk"
         : k == ColumnKernel::flat      ? "flat_columns"
         : k == ColumnKernel::two_stage ? "two_stage"
                                        : "one_pass";
}

}  // namespace kbench::sum
