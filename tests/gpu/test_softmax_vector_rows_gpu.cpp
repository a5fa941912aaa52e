// softmax's vector_rows kernel and `auto`
// where it takes it, against the CPU reference through the workload's verification (guard bytes,
// poisoned outputs, two input sets), in fp32, fp16 and bf16: every width of its class (16-bit
// 1-15 but 8, fp32 1, 2, 3, 5, 6, 7), row counts below one group of R rows (the tail alone), one
// group and a tail, and tensors whose last warp tile is partial; unaligned tensors (the grain_rows
// and short_rows fallback) through the launcher itself. First the smallest case, so that a broken
// kernel fails with a clear name.
#include "harness/device/cuda_check.hpp"
#include "harness/device/cuda_resources.hpp"
#include "harness/ops/host_tensor.hpp"
#include "harness/ops/verification.hpp"
#include "kernels/softmax/softmax_kernels.hpp"
#include "kernels/softmax/softmax_reference.hpp"
#include "support/catch.hpp"
#include "support/softmax_unaligned.hpp"
#include "support/verify_variants.hpp"

#include "kbench/ops/softmax.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cmath>
#include <string>
#include <vector>

using namespace kbench;

namespace {

const std::vector<std::string> kForms{"vector_rows"};

/// Verifies softmax's `names` on `shape` in every dtype, each comparing every element.
void check(const Shape& shape, const std::vector<std::string>& names, CudaStream& stream) {
  test::verify_variants(*test::all_ops().find("softmax"), shape, names, stream, element_count(shape));
}

/// launch_vector_rows on tensors `offset` elements past a 16-byte boundary (its fallback).
template <typename T>
void check_unaligned(DType dtype, std::int64_t rows, std::int64_t cols, int offset, CudaStream& stream) {
  test::check_softmax_unaligned<T>([](auto... a) { softmax::launch_vector_rows(a...); }, dtype, rows, cols, offset,
                                   stream);
}

}  // namespace

TEST_CASE("vector_rows, smallest case: 8 rows of 7 elements (one 16-bit group, two fp32 groups)",
          "[gpu][softmax][vector_rows]") {
  CudaStream stream;
  check({8, 7}, kForms, stream);
}

TEST_CASE("vector_rows and auto on every width of the class, odd row counts", "[gpu][softmax][vector_rows]") {
  // Row counts: under one group (the tail alone), one group and a tail, several warps' tiles
  // ending mid-tile and mid-group, several blocks. Widths 9-15 in fp32 are past the class: the
  // short_rows fallback.
  CudaStream stream;
  std::vector<std::string> names = kForms;
  names.push_back("auto");
  for (std::int64_t cols : {1, 2, 3, 5, 7, 9, 13, 15, 4, 6, 10, 11, 12, 14}) {
    for (std::int64_t rows : {1, 3, 7, 9, 257, 4099, 30011}) check({rows, cols}, names, stream);
  }
}

TEST_CASE("vector_rows on large odd tensors, ranks 1 and 3, and widths past its class", "[gpu][softmax][vector_rows]") {
  CudaStream stream;
  std::vector<std::string> names = kForms;
  names.push_back("auto");
  for (const Shape& shape : std::vector<Shape>{{4194301, 3}, {1048573, 13}, {3000017, 5}, {2097151, 7}, {7},
                                               {3, 5, 7}, {11, 13, 15}, {100003, 8}, {30011, 16}, {30011, 33}}) {
    check(shape, names, stream);
  }
}

TEST_CASE("vector_rows on tensors that are not 16-byte aligned falls back and still matches the reference",
          "[gpu][softmax][vector_rows]") {
  CudaStream stream;
  for (std::int64_t cols : {1, 3, 7, 15}) {
    for (int offset : {1, 3}) {
      check_unaligned<__half>(DType::f16, 4099, cols, offset, stream);
      check_unaligned<__nv_bfloat16>(DType::bf16, 4099, cols, offset, stream);
      check_unaligned<float>(DType::f32, 4099, cols, offset, stream);
    }
  }
}
