// softmax's body_rows kernel against the CPU reference through the workload's
// verification (guard bytes, poisoned outputs, two input sets), in fp32 (8-1024 columns, 4-element
// vectors), fp16 and bf16 (16-2048): odd widths whose rows start at every phase of a 16-byte
// boundary, even widths that are not whole vectors, whole-vector widths (no head, no tail), odd
// row counts (the last warp's rows run past the tensor), ranks 1 and 3, 1-8 body vectors a lane,
// and widths outside the range (the grain_rows fallback). First the smallest case, so that
// a broken kernel fails with a clear name. Then register_row's odd widths past 1024 columns.
#include "harness/device/cuda_resources.hpp"
#include "support/catch.hpp"
#include "support/verify_variants.hpp"

#include "kbench/ops/softmax.hpp"

#include <string>
#include <vector>

using namespace kbench;

namespace {

void check(const Shape& shape, const std::vector<std::string>& names, CudaStream& stream) {
  test::verify_variants(*test::all_ops().find("softmax"), shape, names, stream, element_count(shape));
}

const std::vector<std::string> kBodyRows{"body_rows"};

}  // namespace

TEST_CASE("body_rows, smallest case: 3 rows of 25 elements", "[gpu][softmax][body_rows]") {
  CudaStream stream;
  check({3, 25}, kBodyRows, stream);
}

TEST_CASE("body_rows on widths 16-256 with odd row counts", "[gpu][softmax][body_rows]") {
  CudaStream stream;
  for (std::int64_t cols : {25, 33, 61, 100, 127, 129, 255, 16, 17, 23, 31, 62, 64, 96, 200, 254, 256, 9, 10, 13}) {
    for (std::int64_t rows : {1, 5, 4099, 30011}) check({rows, cols}, kBodyRows, stream);
  }
}

TEST_CASE("body_rows on widths 257-1024 (2-4 body vectors a lane in 16-bit, up to 8 in fp32) with odd row counts",
          "[gpu][softmax][body_rows]") {
  CudaStream stream;
  for (std::int64_t cols : {257, 263, 264, 300, 385, 509, 510, 511, 512, 513, 519, 520, 777, 999, 1017, 1020, 1023, 1024}) {
    for (std::int64_t rows : {1, 5, 4099}) check({rows, cols}, kBodyRows, stream);
  }
}

TEST_CASE("body_rows on widths 1025-2048 (8 body vector slots a lane, exponentials computed twice) with odd row counts",
          "[gpu][softmax][body_rows]") {
  // 8 slots from 129 body vectors: 16-bit from 1032 columns (1025-1031 hold 4), fp32 from 516.
  // Rows whose last slots are empty on most lanes (1032-1039, fp32 516-519) and full (2047, 2048),
  // at every phase.
  CudaStream stream;
  for (std::int64_t cols : {1025, 1031, 1032, 1033, 1039, 1071, 1100, 1283, 1407, 1999, 2040, 2047, 2048, 516, 519,
                            600, 777, 1000}) {
    for (std::int64_t rows : {1, 5, 4099}) check({rows, cols}, kBodyRows, stream);
  }
}

TEST_CASE("body_rows on large odd tensors, ranks 1 and 3, and outside 16-2048 columns", "[gpu][softmax][body_rows]") {
  CudaStream stream;
  for (const Shape& shape : std::vector<Shape>{{1000003, 33}, {262147, 61}, {65537, 100}, {65537, 129}, {131071, 255},
                                               {61}, {255}, {999}, {3, 5, 129}, {7, 11, 61}, {7, 2047, 999},
                                               {20011, 515}, {100003, 7}, {20011, 1025}, {32715, 1071},
                                               {3, 1999}, {5, 7, 1283}, {301, 2049}, {65, 4097}}) {
    check(shape, kBodyRows, stream);
  }
}

TEST_CASE("register_row and auto on rows of 513 columns and more", "[gpu][softmax][register_row]") {
  // register_row: the row's aligned body in registers, its head and tail one element per thread:
  // widths whose rows start at every phase of a 16-byte boundary, each block size (128-1024
  // threads), up to 4095 16-bit vectors' worth, and odd row counts. auto: the same shapes, and
  // the edges of its body_rows range.
  CudaStream stream;
  const std::vector<std::string> names{"register_row", "auto"};
  for (const Shape& shape : std::vector<Shape>{{301, 1025}, {263, 1999}, {265, 3001}, {7, 2047, 2053}, {17, 8191},
                                               {5, 16383}, {3, 32767}, {300, 4097}, {1, 1031},
                                               {301, 999}, {289, 1023},  // auto's fp32 769-1024 route
                                               {4099, 1283}, {263, 1535}, {263, 1600}, {263, 1601},  // auto's body_rows to 1600
                                               {301, 520}, {300, 1024}, {7, 3, 1032}, {263, 1536}}) {  // and whole vectors from 513
    check(shape, names, stream);
  }
}

TEST_CASE("auto on rows of 48-512 columns: body_rows for odd fp32 widths, short_rows for whole fp32 vectors",
          "[gpu][softmax][body_rows]") {
  CudaStream stream;
  const std::vector<std::string> names{"auto"};
  for (const Shape& shape : std::vector<Shape>{{301, 260}, {1001, 129}, {517, 385}, {299, 512}, {3, 61}, {263, 511},
                                               {5, 3, 257}, {300, 48}, {300, 49}}) {
    check(shape, names, stream);
  }
}
