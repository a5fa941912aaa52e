// softmax's warp_rows kernel (no longer an `auto` route since session 15; auto is checked beside it on
// the same shapes), against the CPU reference through the
// workload's verification (guard bytes, poisoned outputs, two input sets): widths 1-256 that are
// mostly odd (16-bit rows then start on a word or halfway into one, and the word at each end is
// shared with the neighbouring row), odd row counts (the last warp's rows run past the tensor),
// and a width of whole vectors. First the smallest case, so that a broken kernel fails with a
// clear name.
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

TEST_CASE("warp_rows, smallest case: 3 rows of 7 elements", "[gpu][softmax][warp_rows]") {
  CudaStream stream;
  check({3, 7}, {"warp_rows"}, stream);
}

TEST_CASE("warp_rows and auto on widths 1-256 with odd row counts", "[gpu][softmax][warp_rows]") {
  // Row counts: fewer than one warp's rows, and several blocks' worth ending mid-warp.
  CudaStream stream;
  for (std::int64_t cols : {1, 2, 3, 7, 31, 33, 61, 100, 127, 129, 255, 256}) {
    for (std::int64_t rows : {1, 5, 4099, 30011}) check({rows, cols}, {"warp_rows", "auto"}, stream);
  }
}

TEST_CASE("warp_rows on large odd tensors and ranks 1 and 3", "[gpu][softmax][warp_rows]") {
  CudaStream stream;
  for (const Shape& shape : std::vector<Shape>{{1000003, 33}, {262147, 61}, {65537, 100}, {100003, 7}, {7},
                                               {255}, {3, 5, 129}, {7, 11, 13}, {20011, 257}}) {
    check(shape, {"warp_rows", "auto"}, stream);
  }
}
