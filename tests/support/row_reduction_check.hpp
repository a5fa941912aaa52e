#pragma once
// GPU tests: the outputs a row-reduction launcher wrote, against the fp64 reference of its input.

#include "harness/ops/host_tensor.hpp"
#include "kernels/sum/reduction_reference.hpp"
#include "kernels/sum/sum_kernels.hpp"

#include <cmath>
#include <cstdint>
#include <vector>

namespace kbench::test {

/// How many of the `rows` outputs in `out_bytes` (dtype elements, one per row) miss the
/// reference of x's rows of `cols` by more than the reduction's tolerance.
inline std::int64_t rows_off_reference(DType dtype, const std::vector<std::uint8_t>& out_bytes,
                                       const std::vector<float>& x, std::int64_t rows, std::int64_t cols,
                                       sum::Reduction reduction) {
  const std::vector<float> got = decode_to_float(dtype, out_bytes.data(), static_cast<std::size_t>(rows));
  const sum::ReductionReference want = sum::reference_rows(x, rows, cols, reduction);
  const Tolerance tol = sum::reduction_tolerance(dtype, reduction);
  std::int64_t bad = 0;
  for (std::size_t r = 0; r < got.size(); ++r) {
    const double allowed = tol.abs + tol.rel * std::fabs(want.values[r]) + tol.scaled * want.scale[r];
    if (!(std::fabs(got[r] - want.values[r]) <= allowed)) ++bad;
  }
  return bad;
}

}  // namespace kbench::test
