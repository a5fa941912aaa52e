// The host-side choices of the kernels' launch shapes that need no GPU: which softmax rows the
// register-row kernel holds, how the one-pass sums split their work and when they take the
// cluster path.
#include "kernels/softmax/softmax_kernels.hpp"
#include "kernels/sum/sum_kernels.hpp"
#include "support/catch.hpp"

#include <cuda_fp16.h>

#include <cstdint>

using namespace kbench;

TEST_CASE("register_row holds whole-vector rows up to 32768 elements", "[softmax]") {
  CHECK(softmax::register_row_fits(32768, 4));       // 8192 fp32 vectors: 8 per thread of 1024
  CHECK_FALSE(softmax::register_row_fits(32772, 4)); // one vector more
  CHECK(softmax::register_row_fits(32768, 2));       // 4096 16-bit vectors: 4 per thread
  CHECK_FALSE(softmax::register_row_fits(32776, 2)); // 4097: 8 per thread spilled in bf16
  CHECK_FALSE(softmax::register_row_fits(65536, 2));
  CHECK_FALSE(softmax::register_row_fits(1031, 4));  // not a whole number of vectors
  CHECK_FALSE(softmax::register_row_fits(12, 2));
  CHECK(softmax::register_row_fits(8, 2));
}

TEST_CASE("the one-pass outer sum takes one cluster per strip on sm_90+ where the strips fill the GPU", "[sum]") {
  using Path = sum::ColumnsOnePassPlan::Path;
  const void* aligned = reinterpret_cast<const void*>(std::uintptr_t{1} << 12);
  const void* odd = reinterpret_cast<const void*>((std::uintptr_t{1} << 12) + 2);  // 2-byte aligned only
  auto plan = [&](std::int64_t rows, std::int64_t cols, std::size_t size, int cc_major, const void* in = nullptr) {
    return sum::plan_columns_one_pass(in ? in : aligned, rows, cols, 132, size, cc_major);
  };
  // Up to 512 rows: small clusters, one chunk per 32 rows, at most the 8 blocks of a portable cluster.
  CHECK(plan(512, 256, 4, 9).path == Path::small_cluster);
  CHECK(plan(256, 256, 4, 9).chunks == 8);
  CHECK(plan(512, 256, 2, 9).chunks == 8);
  CHECK(plan(33, 256, 4, 9).chunks == 2);
  CHECK(plan(1, 7, 4, 9).chunks == 1);
  CHECK(plan(1, 7, 4, 10).path == Path::small_cluster);
  // 8192^2: strips of 16 vectors (64 fp32 or 128 fp16 columns), as many chunks as 4 blocks per
  // SM want, at most 8: fp32 128 strips x 5, fp16 64 strips x 8.
  CHECK(plan(8192, 8192, 4, 9).path == Path::large_cluster);
  CHECK(plan(8192, 8192, 4, 9).chunks == 5);
  CHECK(plan(8192, 8192, 2, 9).chunks == 8);
  CHECK(plan(513, 8192, 2, 9).path == Path::large_cluster);
  // Too few strips for 3 blocks per SM (4096 fp16 columns: 32 strips, 256 blocks): tickets.
  CHECK(plan(8192, 4096, 2, 9).path == Path::tickets);
  CHECK(plan(8192, 4096, 2, 9).chunks == sum::column_chunks(8192, 4096, 132, 2));
  // Unaligned rows: one column per thread, so more strips (8192 fp16: 512).
  CHECK(plan(8192, 8190, 2, 9, odd).path == Path::large_cluster);
  CHECK(plan(8192, 8190, 2, 9, odd).chunks == 2);
  // No clusters before Hopper.
  CHECK(plan(256, 256, 4, 8).path == Path::tickets);
  CHECK(plan(8192, 8192, 4, 8).path == Path::tickets);
  CHECK(plan(8192, 8192, 4, 8).chunks == sum::column_chunks(8192, 8192, 132, 4));
}

TEST_CASE("the one-pass full sum runs one block per 16 KB tile, or one cluster when small on sm_90+", "[sum]") {
  // 8192^2: 16.8M fp32 vectors of 4 elements / 1024 per tile; fp16 has half the vectors.
  CHECK(sum::full_one_pass_blocks<float>(8192LL * 8192, 9) == 16384);
  CHECK(sum::full_one_pass_blocks<__half>(8192LL * 8192, 9) == 8192);
  CHECK(sum::full_one_pass_blocks<float>(8192LL * 8192 + 4, 9) == 16385);  // a partial last tile
  CHECK(sum::full_one_pass_blocks<float>(8192LL * 8192 + 3, 9) == 16384);  // 3 scalars: folded grid-stride
  // Up to 32768 vectors (512 KiB): the 8 blocks of one cluster on Hopper, tiles before it.
  CHECK(sum::full_one_pass_blocks<float>(4 * 32768, 9) == 8);
  CHECK(sum::full_one_pass_blocks<float>(4 * 32768, 8) == 32);
  CHECK(sum::full_one_pass_blocks<float>(4 * 32768 + 4, 9) == 33);
  CHECK(sum::full_one_pass_blocks<float>(3, 8) == 1);
  // Up to 8192 vectors (128 KiB): one block on any GPU; 256² fp32 (16384 vectors) is a cluster.
  CHECK(sum::full_one_pass_blocks<__half>(256 * 256, 9) == 1);
  CHECK(sum::full_one_pass_blocks<__half>(256 * 256, 8) == 1);
  CHECK(sum::full_one_pass_blocks<float>(256 * 256, 9) == 8);
}

TEST_CASE("the one-pass full sum has one counter per group of 1024 workers", "[sum]") {
  CHECK(sum::full_one_pass_counters(1) == 1);
  CHECK(sum::full_one_pass_counters(1024) == 1);
  CHECK(sum::full_one_pass_counters(1025) == 2);
  CHECK(sum::full_one_pass_counters(8192) == 8);  // 8192^2 fp16
}

TEST_CASE("the column sums take 4 blocks per SM of row chunks", "[sum]") {
  // 8192 fp32 columns: 64 strips of 128; 4 x 132 blocks wanted: 9 chunks. fp16: 32 strips, 17.
  CHECK(sum::column_chunks(8192, 8192, 132, 4) == 9);
  CHECK(sum::column_chunks(8192, 8192, 132, 2) == 17);
  CHECK(sum::column_chunks(16, 8192, 132, 4) == 2);  // at most one chunk per 8 rows
}
