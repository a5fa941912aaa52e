#pragma once
/// The reduction ops' view of one problem (sum_full, sum_inner, max_inner, sum_outer): the input
/// seen as rows x cols, row-major (rows = product of the leading extents, cols = the last).
/// Public API.
///
///   sum_full   y[0] = sum of all rows x cols elements
///   sum_inner  y[r] = sum over the row r     (rows outputs)
///   max_inner  y[r] = max over the row r     (rows outputs)
///   sum_outer  y[c] = sum over the column c  (cols outputs)
/// Accumulate in fp32; y is in the input's dtype.

#include "kbench/types.hpp"

#include <cstdint>

namespace kbench {

struct ReductionArgs {
  static constexpr const char* kind = "reduction";
  DType dtype = DType::f32;
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  const void* x = nullptr;  ///< rows x cols
  void* y = nullptr;        ///< 1, rows or cols elements (above)
  Device device;
};

}  // namespace kbench
