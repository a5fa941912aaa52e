#pragma once
/// CPU references for the reductions, in double, with the per-output magnitude (sum of |x|) that
/// bounds fp32 accumulation error. Host-only.

#include "harness/ops/dtype.hpp"
#include "harness/ops/verification.hpp"
#include "kernels/sum/sum_kernels.hpp"

#include <cstdint>
#include <vector>

namespace kbench::sum {

struct ReductionReference {
  std::vector<double> values;
  std::vector<double> scale;  ///< per output: the sum of the |x| it folds
};

/// All n elements into one value.
ReductionReference reference_full(const std::vector<float>& x);

/// Each of `rows` rows of `cols` elements into one value.
ReductionReference reference_rows(const std::vector<float>& x, std::int64_t rows, std::int64_t cols, Reduction reduction);

/// Each of `cols` columns summed over `rows` rows.
ReductionReference reference_columns(const std::vector<float>& x, std::int64_t rows, std::int64_t cols);

/// Output rounding in `dtype` plus fp32 accumulation error scaled by the sum of |x|; a max is exact.
Tolerance reduction_tolerance(DType dtype, Reduction reduction);

}  // namespace kbench::sum
