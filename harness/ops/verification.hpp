#pragma once
/// Comparing a kernel's output with a higher-precision reference. Host-only.

#include "harness/ops/dtype.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace kbench {

/// An element passes when |out - ref| <= abs + rel * |ref| + scaled * scale[i]; NaN or Inf
/// never passes. `scale` is a per-element magnitude the rounding error of a long accumulation
/// grows with (for a sum or dot product: the sum of the absolute values of its terms), so that
/// results that cancel to near zero are still held to a meaningful bound.
struct Tolerance {
  double abs = 0;
  double rel = 0;
  double scaled = 0;
};

/// Tolerance for an output that is one correctly rounded operation away from the reference in
/// `dtype` (elementwise ops): a few units in the last place of that dtype.
Tolerance elementwise_tolerance(DType dtype);

struct Verification {
  bool passed = false;
  std::int64_t checked = 0;         ///< elements compared
  std::int64_t mismatches = 0;      ///< elements outside the tolerance (NaN and Inf included)
  std::int64_t first_mismatch = -1; ///< flat index of the first one, -1 if none
  double max_abs_error = 0;
  double rel_l2_error = 0;          ///< ||out - ref|| / ||ref||
  Tolerance tolerance;
  std::string message;              ///< one line for tables and logs
};

/// Compares `output` with `reference` element by element; `scale` is empty or one per element.
Verification compare_with_reference(const std::vector<float>& output, const std::vector<double>& reference,
                                    Tolerance tolerance, const std::vector<double>& scale = {});

}  // namespace kbench
