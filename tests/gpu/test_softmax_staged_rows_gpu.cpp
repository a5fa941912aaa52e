// softmax's staged_rows kernel against the CPU reference through the workload's verification
// (guard bytes, poisoned outputs, two input sets), in fp32, fp16 and bf16: 16-bit widths of 16-64
// columns and fp32 widths of 8-32 (the others run its grain_rows fallback), row counts of one row,
// a few rows, fewer than one warp's tile, one tile and a row, and many tiles ending mid-tile;
// rank 3; unaligned tensors (the grain_rows fallback) through the launcher itself. First the
// smallest case, so that a broken kernel fails with a clear name.
#include "harness/device/cuda_resources.hpp"
#include "kernels/softmax/softmax_auto.hpp"
#include "kernels/softmax/softmax_kernels.hpp"
#include "support/catch.hpp"
#include "support/softmax_unaligned.hpp"
#include "support/verify_variants.hpp"

#include "kbench/ops/softmax.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <string>
#include <vector>

using namespace kbench;

namespace {

const std::vector<std::string> kStaged{"staged_rows"};

/// Verifies staged_rows on `shape` in every dtype, each comparing every element.
void check(const Shape& shape, CudaStream& stream) {
  test::verify_variants(*test::all_ops().find("softmax"), shape, kStaged, stream, element_count(shape));
}

template <typename T>
void check_unaligned(DType dtype, std::int64_t rows, std::int64_t cols, int offset, CudaStream& stream) {
  test::check_softmax_unaligned<T>([](auto... a) { softmax::launch_staged_rows(a...); }, dtype, rows, cols, offset,
                                   stream);
}

}  // namespace

TEST_CASE("staged_rows, smallest case: 1 row of 17 elements (a tile that ends inside a vector past the tensor)",
          "[gpu][softmax][staged_rows]") {
  CudaStream stream;
  check({1, 17}, stream);
}

TEST_CASE("staged_rows on every kind of width, odd row counts", "[gpu][softmax][staged_rows]") {
  // 16-bit 16-64 columns; fp32 8-32 (fp32 widths past 32 run the grain_rows fallback).
  CudaStream stream;
  for (std::int64_t cols : {16, 17, 23, 31, 33, 47, 61, 63, 64, 8, 9, 13}) {
    std::vector<std::int64_t> row_counts{1, 5, 17, 30011};
    for (std::size_t size : {std::size_t{2}, std::size_t{4}}) {
      const softmax::StagedRowsShape s = softmax::staged_rows_shape(cols, size);
      if (s.tile_rows > 0) row_counts.push_back(s.tile_rows + 1);  // one tile and one row: two warps
      if (s.tile_rows > 0) row_counts.push_back(4 * s.tile_rows - 1);  // one block, its last tile short
    }
    for (std::int64_t rows : row_counts) {
      INFO("cols " << cols << ", rows " << rows);
      check({rows, cols}, stream);
    }
  }
}

TEST_CASE("staged_rows on large odd tensors and rank 3", "[gpu][softmax][staged_rows]") {
  CudaStream stream;
  for (const Shape& shape : std::vector<Shape>{{3, 1001, 61}, {7, 33, 47}, {5, 3, 17}, {100003, 33}, {65537, 61},
                                               {262147, 23}, {61}, {31, 101, 29}}) {
    check(shape, stream);
  }
}

TEST_CASE("staged_rows on tensors that are not 16-byte aligned falls back and still matches the reference",
          "[gpu][softmax][staged_rows]") {
  CudaStream stream;
  for (std::int64_t cols : {17, 33, 61}) {
    for (int offset : {1, 3}) {
      check_unaligned<__half>(DType::f16, 4099, cols, offset, stream);
      check_unaligned<__nv_bfloat16>(DType::bf16, 4099, cols, offset, stream);
    }
  }
  for (std::int64_t cols : {9, 31}) check_unaligned<float>(DType::f32, 4099, cols, 1, stream);
}
