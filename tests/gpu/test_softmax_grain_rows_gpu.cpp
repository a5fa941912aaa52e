// softmax's grain_rows kernel, and `auto` where it takes it, against the CPU reference through the
// workload's verification (guard bytes, poisoned outputs, two input sets), in fp32, fp16 and bf16:
// odd widths (single-element grains, rows starting at any 2-byte offset), even widths whose grain
// is 2-8 elements, rows of whole 16-byte vectors (auto's too), odd row counts (the last warp's rows run past the tensor), ranks 1 and 3, and
// widths past 256 (the short_rows fallback). First the smallest case, so that a broken kernel
// fails with a clear name.
#include "harness/device/cuda_resources.hpp"
#include "support/catch.hpp"
#include "support/verify_variants.hpp"

#include "kbench/ops/softmax.hpp"

#include <string>
#include <vector>

using namespace kbench;

namespace {

/// Verifies softmax's `names` on `shape` in every dtype, each comparing every element.
void check(const Shape& shape, const std::vector<std::string>& names, CudaStream& stream) {
  test::verify_variants(*test::all_ops().find("softmax"), shape, names, stream, element_count(shape));
}

}  // namespace

TEST_CASE("grain_rows, smallest case: 3 rows of 7 elements", "[gpu][softmax][grain_rows]") {
  CudaStream stream;
  check({3, 7}, {"grain_rows"}, stream);
}

TEST_CASE("grain_rows and auto on widths 1-256 with odd row counts", "[gpu][softmax][grain_rows]") {
  // Row counts: one row, fewer than one warp's rows, and several blocks' worth ending mid-warp.
  CudaStream stream;
  for (std::int64_t cols : {1, 3, 7, 61, 100, 127, 255, 2, 4, 8, 12, 16, 32, 33, 64, 96, 128, 129, 200, 256}) {
    for (std::int64_t rows : {1, 5, 4099, 30011}) check({rows, cols}, {"grain_rows", "auto"}, stream);
  }
}

TEST_CASE("grain_rows on large odd tensors, ranks 1 and 3, and past 256 columns", "[gpu][softmax][grain_rows]") {
  CudaStream stream;
  for (const Shape& shape : std::vector<Shape>{{1000003, 33}, {262147, 61}, {65537, 100}, {100003, 7}, {65537, 129},
                                               {7}, {255}, {3, 5, 129}, {7, 11, 13}, {20011, 257}, {3001, 1000},
                                               {1048577, 32}, {262147, 64}, {3, 4099, 16}}) {
    check(shape, {"grain_rows", "auto"}, stream);
  }
}
