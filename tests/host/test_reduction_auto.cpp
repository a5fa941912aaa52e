// The `auto` heuristics of the reduction and softmax ops (kernels/sum/sum_auto.hpp,
// kernels/softmax/softmax_auto.hpp) and the tile shapes they rest on: each shape class of issue 22
// goes to the kernel written for it, on the H100's 132 SMs; and every op lists an own variant
// named "auto". No GPU needed.
#include "harness/ops/registry.hpp"
#include "kernels/common/flat_tile.hpp"
#include "kernels/softmax/softmax_auto.hpp"
#include "kernels/sum/sum_auto.hpp"
#include "support/catch.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

using namespace kbench;

namespace {

constexpr int kH100Sms = 132;

sum::RowKernel rows_pick(std::int64_t rows, std::int64_t cols, std::size_t size) {
  return sum::auto_row_kernel(rows, cols, size, kH100Sms);
}

softmax::SoftmaxKernel softmax_pick(std::int64_t rows, std::int64_t cols, std::size_t size, bool aligned = true,
                                    int cc_major = 9) {
  softmax::SoftmaxLayout layout;
  layout.vector_rows = aligned && cols % static_cast<std::int64_t>(16 / size) == 0;
  layout.same_phase = aligned;
  layout.aligned = aligned;
  return softmax::auto_softmax_kernel(rows, cols, size, kH100Sms, cc_major, layout);
}

}  // namespace

TEST_CASE("tiles of whole rows stay near 16 KiB and start 16-byte aligned", "[auto][tiles]") {
  for (std::int64_t cols : {1, 3, 7, 8, 33, 64, 100, 1000, 1024}) {
    for (std::size_t size : {2u, 4u}) {
      INFO("cols " << cols << ", " << size << "-byte elements");
      const std::int64_t rows = tile_rows(cols, size);
      CHECK(rows % kTileRowMultiple == 0);
      CHECK((rows * cols * static_cast<std::int64_t>(size)) % 16 == 0);  // the next tile starts aligned
      CHECK(tile_bytes(rows, cols, size) <= std::max<std::int64_t>(kTileTargetBytes, 8 * cols * size + 15));
    }
  }
  CHECK(tile_rows(8, 4) == 512);
  CHECK(tile_count(1000, 512) == 2);
  CHECK(lanes_per_row(1) == 1);
  CHECK(lanes_per_row(7) == 8);
  CHECK(lanes_per_row(33) == 32);
  CHECK(lanes_per_row(5000) == 32);
}

TEST_CASE("auto row reductions: vector_rows up to 16 bytes, a thread per row up to 48 bytes, flat_rows for fp32 13-47 columns, span_rows up to 1 KiB rows, then row_parallel, split for few long rows", "[auto][sum]") {
  using sum::RowKernel;
  // Short and medium rows of every width, odd and prime included, whole vectors or not.
  for (std::int64_t cols : {1, 3, 5, 8, 17, 24, 25, 47, 48, 61, 64, 100, 127, 129, 256, 257, 295, 512, 513, 1000, 1024}) {
    for (std::size_t size : {2u, 4u}) {
      INFO(cols << " columns, " << size << "-byte elements");
      const std::int64_t bytes = cols * static_cast<std::int64_t>(size);
      const RowKernel expected = bytes <= 16                  ? RowKernel::vector_rows
                                 : bytes <= 48                ? RowKernel::thread_per_row
                                 : size == 4 && cols < 48     ? RowKernel::flat
                                 : bytes <= 1024              ? RowKernel::span
                                                              : RowKernel::row_parallel;
      CHECK(rows_pick(1048576, cols, size) == expected);
      CHECK(rows_pick(3, cols, size) == expected);  // few short rows: still one tile
    }
  }
  CHECK(rows_pick(64 * 4096, 100, 4) == RowKernel::span);  // the zoo's 64 x 4096 x 100: 39.6-40.1 against 40.6 µs
  CHECK(rows_pick(262144, 1025, 2) == RowKernel::row_parallel);
  CHECK(rows_pick(16, 4194304, 4) == RowKernel::split);
  CHECK(rows_pick(64, 1048576, 2) == RowKernel::split);
  CHECK(rows_pick(3, 1000003, 2) == RowKernel::split);
  CHECK(rows_pick(1, 70001, 4) == RowKernel::split);
  CHECK(rows_pick(8192, 8192, 4) == RowKernel::row_parallel);  // the targets' square: 90 % measured
  CHECK(rows_pick(528, 8192, 4) == RowKernel::row_parallel);   // 4 rows per SM: one block each is enough
  CHECK(rows_pick(527, 8192, 4) == RowKernel::split);
  CHECK(rows_pick(100, 4000, 2) == RowKernel::row_parallel);  // rows of 8 KB: too short to split
  CHECK(sum::rows_split_tiles(4194304, 4) == 1024);           // one tile per 16 KiB
  CHECK(sum::rows_split_tiles(7, 2) == 1);
  // Tiles per block: the tensor's tiles over 8 resident blocks an SM, between 1 and 4.
  const auto split_shape = [](std::int64_t rows, std::int64_t cols, std::size_t size, int sms) {
    const sum::RowsSplitShape s = sum::rows_split_shape(rows, cols, size, sms);
    return std::pair{s.splits, s.tiles_per_block};
  };
  CHECK(split_shape(53, 2417797, 4, 132) == std::pair<std::int64_t, std::int64_t>{148, 4});  // 591 tiles a row
  CHECK(split_shape(1, 53282447, 4, 132) == std::pair<std::int64_t, std::int64_t>{3253, 4});
  CHECK(split_shape(32, 1048573, 2, 132) == std::pair<std::int64_t, std::int64_t>{43, 3});    // 4096 tiles
  CHECK(split_shape(32, 1048573, 2, 16) == std::pair<std::int64_t, std::int64_t>{32, 4});
  CHECK(split_shape(3, 1000003, 2, 132) == std::pair<std::int64_t, std::int64_t>{123, 1});    // one tile a block
  // The GPU test's multi-tile shapes (test_sum_gpu.cpp).
  CHECK(split_shape(9, 1000003, 4, 132) == std::pair<std::int64_t, std::int64_t>{123, 2});
  CHECK(split_shape(9, 1000003, 2, 132) == std::pair<std::int64_t, std::int64_t>{123, 1});
  CHECK(split_shape(37, 1000003, 4, 132) == std::pair<std::int64_t, std::int64_t>{62, 4});
  CHECK(split_shape(37, 1000003, 2, 132) == std::pair<std::int64_t, std::int64_t>{31, 4});
  CHECK(split_shape(1, 7, 2, 132) == std::pair<std::int64_t, std::int64_t>{1, 1});
  CHECK_THROWS_AS(sum::rows_split_shape(1, 7, 2, 0), std::invalid_argument);
  CHECK(std::string(sum::kernel_name(RowKernel::split)) == "split_row");
  CHECK(std::string(sum::kernel_name(RowKernel::flat)) == "flat_rows");
  CHECK(std::string(sum::kernel_name(RowKernel::thread_per_row)) == "naive");
  CHECK(rows_pick(8388608, 5, 2) == RowKernel::vector_rows);  // naive 39.6 us against flat_rows' 66.4 (H100)
  CHECK(rows_pick(6000011, 2, 2) == RowKernel::vector_rows);  // naive 72 % of the copy roof
  CHECK(rows_pick(1048573, 13, 2) == RowKernel::thread_per_row);  // 13.2 µs against vector_rows' 13.9
  CHECK(rows_pick(2097152, 7, 2) == RowKernel::vector_rows);      // 14.1 against 14.4
  CHECK(rows_pick(1048576, 8, 2) == RowKernel::vector_rows);      // 16 bytes: one vector a row
  CHECK(rows_pick(1048573, 9, 2) == RowKernel::thread_per_row);
  CHECK(rows_pick(4194301, 3, 4) == RowKernel::vector_rows);      // 22.3 against 24.0
  CHECK(rows_pick(4194301, 7, 4) == RowKernel::thread_per_row);   // 28 bytes: level (23.8 against 24.0)
  CHECK(rows_pick(4194304, 8, 4) == RowKernel::thread_per_row);
  CHECK(rows_pick(1, 1, 4) == RowKernel::vector_rows);  // fewer rows than one group: the kernel's tail alone
  CHECK(std::string(sum::kernel_name(RowKernel::vector_rows)) == "vector_rows");
  CHECK(rows_pick(2097143, 17, 4) == RowKernel::flat);  // flat_rows 55.1 against naive's 62.1 µs
  CHECK(rows_pick(262144, 61, 2) == RowKernel::span);   // flat_rows 17.1 µs, 72 % of the copy roof
  CHECK(rows_pick(262144, 61, 4) == RowKernel::span);
  CHECK(rows_pick(262144, 1025, 2) == RowKernel::row_parallel);
  CHECK(rows_pick(17 * 2705, 295, 4) == RowKernel::row_parallel);  // 21.5 µs against flat_rows' 25.9 (session 16)
  CHECK(rows_pick(20143, 959, 2) == RowKernel::row_parallel);      // bf16 max 19.4 against span_rows' 20.4
  CHECK(rows_pick(40000, 333, 2) == RowKernel::span);              // bf16 max 15.1 against row_parallel's 15.3
  CHECK(std::string(sum::kernel_name(RowKernel::span)) == "span_rows");
}

TEST_CASE("span_rows: warp spans of whole rows that start aligned, hold one row end per run, fill their last iteration",
          "[auto][sum][span_rows]") {
  CHECK(sum::span_run_elements(2) == 16);
  CHECK(sum::span_run_elements(4) == 8);
  for (std::int64_t cols = 1; cols <= sum::kFlatRowsMaxCols; ++cols) {
    for (std::size_t size : {2u, 4u}) {
      INFO(cols << " columns, " << size << "-byte elements");
      const std::int64_t rows = sum::span_rows_per_warp(cols, size);
      const std::int64_t bytes = rows * cols * static_cast<std::int64_t>(size);
      CHECK(rows % kTileRowMultiple == 0);  // the next warp's span starts 16-byte aligned
      CHECK(bytes % 16 == 0);
      CHECK((rows == kTileRowMultiple || bytes <= sum::kSpanTargetBytes));
      // No other multiple of 8 rows within the target fills the last iteration's 128 vectors better.
      const std::int64_t vectors = bytes / 16;
      const std::int64_t slots = (vectors + 127) / 128 * 128;
      for (std::int64_t other = 8; other * cols * static_cast<std::int64_t>(size) <= sum::kSpanTargetBytes; other += 8) {
        const std::int64_t v = other * cols * static_cast<std::int64_t>(size) / 16;
        CHECK(v * slots <= vectors * ((v + 127) / 128 * 128));
      }
    }
  }
  CHECK(sum::span_rows_per_warp(61, 2) == 16);    // 122 vectors of 128: one iteration
  CHECK(sum::span_rows_per_warp(100, 2) == 40);   // 500 of 512 (8 rows would be 100 of 128)
  CHECK(sum::span_rows_per_warp(127, 2) == 8);    // 127 of 128
  CHECK(sum::span_rows_per_warp(1000, 2) == 8);   // 16 KB, past the target: the 8-row minimum
  CHECK(sum::span_rows_per_warp(1024, 4) == 8);
}

TEST_CASE("flat_rows: pieces fit in shared memory and every tile row gets its join lanes", "[auto][sum][tiles]") {
  for (std::int64_t cols = 1; cols <= sum::kFlatRowsMaxCols; ++cols) {
    for (std::size_t size : {2u, 4u}) {
      INFO(cols << " columns, " << size << "-byte elements");
      const std::int64_t rows = tile_rows(cols, size);
      const std::int64_t vectors = (rows * cols * static_cast<std::int64_t>(size) + 15) / 16;
      CHECK(sum::flat_rows_piece_bytes(cols, size) == vectors * 8);
      CHECK(sum::flat_rows_piece_bytes(cols, size) <= 16 * 1024);  // 8 blocks of 256 threads fit an SM's 228 KiB
      const int lanes = sum::flat_rows_join_lanes(rows);
      CHECK((lanes & (lanes - 1)) == 0);
      CHECK(lanes <= 32);
      if (lanes > 1) CHECK(rows * lanes <= 256);       // one round of the block's threads
      if (lanes < 32) CHECK(rows * lanes * 2 > 256);  // and no more lanes would still fit
    }
  }
  CHECK(sum::flat_rows_join_lanes(1024) == 1);  // 8 bf16 columns: a thread per row, 4 rounds
  CHECK(sum::flat_rows_join_lanes(128) == 2);   // 61 fp16 columns
  CHECK(sum::flat_rows_join_lanes(8) == 32);    // 1024 columns: a warp per row
}

TEST_CASE("auto column sums: column_walk for many columns, flat_columns up to 1024 of any width, two_stage or one_pass beyond", "[auto][sum]") {
  using sum::ColumnKernel;
  auto pick = [](std::int64_t cols, std::size_t size) { return sum::auto_column_kernel(cols, size, kH100Sms); };
  CHECK(pick(262147, 4) == ColumnKernel::walk);  // the zoo's 64 x 262147: a thread per column
  CHECK(pick(1000003, 2) == ColumnKernel::walk);
  CHECK(pick(262144, 2) == ColumnKernel::walk);
  CHECK(pick(101376, 4) == ColumnKernel::walk);  // 101376 x 8 rows x 4 B = 24 KiB x 132 SMs
  CHECK(pick(101372, 4) == ColumnKernel::one_pass);
  CHECK(pick(101375, 4) == ColumnKernel::two_stage);  // rows that are not whole vectors
  CHECK(pick(202752, 2) == ColumnKernel::walk);
  CHECK(pick(202744, 2) == ColumnKernel::one_pass);
  CHECK(pick(202751, 2) == ColumnKernel::two_stage);
  // Every width up to 1024, odd, prime or whole vectors, in every element size.
  for (std::int64_t cols : {1, 2, 3, 4, 7, 16, 33, 61, 64, 100, 127, 129, 257, 511, 1000, 1021, 1024}) {
    for (std::size_t size : {2u, 4u}) {
      INFO(cols << " columns, " << size << "-byte elements");
      CHECK(pick(cols, size) == ColumnKernel::flat);
    }
  }
  CHECK(pick(1025, 2) == ColumnKernel::two_stage);  // session 14: fp16 8191x1025 19.0 against one_pass 23.1
  CHECK(pick(4097, 4) == ColumnKernel::two_stage);
  CHECK(pick(1032, 2) == ColumnKernel::one_pass);   // whole vectors
  CHECK(pick(8192, 4) == ColumnKernel::one_pass);  // the targets' square: 86.3 % measured
  CHECK(pick(8192, 2) == ColumnKernel::one_pass);
  CHECK(sum::auto_column_kernel(101376, 4, 2 * kH100Sms) == ColumnKernel::one_pass);  // more SMs need more
  CHECK(sum::narrow_column_tiles(8388608, 4, 4) == 8388608 / 1024);
  CHECK(std::string(sum::kernel_name(ColumnKernel::walk)) == "column_walk");
  CHECK(std::string(sum::kernel_name(ColumnKernel::flat)) == "flat_columns");
  CHECK(std::string(sum::kernel_name(ColumnKernel::one_pass)) == "one_pass");
  // column_tiles: 4 blocks per SM, never more than its tiles, two_stage's chunks past 1024 columns.
  CHECK(sum::column_tiles_chunks(262144, 257, kH100Sms, 2) == 521);  // 10923 tiles of 24 rows, 21 per chunk
  CHECK(sum::column_tiles_chunks(100, 257, kH100Sms, 2) == 5);  // 24-row tiles
  CHECK(sum::column_tiles_chunks(8192, 4096, kH100Sms, 4) == sum::column_chunks(8192, 4096, kH100Sms, 4));
}

TEST_CASE("flat_columns: windows of whole column periods, blocks of 256-1024 threads, folds that fit shared memory",
          "[auto][sum][flat_columns]") {
  for (std::int64_t cols = 1; cols <= sum::kFlatColumnsMaxCols; ++cols) {
    for (std::size_t size : {2u, 4u}) {
      INFO(cols << " columns, " << size << "-byte elements");
      const std::int64_t vector = static_cast<std::int64_t>(16 / size);
      const std::int64_t period = sum::flat_columns_period(cols, size);
      CHECK(period * vector % cols == 0);  // a period of vectors ends at a row's end
      const int threads = sum::flat_columns_threads(cols, size);
      CHECK(threads % period == 0);        // so every window of threads x vector elements is whole rows
      CHECK(threads >= 256);
      CHECK(threads <= 1024);
      if (period <= 512) CHECK(threads <= 512);
      CHECK(threads * vector % cols == 0);
      // The kernel's fold: lanes x cols partial sums, then slots x cols read back, in 2048 floats.
      const std::int64_t lanes = std::max<std::int64_t>(1, threads / cols);
      CHECK(lanes * cols <= 2048);
      const int slots = sum::flat_columns_slots(cols);
      CHECK(slots >= 1);
      CHECK(slots <= 32);
      CHECK(slots * cols <= 2048);
    }
  }
  CHECK(sum::flat_columns_period(7, 2) == 7);
  CHECK(sum::flat_columns_period(16, 4) == 4);
  CHECK(sum::flat_columns_period(1000, 2) == 125);
  CHECK(sum::flat_columns_period(1, 2) == 1);
  CHECK(sum::flat_columns_threads(1, 4) == 256);
  CHECK(sum::flat_columns_threads(7, 2) == 448);   // 14 full warps, not 259 threads in 9 warps
  CHECK(sum::flat_columns_threads(129, 2) == 387);  // 13 warps, 93 % busy; 258 would be 90 %
  CHECK(sum::flat_columns_threads(257, 2) == 257);
  CHECK(sum::flat_columns_threads(1000, 2) == 375);
  CHECK(sum::flat_columns_threads(1023, 4) == 1023);
  CHECK(sum::flat_columns_slots(1) == 32);
  CHECK(sum::flat_columns_slots(257) == 7);
  CHECK(sum::flat_columns_slots(1024) == 2);
}

TEST_CASE("auto softmax: one kernel per row class", "[auto][softmax]") {
  using softmax::SoftmaxKernel;
  // H100, cold µs (2026-11-24, session 10): the fastest of short_rows, warp_rows and ring_rows.
  // 16-bit rows that are not whole vectors (H100, session 11, cold µs): grain_rows, except the
  // large tensors of rows of 96 bytes and more, where ring_rows stays ahead.
  CHECK(softmax_pick(2097152, 7, 2) == SoftmaxKernel::vector_rows);  // grain 30.3; short 31.1; vector predicted 21.5-24
  CHECK(softmax_pick(2097152, 7, 2, false) == SoftmaxKernel::grain_rows);  // unaligned: grain_rows as measured
  // Odd 16-bit widths of 65-256 columns in aligned tensors: body_rows (session 13, fp16). 17-64
  // columns that are not whole vectors on Hopper: thread_rows (H200, session 30, cold µs, fp16),
  // but even widths past 32, where grain_rows' 4-byte grains won, and multiples of 4 (8-byte
  // grains; not measured).
  CHECK(softmax_pick(1000003, 33, 2) == SoftmaxKernel::thread_rows);  // 41.6; grain 56.1, ring 55.5
  CHECK(softmax_pick(262144, 61, 2) == SoftmaxKernel::thread_rows);   // 262147x61 (call 1): 23.1; grain 24.1
  CHECK(softmax_pick(2097143, 17, 2) == SoftmaxKernel::thread_rows);  // 2000003x17: 39.8; ring 53.1, grain 55.9
  CHECK(softmax_pick(524287, 47, 2) == SoftmaxKernel::thread_rows);   // 29.6; grain 36.4
  CHECK(softmax_pick(1048573, 30, 2) == SoftmaxKernel::thread_rows);  // call 1: 35.5; grain 36.9
  CHECK(softmax_pick(1048573, 28, 2) == SoftmaxKernel::grain_rows);   // 8-byte grains: left to grain_rows
  CHECK(softmax_pick(262147, 17, 2) == SoftmaxKernel::thread_rows);   // 9 MB: 10.8; grain 12.0
  CHECK(softmax_pick(262144, 62, 2) == SoftmaxKernel::grain_rows);    // call 1: 20.1; thread 22.4
  CHECK(softmax_pick(1000003, 33, 2, true, 8) == SoftmaxKernel::grain_rows);  // no bulk copies below Hopper
  CHECK(softmax_pick(1000003, 65, 2) == SoftmaxKernel::body_rows);     // past thread_rows' 64
  CHECK(softmax_pick(1000003, 16, 2) == SoftmaxKernel::grain_rows);    // whole vectors
  CHECK(softmax_pick(1000003, 17, 4) == SoftmaxKernel::grain_rows);    // fp32: not its class
  CHECK(softmax_pick(65537, 130, 2) == SoftmaxKernel::body_rows);    // 15.3; grain 19.3
  CHECK(softmax_pick(65536, 100, 2) == SoftmaxKernel::grain_rows);   // grain 14.1; body 15.0, warp 18.4
  CHECK(softmax_pick(262144, 127, 2) == SoftmaxKernel::body_rows);   // 50.2; ring 55.7, grain 60.9
  CHECK(softmax_pick(65537, 129, 2) == SoftmaxKernel::body_rows);    // 15.3; grain 22.6, warp 28.7
  CHECK(softmax_pick(131071, 255, 2) == SoftmaxKernel::body_rows);   // 49.3; ring 56.2, grain 68.2
  CHECK(softmax_pick(1000003, 33, 2, false) == SoftmaxKernel::grain_rows);  // unaligned: single elements
  CHECK(softmax_pick(1000003, 15, 2) == SoftmaxKernel::vector_rows);  // under 16 columns: no body
  // fp32: the fastest of short_rows, warp_rows and ring_rows.
  CHECK(softmax_pick(2097152, 7, 4) == SoftmaxKernel::vector_rows);  // short 45.1, ring 44.6, warp 52.0; predicted 40-43
  CHECK(softmax_pick(2097152, 7, 4, false) == SoftmaxKernel::short_rows);  // unaligned: staged tiles as measured
  CHECK(softmax_pick(1000003, 33, 4) == SoftmaxKernel::grain_rows);  // 99.3; ring 105.8, warp 120.2, short 122.7
  CHECK(softmax_pick(524287, 47, 4) == SoftmaxKernel::grain_rows);    // 68.7; warp 74.2, ring 79.5
  // fp32 rows of 48-512 columns that are not whole vectors: body_rows (session 15, cold µs).
  CHECK(softmax_pick(262144, 61, 4) == SoftmaxKernel::body_rows);    // 45.2; warp 46.4, cuDNN 44.6
  CHECK(softmax_pick(262144, 127, 4) == SoftmaxKernel::body_rows);   // warp 91.9 (session 10)
  CHECK(softmax_pick(65536, 129, 4) == SoftmaxKernel::body_rows);    // 24.0; warp 31.4, cuDNN 24.8
  CHECK(softmax_pick(65536, 257, 4) == SoftmaxKernel::body_rows);    // 45.5; packed 53.5, cuDNN 45.7
  CHECK(softmax_pick(16384, 511, 4) == SoftmaxKernel::body_rows);    // 23.5; packed 26.4, cuDNN 23.3
  CHECK(softmax_pick(32768, 513, 4) == SoftmaxKernel::packed);       // past body_rows' 512
  CHECK(softmax_pick(262144, 127, 2, true, 8) == SoftmaxKernel::body_rows);  // no Hopper feature used
  // fp32 rows of 9-47 columns that are not whole vectors: grain_rows (session 13: 1048573x13 43.0
  // against short_rows' 50.9, 1048576x15 47.3 against 57.9); ring_rows where it applies.
  CHECK(softmax_pick(1048573, 13, 4) == SoftmaxKernel::grain_rows);
  CHECK(softmax_pick(1048576, 15, 4, false) == SoftmaxKernel::grain_rows);  // any alignment
  CHECK(softmax_pick(1048576, 12, 4) == SoftmaxKernel::grain_rows);        // whole vectors: 16-byte grains
  CHECK(softmax_pick(262144, 127, 4, false) == SoftmaxKernel::short_rows);  // unaligned fp32: staged tiles
  CHECK(softmax_pick(262144, 127, 4, true, 8) == SoftmaxKernel::body_rows);   // body_rows needs no Hopper feature
  CHECK(softmax_pick(1048576, 32, 4) == SoftmaxKernel::grain_rows);  // H200: 66.0 against short_rows' 74.7
  CHECK(softmax_pick(262144, 127, 2, false) == SoftmaxKernel::grain_rows);  // 16-bit: single elements at any alignment
  CHECK(softmax_pick(65536, 104, 2) == SoftmaxKernel::grain_rows);  // whole vectors: 16-byte grains
  CHECK(softmax_pick(1000003, 2, 4, false) == SoftmaxKernel::short_rows);  // staged tiles take any alignment
  CHECK(softmax_pick(1000003, 2, 2, false) == SoftmaxKernel::grain_rows);
  CHECK(softmax_pick(16384, 1000, 2) == SoftmaxKernel::body_rows);         // the zoo's 16x1024x1000 (whole vectors past 512)
  CHECK(softmax_pick(4096, 1024, 4) == SoftmaxKernel::register_row);  // fp32 past 512: register_row won
  CHECK(softmax_pick(32768, 260, 4) == SoftmaxKernel::short_rows);    // whole fp32 vectors to 512: 22.8, register_row 38.1
  CHECK(softmax_pick(32768, 512, 4) == SoftmaxKernel::short_rows);    // 43.3, register_row 44.5
  CHECK(softmax_pick(16384, 640, 4) == SoftmaxKernel::register_row);  // 27.2, short_rows 33.9
  CHECK(softmax_pick(16384, 1000, 4) == SoftmaxKernel::register_row);
  CHECK(softmax_pick(32768, 999, 4) == SoftmaxKernel::register_row);  // fp32 odd width past 768 (8192x1023: 21.9 against 26.4)
  CHECK(softmax_pick(8192, 1023, 4) == SoftmaxKernel::register_row);
  CHECK(softmax_pick(32768, 513, 4) == SoftmaxKernel::packed);        // packed 44.4, register_row 45.6
  CHECK(softmax_pick(32768, 999, 4, false) == SoftmaxKernel::packed); // unaligned: staged tiles
  CHECK(softmax_pick(32768, 999, 2) == SoftmaxKernel::body_rows);     // 16-bit odd widths to 1600: body_rows
  CHECK(softmax_pick(14329, 999, 2) == SoftmaxKernel::body_rows);     // the fresh draw's 7x2047x999
  CHECK(softmax_pick(32768, 1020, 2) == SoftmaxKernel::body_rows);    // not whole 16-byte vectors
  CHECK(softmax_pick(32768, 257, 2) == SoftmaxKernel::body_rows);
  CHECK(softmax_pick(32768, 999, 2, false) == SoftmaxKernel::packed);  // unaligned: staged tiles
  CHECK(softmax_pick(100, 999, 2) == SoftmaxKernel::body_rows);       // any row count
  CHECK(softmax_pick(4096, 1025, 2) == SoftmaxKernel::body_rows);     // to 1536 columns: body_rows (H200: 20.1, register_row 23.8)
  CHECK(softmax_pick(32715, 1071, 2) == SoftmaxKernel::body_rows);    // 39.2 against 49.6
  CHECK(softmax_pick(50000, 1500, 2) == SoftmaxKernel::body_rows);    // bf16 75.1 against 77.6
  CHECK(softmax_pick(16384, 1536, 2) == SoftmaxKernel::body_rows);    // whole vectors too (call 3): 26.2 against 26.4
  CHECK(softmax_pick(16384, 1600, 2) == SoftmaxKernel::body_rows);    // 27.4 against 30.0
  CHECK(softmax_pick(16384, 1601, 2) == SoftmaxKernel::register_row); // past 1600 (1801: within 2 %)
  CHECK(softmax_pick(20000, 2000, 2) == SoftmaxKernel::register_row); // 39.5 against body_rows' 40.5
  CHECK(softmax_pick(65536, 520, 2) == SoftmaxKernel::body_rows);     // whole vectors from 513: 43.8, short_rows 59.1
  CHECK(softmax_pick(32768, 1000, 2) == SoftmaxKernel::body_rows);    // 34.5, short_rows 37.1
  CHECK(softmax_pick(32768, 512, 2) == SoftmaxKernel::short_rows);    // whole vectors to 512: short_rows (not measured)
  CHECK(softmax_pick(8192, 1999, 2) == SoftmaxKernel::register_row);  // 40.5 against body_rows' 43.2; cluster_row 59.5 µs (H100)
  CHECK(softmax_pick(8192, 1023, 4) == SoftmaxKernel::register_row);  // fp32 keeps register_row (16384x1023: 33.4, body_rows 35.1)
  CHECK(softmax_pick(2048, 4097, 2) == SoftmaxKernel::register_row);
  CHECK(softmax_pick(1024, 32767, 2) == SoftmaxKernel::register_row); // 4095 vectors' worth
  CHECK(softmax_pick(4096, 1025, 2, false) == SoftmaxKernel::online); // x and y out of phase
  CHECK(softmax_pick(4096, 1999, 2, false) == SoftmaxKernel::online);
  CHECK(softmax_pick(100, 1999, 2) == SoftmaxKernel::cluster);        // under 2 rows per SM
  CHECK(softmax_pick(100, 1000, 4) == SoftmaxKernel::short_rows);     // under 2 rows per SM
  CHECK(softmax_pick(262144, 256, 4) == SoftmaxKernel::grain_rows);  // whole vectors up to kGrainRowsMaxCols
  CHECK(softmax_pick(262144, 260, 4) == SoftmaxKernel::short_rows);  // past it
  CHECK(softmax_pick(4096, 1025, 4) == SoftmaxKernel::register_row);  // odd width, past short rows
  CHECK(softmax_pick(4096, 16383, 4) == SoftmaxKernel::register_row); // 4095 vectors' worth
  CHECK(softmax_pick(3000, 32003, 4) == SoftmaxKernel::cluster);      // past 4096: cluster_row, 93 % (session 13)
  CHECK(softmax_pick(4096, 2048, 4) == SoftmaxKernel::register_row);  // whole vectors
  CHECK(softmax_pick(8192, 8192, 2) == SoftmaxKernel::register_row);  // the targets: 91.6 % measured
  CHECK(softmax_pick(4096, 50257, 4) == SoftmaxKernel::cluster);      // vocabulary rows
  CHECK(softmax_pick(1024, 50257, 4) == SoftmaxKernel::cluster);
  CHECK(softmax_pick(132, 131072, 2) == SoftmaxKernel::cluster);      // a row per SM
  // Few long rows: H100, session 13, cold µs: cluster_row and grid_row beat cluster_bulk_row (removed)
  // on every shape of the class (fp32 32x131072 17.7 against 18.4, fp32 17x262147 grid 19.6 against 24.6).
  CHECK(softmax_pick(32, 131072, 4) == SoftmaxKernel::cluster);       // 32 rows x 8 blocks fill the SMs
  CHECK(softmax_pick(17, 262147, 4) == SoftmaxKernel::grid);          // 128 KiB slices: cluster 27.1, grid 19.6 µs
  CHECK(softmax_pick(17, 262147, 2) == SoftmaxKernel::cluster);       // 64 KiB slices: cluster 14.9, grid 15.3 µs
  CHECK(softmax_pick(64, 131071, 2) == SoftmaxKernel::cluster);       // 18.7 µs, grid 20.5
  CHECK(softmax_pick(64, 131071, 4) == SoftmaxKernel::cluster);       // 31.8 µs, grid 35.1
  CHECK(softmax_pick(32, 8192, 4) == SoftmaxKernel::cluster);
  CHECK(softmax_pick(8, 131072, 4) == SoftmaxKernel::grid);           // few long rows: the whole GPU on them
  CHECK(softmax_pick(8, 262144, 2) == SoftmaxKernel::grid);
  CHECK(softmax_pick(8, 262144, 4) == SoftmaxKernel::grid);           // 13.9 µs, cluster 14.4
  CHECK(softmax_pick(2, 1048573, 2) == SoftmaxKernel::grid);          // 2 MiB rows: past 16 x 112 KiB
  CHECK(softmax_pick(8, 262144, 4, false) == SoftmaxKernel::online);  // x and y out of phase
  CHECK(softmax_pick(8, 262144, 4, true, 8) == SoftmaxKernel::split);
  CHECK(softmax_pick(4, 1048576, 4) == SoftmaxKernel::grid);          // 4 MiB rows: no cluster holds one
  CHECK(softmax_pick(64, 4194301, 4) == SoftmaxKernel::grid);         // 1 GiB: batches of rows
  CHECK(softmax_pick(1024, 1048576, 4) == SoftmaxKernel::grid);       // rows too long for 8 cluster slices
  CHECK(softmax_pick(32, 131072, 4, true, 8) == SoftmaxKernel::split);   // no clusters or bulk copies before Hopper
  CHECK(softmax_pick(4096, 50257, 4, true, 8) == SoftmaxKernel::split);
  CHECK(softmax_pick(4096, 50257, 4, false) == SoftmaxKernel::online);   // x and y out of phase
  CHECK(std::string(softmax::kernel_name(SoftmaxKernel::short_rows)) == "short_rows");
  CHECK(std::string(softmax::kernel_name(SoftmaxKernel::grid)) == "grid_row");
}

TEST_CASE("auto softmax: vector_rows under 32 bytes, body_rows for odd widths, grain_rows for other rows up to 256 columns and fp32 of 9-47", "[auto][softmax]") {
  using softmax::SoftmaxKernel;
  for (std::int64_t cols : {1, 2, 3, 7, 31, 33, 48, 61, 64, 100, 127, 129, 200, 255, 256}) {
    for (std::size_t size : {2u, 4u}) {
      INFO("cols " << cols << ", " << size << "-byte elements");
      const bool vector_rows = cols % static_cast<std::int64_t>(16 / size) == 0;
      const bool vector = softmax::vector_rows_fits(cols, size);  // aligned rows under 32 bytes
      const bool body = cols % 4 != 0 && (size == 2 ? cols >= 65 : cols >= 48);  // aligned
      const bool fp32_grain = size == 4 && cols >= 9 && cols < 48;
      const bool grain = vector_rows || (!vector && !body && (size == 2 || fp32_grain));
      // thread_rows (Hopper's bulk copies) takes 16-bit rows of 17-64 columns: odd ones, and even
      // ones to 32 that are not multiples of 4.
      const bool thread = size == 2 && !vector_rows && cols >= 17 && cols <= 64 &&
                          (cols % 2 == 1 || (cols <= 32 && cols % 4 != 0));
      for (int cc_major : {8, 9}) {  // grain_rows and body_rows use no Hopper feature; thread_rows does
        CHECK((softmax_pick(3001, cols, size, true, cc_major) == SoftmaxKernel::grain_rows) ==
              (grain && !(thread && cc_major >= 9)));
        CHECK((softmax_pick(3001, cols, size, true, cc_major) == SoftmaxKernel::body_rows) == body);
        CHECK((softmax_pick(3001, cols, size, true, cc_major) == SoftmaxKernel::thread_rows) == (thread && cc_major >= 9));
      }
      CHECK((softmax_pick(3001, cols, size) == SoftmaxKernel::body_rows) == body);
      CHECK((softmax_pick(3001, cols, size, false) == SoftmaxKernel::grain_rows) == (size == 2 || (fp32_grain && !vector_rows)));  // any alignment
      CHECK((softmax_pick(3001, cols, size) == SoftmaxKernel::vector_rows) == vector);
      CHECK(softmax_pick(3001, cols, size, false) != SoftmaxKernel::vector_rows);  // needs 16-byte aligned x and y
      CHECK(softmax_pick(3001, cols, size, false) != SoftmaxKernel::body_rows);  // needs 16-byte aligned x and y
      if (!grain && !vector && !body) CHECK(softmax_pick(3001, cols, size) == SoftmaxKernel::short_rows);  // under 24 MiB: no ring
    }
  }
  CHECK(softmax_pick(65536, 104, 2) == SoftmaxKernel::grain_rows);   // whole vectors: 16-byte grains
  CHECK(softmax_pick(65536, 104, 2, false) == SoftmaxKernel::grain_rows);  // unaligned: 2-byte grains
  CHECK(softmax_pick(262144, 257, 2) != SoftmaxKernel::grain_rows);  // past kGrainRowsMaxCols
  CHECK(std::string(softmax::kernel_name(SoftmaxKernel::grain_rows)) == "grain_rows");
}

TEST_CASE("vector row groups: the fewest rows that are whole 16-byte vectors", "[auto][sum][softmax][vector_rows]") {
  for (std::int64_t row_bytes = 1; row_bytes <= 96; ++row_bytes) {
    INFO(row_bytes << " bytes a row");
    const VectorRowGroup g = vector_row_group(row_bytes);
    CHECK(g.rows * row_bytes == 16 * static_cast<std::int64_t>(g.vectors));  // whole rows in whole vectors
    for (int fewer = 1; fewer < g.rows; ++fewer) CHECK(fewer * row_bytes % 16 != 0);  // and no fewer rows are
    CHECK((g.vectors % 2 == 1 || g.rows == 1));  // odd unless a row is itself whole vectors
  }
  CHECK(vector_row_group(0).rows == 0);
  CHECK(vector_row_group(4).rows == 4);  // bf16 2 columns: 4 rows in one vector
  CHECK(vector_row_group(4).vectors == 1);
  CHECK(vector_row_group(16).rows == 1);
  CHECK(vector_row_group(26).vectors == 13);
  CHECK(vector_row_group_spans(1, 8) == 8);
  CHECK(vector_row_group_spans(3, 8) == 2);
  CHECK(vector_row_group_spans(15, 8) == 1);
}

TEST_CASE("sum vector_rows: every row under 32 bytes, whole vectors included, lanes of 5-15 vectors", "[auto][sum][vector_rows]") {
  int widths = 0;
  for (std::size_t size : {2u, 4u}) {
    for (std::int64_t cols = 0; cols <= 40; ++cols) {
      INFO(cols << " columns, " << size << "-byte elements");
      const std::int64_t row_bytes = cols * static_cast<std::int64_t>(size);
      const sum::RowsVectorShape s = sum::rows_vector_shape(cols, size);
      CHECK(sum::rows_vector_fits(cols, size) == (cols >= 1 && row_bytes < 32));
      if (s.group_rows == 0) {
        CHECK_FALSE(sum::rows_vector_fits(cols, size));
        continue;
      }
      ++widths;
      CHECK(s.group_rows * row_bytes == 16 * s.vectors);
      // A group's results are one 2-16-byte store whose offset is a multiple of its size.
      const std::int64_t result_bytes = s.group_rows * static_cast<std::int64_t>(size);
      CHECK((result_bytes == 2 || result_bytes == 4 || result_bytes == 8 || result_bytes == 16));
      // The kernel's instantiations: a lane's tile is 5-15 vectors, a warp's slice of shared
      // memory at most 7.5 KiB (4 warps of a block: 30 KiB of the 48 KiB static limit).
      CHECK(s.spans * s.vectors >= 5);
      CHECK(s.spans * s.vectors <= 15);
      CHECK(512 * s.spans * s.vectors <= 7680);
      if (softmax::vector_rows_fits(cols, size)) {  // softmax's class: the same groups
        CHECK(softmax::vector_rows_shape(cols, size).group_rows == s.group_rows);
        CHECK(softmax::vector_rows_shape(cols, size).vectors == s.vectors);
      }
    }
  }
  CHECK(widths == 15 + 7);  // 16-bit 1-15, fp32 1-7
  CHECK(sum::rows_vector_shape(2, 2).group_rows == 4);  // bf16 6000011x2: 4 rows a vector, 8 vectors a lane
  CHECK(sum::rows_vector_shape(2, 2).spans == 8);
  CHECK(sum::rows_vector_shape(8, 2).group_rows == 1);  // whole vectors: a row a vector, no staging
  CHECK(sum::rows_vector_shape(4, 4).vectors == 1);
  CHECK(sum::rows_vector_shape(13, 2).vectors == 13);
  CHECK(sum::rows_vector_shape(3, 4).spans == 2);
  CHECK(sum::rows_vector_shape(16, 2).group_rows == 0);
  CHECK(sum::rows_vector_shape(8, 4).group_rows == 0);
}

TEST_CASE("vector rows grid: whole groups, a tail of fewer than R rows, a warp per tile, at least one warp",
          "[auto][softmax][sum]") {
  const VectorRowTile tile = vector_row_tile(14, 8);  // 16-bit 7 columns: 8 rows in 7 vectors, 1 group a lane
  CHECK(tile.group_rows == 8);
  CHECK(tile.vectors == 7);
  CHECK(tile.spans == 1);
  const VectorRowGrid small = vector_row_grid(5, tile, 4);  // fewer rows than a group: the tail alone
  CHECK(small.groups == 0);
  CHECK(small.tail_rows == 5);
  CHECK(small.warps == 1);
  CHECK(small.blocks == 1);
  const VectorRowGrid odd = vector_row_grid(8 * 32 * 9 + 3, tile, 4);  // 9 whole tiles and 3 rows
  CHECK(odd.groups == 32 * 9);
  CHECK(odd.tail_rows == 3);
  CHECK(odd.warps == 9);
  CHECK(odd.blocks == 3);
  const VectorRowGrid partial = vector_row_grid(8 * 33, tile, 4);  // a second tile of one group
  CHECK(partial.warps == 2);
  CHECK(vector_row_tile(0, 8).group_rows == 0);
  CHECK(vector_row_tile(4, 8).spans == 8);  // fp32 1 column or 16-bit 2: 4 rows a vector, 8 vectors a lane
}

TEST_CASE("vector rows: R rows in exactly V whole vectors, V odd, at least 8 vectors per lane's tile", "[auto][softmax]") {
  using softmax::vector_rows_shape;
  CHECK(vector_rows_shape(7, 2).group_rows == 8);  // 8 rows of 14 bytes in 7 vectors
  CHECK(vector_rows_shape(7, 2).vectors == 7);
  CHECK(vector_rows_shape(7, 2).spans == 1);
  CHECK(vector_rows_shape(7, 4).group_rows == 4);  // 4 rows of 28 bytes in 7 vectors
  CHECK(vector_rows_shape(3, 2).vectors == 3);
  CHECK(vector_rows_shape(3, 2).spans == 2);
  CHECK(vector_rows_shape(6, 2).group_rows == 4);  // 12 bytes: gcd 4
  CHECK(vector_rows_shape(12, 2).group_rows == 2);  // 24 bytes: gcd 8
  CHECK(vector_rows_shape(1, 4).spans == 8);
  CHECK(vector_rows_shape(8, 2).group_rows == 0);   // whole vectors: short_rows' direct path
  CHECK(vector_rows_shape(16, 2).group_rows == 0);  // 32 bytes: past the class
  CHECK(vector_rows_shape(9, 4).group_rows == 0);
  CHECK(vector_rows_shape(0, 2).group_rows == 0);
  int widths = 0;
  for (std::size_t size : {2u, 4u}) {
    for (std::int64_t cols = 1; cols <= 64; ++cols) {
      INFO("cols " << cols << ", " << size << "-byte elements");
      const auto s = vector_rows_shape(cols, size);
      const std::int64_t row_bytes = cols * static_cast<std::int64_t>(size);
      CHECK(softmax::vector_rows_fits(cols, size) == (row_bytes < 32 && row_bytes % 16 != 0));
      if (s.group_rows == 0) continue;
      ++widths;
      CHECK(s.group_rows * row_bytes == 16 * s.vectors);  // whole rows in whole vectors
      for (int fewer = 1; fewer < s.group_rows; ++fewer) CHECK(fewer * row_bytes % 16 != 0);  // the fewest rows
      CHECK(s.vectors % 2 == 1);  // odd: a quarter warp's 16-byte shared reads hit 8 different bank groups
      CHECK(s.vectors <= 15);
      CHECK(s.spans * s.vectors >= std::min(softmax::kVectorRowsLaneVectors, s.vectors));
      CHECK((s.spans - 1) * s.vectors < softmax::kVectorRowsLaneVectors);
    }
  }
  CHECK(widths == 14 + 6);  // 16-bit 1-15 but 8, fp32 1, 2, 3, 5, 6, 7
}

TEST_CASE("grain rows: loads that never straddle rows, lanes under the shuffle budget, 32 bytes per lane in flight",
          "[auto][softmax]") {
  using softmax::grain_rows_shape;
  // Odd widths load single elements whatever the alignment; even ones the widest grain dividing
  // the row that both pointers allow.
  CHECK(grain_rows_shape(7, 2, 16).grain == 1);
  CHECK(grain_rows_shape(100, 2, 16).grain == 4);  // 8-byte grains: rows start 200 bytes apart
  CHECK(grain_rows_shape(100, 2, 4).grain == 2);   // pointers only 4-byte aligned
  CHECK(grain_rows_shape(100, 2, 2).grain == 1);
  CHECK(grain_rows_shape(256, 2, 16).grain == 8);
  CHECK(grain_rows_shape(100, 4, 16).grain == 4);
  CHECK(grain_rows_shape(100, 4, 8).grain == 2);
  // Lanes: one per grain, halved while lanes x log2(lanes) > 2 x cols.
  CHECK(grain_rows_shape(1, 2, 16).lanes == 1);
  CHECK(grain_rows_shape(3, 2, 16).lanes == 2);  // 4 x 2 > 6
  CHECK(grain_rows_shape(7, 2, 16).lanes == 4);  // 8 x 3 > 14: 4 lanes x 2 elements
  CHECK(grain_rows_shape(7, 2, 16).grains == 2);
  CHECK(grain_rows_shape(7, 2, 16).rows == 8);   // 8 rows x 2 x 2 bytes = 32 bytes per lane
  CHECK(grain_rows_shape(33, 2, 16).lanes == 16);  // 32 x 5 > 66
  CHECK(grain_rows_shape(33, 2, 16).grains == 3);
  CHECK(grain_rows_shape(61, 2, 16).lanes == 16);
  CHECK(grain_rows_shape(61, 2, 16).grains == 4);
  CHECK(grain_rows_shape(100, 2, 16).lanes == 32);  // 25 grains of 8 bytes
  CHECK(grain_rows_shape(100, 2, 16).grains == 1);
  CHECK(grain_rows_shape(100, 2, 16).rows == 4);
  CHECK(grain_rows_shape(127, 2, 16).lanes == 32);
  CHECK(grain_rows_shape(127, 2, 16).grains == 4);
  CHECK(grain_rows_shape(129, 2, 16).grains == 5);
  CHECK(grain_rows_shape(129, 2, 16).rows == 3);
  CHECK(grain_rows_shape(255, 2, 16).grains == 8);
  CHECK(grain_rows_shape(255, 2, 16).rows == 2);
  CHECK(grain_rows_shape(255, 4, 16).rows == 1);
  for (std::int64_t cols = 1; cols <= softmax::kGrainRowsMaxCols; ++cols) {
    for (std::size_t size : {2u, 4u}) {
      for (int alignment = static_cast<int>(size); alignment <= 16; alignment *= 2) {
        const auto s = grain_rows_shape(cols, size, alignment);
        INFO("cols " << cols << ", " << size << "-byte elements, " << alignment << "-byte aligned");
        CHECK(cols % s.grain == 0);  // no grain straddles two rows
        CHECK(s.grain * static_cast<int>(size) <= alignment);
        CHECK(s.grain * static_cast<int>(size) <= 16);
        CHECK(static_cast<std::int64_t>(s.lanes) * s.grains * s.grain >= cols);    // the row is covered
        CHECK(static_cast<std::int64_t>(s.lanes) * (s.grains - 1) * s.grain < cols);  // no all-masked slot
        CHECK(s.lanes <= 32);
        CHECK((s.lanes & (s.lanes - 1)) == 0);
        CHECK(s.grains <= 8);
        CHECK(s.rows >= 1);
        const int lane_bytes = s.rows * s.grains * s.grain * static_cast<int>(size);
        CHECK((lane_bytes <= softmax::kGrainRowsBytesInFlight || s.rows == 1));
        CHECK(lane_bytes + s.grains * s.grain * static_cast<int>(size) > softmax::kGrainRowsBytesInFlight);
        CHECK(softmax::grain_rows_reachable(size, s.grain, s.lanes, s.grains));
      }
    }
  }
  CHECK_FALSE(softmax::grain_rows_reachable(2, 1, 1, 2));  // one lane per row only for one-element rows
  CHECK_FALSE(softmax::grain_rows_reachable(4, 8, 32, 1));  // fp32 grains stop at 4 elements
}

TEST_CASE("warp rows: the fewest lanes at one word each, then 1-8 words, 8 words per lane in flight", "[auto][softmax]") {
  using softmax::warp_rows_shape;
  // 16-bit rows of odd width span (cols + 1) / 2 words whatever their start.
  CHECK(softmax::warp_rows_words_per_row(7, 2) == 4);
  CHECK(softmax::warp_rows_words_per_row(100, 2) == 50);
  CHECK(softmax::warp_rows_words_per_row(7, 4) == 7);
  CHECK(warp_rows_shape(2, 2).lanes == 1);  // one word: a lane per row, 8 rows
  CHECK(warp_rows_shape(2, 2).rows == 8);
  CHECK(warp_rows_shape(7, 2).lanes == 4);
  CHECK(warp_rows_shape(33, 2).lanes == 32);  // 17 words
  CHECK(warp_rows_shape(33, 2).words == 1);
  CHECK(warp_rows_shape(100, 2).words == 2);  // 50 words
  CHECK(warp_rows_shape(100, 2).rows == 4);
  CHECK(warp_rows_shape(129, 2).words == 4);  // 65 words: the fourth guarded
  CHECK(warp_rows_shape(256, 2).words == 4);
  CHECK(warp_rows_shape(256, 4).words == 8);
  CHECK(warp_rows_shape(256, 4).rows == 1);
  for (std::int64_t cols = 1; cols <= softmax::kWarpRowsMaxCols; ++cols) {
    for (std::size_t size : {2u, 4u}) {
      const auto shape = warp_rows_shape(cols, size);
      INFO("cols " << cols << ", " << size << "-byte elements");
      CHECK(static_cast<std::int64_t>(shape.lanes) * shape.words >= softmax::warp_rows_words_per_row(cols, size));
      CHECK(shape.lanes <= 32);
      CHECK(shape.words * shape.rows == softmax::kWarpRowsWordsInFlight);
      CHECK((shape.lanes == 32 || shape.words == 1));  // a row fills its lanes before a lane takes a second word
    }
  }
}

TEST_CASE("short rows: lane groups that hold at most 4 vectors or 8 elements per lane", "[auto][softmax]") {
  using softmax::short_rows_shape;
  // Direct path (whole 16-byte vectors): one lane takes 1-3 vectors' rows, several rows at once.
  CHECK(short_rows_shape(4, 4, true).lanes == 1);
  CHECK(short_rows_shape(4, 4, true).rows_per_group == 4);
  CHECK(short_rows_shape(8, 4, true).per_lane == 2);
  CHECK(short_rows_shape(8, 4, true).rows_per_group == 2);
  CHECK(short_rows_shape(12, 4, true).per_lane == 4);  // 3 vectors, the fourth guarded
  CHECK(short_rows_shape(12, 4, true).rows_per_group == 1);
  CHECK(short_rows_shape(32, 4, true).lanes == 2);     // 8 vectors: 2 lanes x 4
  CHECK(short_rows_shape(32, 4, true).per_lane == 4);
  CHECK(short_rows_shape(1000, 2, true).lanes == 32);  // 125 vectors
  CHECK(short_rows_shape(1000, 2, true).per_lane == 4);
  CHECK(short_rows_shape(1024, 4, true).per_lane == 8);  // 256 vectors: the only 8-vector shape
  CHECK(short_rows_shape(1024, 2, true).per_lane == 4);
  // Staged path (any width): up to 8 elements per lane, 32 lanes beyond 256 elements.
  for (std::int64_t cols : {1, 2, 3, 7, 8}) {
    INFO("cols " << cols);
    CHECK(short_rows_shape(cols, 2, false).staged);
    CHECK(short_rows_shape(cols, 2, false).lanes == 1);
    CHECK(short_rows_shape(cols, 2, false).per_lane == 8);
  }
  CHECK(short_rows_shape(31, 4, false).lanes == 4);
  CHECK(short_rows_shape(33, 4, false).lanes == 8);
  CHECK(short_rows_shape(100, 2, false).lanes == 16);
  CHECK(short_rows_shape(257, 2, false).per_lane == 16);
  CHECK(short_rows_shape(1023, 4, false).per_lane == 32);
  // Every shape covers its row.
  for (std::int64_t cols = 1; cols <= softmax::kShortMaxCols; ++cols) {
    for (std::size_t size : {2u, 4u}) {
      for (bool vector_rows : {false, true}) {
        if (vector_rows && cols % static_cast<std::int64_t>(16 / size) != 0) continue;
        const auto shape = short_rows_shape(cols, size, vector_rows);
        const std::int64_t units = vector_rows ? cols / static_cast<std::int64_t>(16 / size) : cols;
        INFO("cols " << cols << ", " << size << "-byte elements, vector rows " << vector_rows);
        CHECK(static_cast<std::int64_t>(shape.lanes) * shape.per_lane >= units);
        CHECK(shape.lanes <= 32);
      }
    }
  }
}

TEST_CASE("grid rows: slices up to 96 KiB, every resident block busy, batches past the grid's shared memory",
          "[auto][softmax]") {
  using softmax::grid_row_shape;
  constexpr std::int64_t kResident = 2 * kH100Sms;
  const auto s32 = grid_row_shape(32, 131072, 4, kResident);  // 512 KiB rows
  CHECK(s32.blocks_per_row == 8);
  CHECK(s32.rows_in_flight == 32);
  CHECK(s32.slice_vectors * 16 == 64 * 1024);
  const auto s4 = grid_row_shape(4, 1048576, 4, kResident);  // 4 MiB rows
  CHECK(s4.blocks_per_row == 66);
  CHECK(s4.rows_in_flight == 4);
  CHECK(s4.slice_vectors * 16 <= softmax::kGridSliceMost);
  const auto s64 = grid_row_shape(64, 4194301, 4, kResident);  // 16 MiB rows, 1 GiB: batches
  CHECK(s64.rows_in_flight == 1);
  CHECK(s64.blocks_per_row <= kResident);
  CHECK(s64.slice_vectors * 16 <= softmax::kGridSliceMost);
  CHECK(s64.blocks_per_row * s64.slice_vectors >= 4194301 / 4);
  CHECK(grid_row_shape(1, 7, 2, kResident).blocks_per_row == 1);  // no vector: one block
  CHECK(grid_row_shape(3, 1000003, 2, kResident).slice_vectors >= 1);
  CHECK(grid_row_shape(1, 200000000, 4, kResident).blocks_per_row == 0);  // 800 MB: more than 264 slices hold
  for (std::int64_t rows : {1, 3, 4, 7, 8, 31, 64, 200, 1000}) {
    for (std::int64_t cols : {65536, 131071, 262147, 1048576, 4194301}) {
      const auto s = grid_row_shape(rows, cols, 2, kResident);
      INFO(rows << " x " << cols);
      REQUIRE(s.blocks_per_row > 0);
      CHECK(s.blocks_per_row * s.rows_in_flight <= kResident);
      CHECK(s.rows_in_flight <= rows);
      CHECK(s.slice_vectors * 16 <= softmax::kGridSliceMost);
      CHECK(s.blocks_per_row * s.slice_vectors >= cols / 8);
    }
  }
}

TEST_CASE("cluster rows: slices near 32 KiB, more blocks for few rows, none past 8 x 192 KiB", "[auto][softmax]") {
  CHECK(softmax::cluster_row_blocks(4096, 50257, 4, kH100Sms) == 8);  // 201 KB rows: 25 KB slices
  CHECK(softmax::cluster_row_blocks(4096, 50257, 2, kH100Sms) == 4);
  CHECK(softmax::cluster_row_blocks(4096, 4000, 4, kH100Sms) == 1);
  CHECK(softmax::cluster_row_blocks(32, 4000, 4, kH100Sms) == 8);     // 32 rows: 256 blocks, not 32
  CHECK(softmax::cluster_row_blocks(32, 131072, 4, kH100Sms) == 8);
  CHECK(softmax::cluster_row_blocks(4, 1048576, 4, kH100Sms) == 0);
  CHECK(softmax::cluster_slice_vectors(50257, 4, 8) * 16 <= softmax::kClusterSliceTarget);
  CHECK(softmax::split_row_chunks(1048576, 4) == 256);
  CHECK(softmax::split_row_chunks(3, 2) == 1);
}

TEST_CASE("cluster rows store exponentials in 16-bit only, from two waves of clusters on", "[auto][softmax]") {
  using softmax::cluster_stores_exponentials;
  // Resident clusters of the 32-register kernel on 132 SMs: 1056 one-block clusters (8 KB
  // slices), 264 of bf16 4096x50257's four 25 KB blocks, 115 of 32x131072's eight 32 KB blocks.
  CHECK(cluster_stores_exponentials(2, 2112, 1056));
  CHECK(cluster_stores_exponentials(2, 4096, 264));  // 15.5 waves
  CHECK_FALSE(cluster_stores_exponentials(2, 2111, 1056));
  CHECK_FALSE(cluster_stores_exponentials(2, 32, 115));    // 0.3 waves
  CHECK_FALSE(cluster_stores_exponentials(4, 4096, 264));  // fp32 keeps two exponentials
  CHECK_FALSE(cluster_stores_exponentials(2, 4096, 0));    // no cluster fits: no claim
  CHECK(softmax::cluster_may_store_exponentials(2));
  CHECK_FALSE(softmax::cluster_may_store_exponentials(4));
}

TEST_CASE("every reduction and softmax op has an own variant named auto", "[auto]") {
  Registry registry;
  register_all_ops(registry);
  for (const char* name : {"sum_full", "sum_inner", "max_inner", "sum_outer", "softmax"}) {
    INFO(name);
    const Op* op = registry.find(name);
    REQUIRE(op != nullptr);
    const auto variants = op->variants();
    const auto found =
        std::find_if(variants.begin(), variants.end(), [](const VariantInfo& v) { return v.name == "auto"; });
    REQUIRE(found != variants.end());
    CHECK(found->role == VariantRole::own);
  }
}
