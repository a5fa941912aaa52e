// The reductions on inputs that hold NaN, +inf and -inf, in every own variant and `auto`, against
// the fp64 reference: max_inner gives +inf for a row holding +inf, -inf for a row of -inf only,
// and for a row holding a NaN the largest of its other elements (fmaxf's semantics, which every
// max kernel keeps; PyTorch's max gives NaN there: MaxOp says why kbench does not); the sums give
// NaN, +inf or -inf as IEEE addition does. Shapes cover every kernel
// class (few columns, short rows, rows a warp or block holds, long rows split over blocks), with
// odd extents. Runs only where a CUDA device is present.
#include "harness/device/cuda_resources.hpp"
#include "harness/ops/defined_op.hpp"
#include "harness/ops/host_tensor.hpp"
#include "support/catch.hpp"
#include "support/special_inputs.hpp"
#include "support/verify_variants.hpp"

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

using namespace kbench;

namespace {

/// Row r of `x` (cols wide) by pattern r % 6: 0 none; 1 one NaN; 2 one +inf; 3 -inf only; 4 -inf
/// but one element; 5 one +inf and one -inf (a NaN sum, a +inf maximum; one element where cols is
/// 1). The special element's column moves with r.
void special_rows(HostTensor& x, std::int64_t rows, std::int64_t cols) {
  for (std::int64_t r = 0; r < rows; ++r) {
    const std::int64_t at = (r * 7919) % cols;
    const auto set = [&](std::int64_t c, float value) {
      set_element(x, static_cast<std::size_t>(r * cols + c), value);
    };
    switch (r % 6) {
      case 1: set(at, NAN); break;
      case 2: set(at, INFINITY); break;
      case 3:
        for (std::int64_t c = 0; c < cols; ++c) set(c, -INFINITY);
        break;
      case 4:
        for (std::int64_t c = 0; c < cols; ++c) {
          if (c != at) set(c, -INFINITY);
        }
        break;
      case 5:
        set(at, INFINITY);
        set((at + cols / 2) % cols, -INFINITY);
        break;
      default: break;
    }
  }
}

const DefinedOp& defined_op(const std::string& name) {
  return dynamic_cast<const DefinedOp&>(*test::all_ops().find(name));
}

/// Every own variant of op `name` on each shape in every dtype, rows set by special_rows.
void check_special_rows(const std::string& name, const std::vector<Shape>& shapes, CudaStream& stream) {
  const DefinedOp& op = defined_op(name);
  for (const Shape& shape : shapes) {
    const std::int64_t cols = shape.back();
    for (DType dtype : op.dtypes()) {
      const std::uint64_t seed = test::fresh_seed();
      HostTensor x = random_tensor(dtype, static_cast<std::size_t>(element_count(shape)), seed);
      special_rows(x, element_count(shape) / cols, cols);
      test::check_own_variants_on(op, Problem{shape, dtype, "test"}, x, stream,
                                  "special values by row % 6 (test_reduction_special_gpu.cpp), seed " + std::to_string(seed));
    }
  }
}

}  // namespace

TEST_CASE("max_inner and sum_inner treat NaN and infinities per row as the reference does",
          "[gpu][sum]") {
  CudaStream stream;
  const std::vector<Shape> shapes{{1000003, 3}, {262147, 7}, {65537, 61},  {30011, 129}, {4099, 1031},
                                  {513, 4097},  {37, 65537}, {5, 524287}, {3, 5, 1031}, {1, 262147}};
  for (const char* name : {"max_inner", "sum_inner"}) check_special_rows(name, shapes, stream);
}

TEST_CASE("sum_outer and sum_full propagate NaN and infinities as the reference does", "[gpu][sum]") {
  CudaStream stream;
  // sum_outer: the row patterns make columns with a NaN, with +inf, with both infinities, and
  // clean ones. sum_full: +inf alone (+inf), then a NaN as well (NaN).
  const std::vector<Shape> outer_shapes{{1048573, 7}, {65537, 64}, {4099, 1031}, {64, 262147}, {16, 1024, 257}};
  check_special_rows("sum_outer", outer_shapes, stream);
  const DefinedOp& full = defined_op("sum_full");
  for (const Shape& shape : std::vector<Shape>{{1000003}, {3001, 2999}}) {
    for (DType dtype : full.dtypes()) {
      const std::uint64_t seed = test::fresh_seed();
      const auto n = static_cast<std::size_t>(element_count(shape));
      HostTensor x = random_tensor(dtype, n, seed);
      set_element(x, n / 3, INFINITY);
      test::check_own_variants_on(full, Problem{shape, dtype, "test"}, x, stream, "one +inf, seed " + std::to_string(seed));
      set_element(x, n - 1, NAN);
      test::check_own_variants_on(full, Problem{shape, dtype, "test"}, x, stream,
                                  "one +inf and a NaN last, seed " + std::to_string(seed));
    }
  }
}
