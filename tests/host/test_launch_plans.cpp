// The host-side choices of the kernels' launch shapes that need no GPU: which softmax rows the
// register-row kernel holds, how the one-pass sums split their work and when they take the
// cluster path.
#include "kernels/softmax/softmax_kernels.hpp"
#include "kernels/sum/sum_kernels.hpp"
#include "support/catch.hpp"

#include <cuda_fp16.h>

using namespace kbench;

TEST_CASE("register_row holds rows of any width up to 32768 elements' worth of 16-byte vectors", "[softmax]") {
  CHECK(softmax::register_row_fits(32768, 4));       // 8192 fp32 vectors: 8 per thread of 1024
  CHECK_FALSE(softmax::register_row_fits(32772, 4)); // one vector more
  CHECK(softmax::register_row_fits(32768, 2));       // 4096 16-bit vectors: 4 per thread
  CHECK_FALSE(softmax::register_row_fits(32776, 2)); // 4097: 8 per thread spilled in bf16
  CHECK_FALSE(softmax::register_row_fits(65536, 2));
  CHECK(softmax::register_row_fits(1031, 4));        // not a whole number of vectors: head and tail by elements
  CHECK(softmax::register_row_fits(32775, 2));       // at most 4096 body vectors whatever the row's phase
  CHECK_FALSE(softmax::register_row_fits(32783, 4)); // 8195 fp32 vectors' worth
  CHECK(softmax::register_row_fits(12, 2));
  CHECK(softmax::register_row_fits(8, 2));
  CHECK_FALSE(softmax::register_row_fits(0, 2));
}

TEST_CASE("the one-pass outer sum takes one cluster per strip for up to 512 rows on sm_90+", "[sum]") {
  CHECK(sum::columns_use_cluster(512, 9));
  CHECK_FALSE(sum::columns_use_cluster(513, 9));
  CHECK_FALSE(sum::columns_use_cluster(256, 8));  // no clusters before Hopper
  CHECK(sum::columns_use_cluster(1, 10));
  // On the cluster path: one chunk per 32 rows, at most the 8 blocks of a portable cluster.
  CHECK(sum::columns_one_pass_chunks(256, 256, 132, 4, 9) == 8);
  CHECK(sum::columns_one_pass_chunks(512, 256, 132, 2, 9) == 8);
  CHECK(sum::columns_one_pass_chunks(33, 256, 132, 4, 9) == 2);
  CHECK(sum::columns_one_pass_chunks(1, 7, 132, 4, 9) == 1);
  // Otherwise the two-stage kernel's row chunks.
  CHECK(sum::columns_one_pass_chunks(8192, 8192, 132, 4, 9) == sum::column_chunks(8192, 8192, 132, 4));
  CHECK(sum::columns_one_pass_chunks(256, 256, 132, 4, 8) == sum::column_chunks(256, 256, 132, 4));
}

TEST_CASE("the one-pass full sum runs one block per 16 KB tile, or one cluster when small on sm_90+", "[sum]") {
  // On 1024 SMs (8192 resident blocks) fp16 8192^2 has one tile per resident slot: one tile a
  // block; fp32 has two a slot. 16.8M fp32 vectors of 4 elements / 1024 per tile; fp16 has half.
  constexpr int kMany = 1024;
  CHECK(sum::full_one_pass_blocks<float>(8192LL * 8192, 9, kMany) == 16384 / 2);
  CHECK(sum::full_one_pass_blocks<__half>(8192LL * 8192, 9, kMany) == 8192);
  CHECK(sum::full_one_pass_blocks<__half>(8192LL * 8192 + 8, 9, kMany) == 8193);  // a partial last tile
  CHECK(sum::full_one_pass_blocks<__half>(8192LL * 8192 + 7, 9, kMany) == 8192);  // 7 scalars: folded grid-stride
  // Up to 32768 vectors (512 KiB): the 8 blocks of one cluster on Hopper, tiles before it.
  CHECK(sum::full_one_pass_blocks<float>(4 * 32768, 9, 132) == 8);
  CHECK(sum::full_one_pass_blocks<float>(4 * 32768, 8, 132) == 32);
  CHECK(sum::full_one_pass_blocks<float>(4 * 32768 + 4, 9, 132) == 33);
  CHECK(sum::full_one_pass_blocks<float>(3, 8, 132) == 1);
  // Up to 8192 vectors (128 KiB): one block on any GPU; 256² fp32 (16384 vectors) is a cluster.
  CHECK(sum::full_one_pass_blocks<__half>(256 * 256, 9, 132) == 1);
  CHECK(sum::full_one_pass_blocks<__half>(256 * 256, 8, 132) == 1);
  CHECK(sum::full_one_pass_blocks<float>(256 * 256, 9, 132) == 8);
  CHECK_THROWS_AS(sum::full_one_pass_blocks<float>(1 << 20, 9, 0), std::invalid_argument);
}

TEST_CASE("the one-pass full sum gives a block up to 4 tiles where the tiles fill the resident slots again and again",
          "[sum]") {
  // 132 SMs hold 1056 blocks of 256 threads. Tiles per block: tiles / 1056, between 1 and 4.
  CHECK(sum::full_one_pass_blocks<float>(268435456, 9, 132) == 65536 / 4);  // 62 tiles a slot
  CHECK(sum::full_one_pass_blocks<float>(8192LL * 8192, 9, 132) == 16384 / 4);
  CHECK(sum::full_one_pass_blocks<__half>(8192LL * 8192, 9, 132) == 8192 / 4);  // 7.8 tiles a slot
  CHECK(sum::full_one_pass_blocks<__half>(33554431, 9, 132) == (4096 + 2) / 3);  // 3.9: three tiles a block
  CHECK(sum::full_one_pass_blocks<float>(8388608, 9, 132) == 2048);              // 1.9 a slot: one tile a block
  CHECK(sum::full_one_pass_blocks<float>(4194304, 9, 132) == 1024);              // under one tile a slot
  // The last block takes what is left of the tiles: 4097 tiles in blocks of 3.
  CHECK(sum::full_one_pass_blocks<float>(4LL * 1024 * 4097, 9, 132) == (4097 + 2) / 3);
}

TEST_CASE("the one-pass full sum has one counter per group of 1024 workers", "[sum]") {
  CHECK(sum::full_one_pass_counters(1) == 1);
  CHECK(sum::full_one_pass_counters(1024) == 1);
  CHECK(sum::full_one_pass_counters(1025) == 2);
  CHECK(sum::full_one_pass_counters(8192) == 8);  // 8192^2 fp16 at one tile a block
}

TEST_CASE("the column sums take 4 blocks per SM of row chunks", "[sum]") {
  // 8192 fp32 columns: 64 strips of 128; 4 x 132 blocks wanted: 9 chunks. fp16: 32 strips, 17.
  CHECK(sum::column_chunks(8192, 8192, 132, 4) == 9);
  CHECK(sum::column_chunks(8192, 8192, 132, 2) == 17);
  CHECK(sum::column_chunks(16, 8192, 132, 4) == 2);  // at most one chunk per 8 rows
}

TEST_CASE("the row sums take a warp per row up to 1024 fp32 or 1536 16-bit columns", "[sum]") {
  // The measured bounds (sum/NOTES.md, session 15): a warp won 16-bit rows of 1025-1100 columns,
  // tied 1571-1709 and lost 2000-2048; fp32 keeps its 1024.
  CHECK(sum::warp_row_max_cols(4) == 1024);
  CHECK(sum::warp_row_max_cols(2) == 1536);
}
