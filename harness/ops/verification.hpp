#pragma once
/// Comparing a kernel's output with a higher-precision reference. Host-only.

#include "harness/ops/dtype.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kbench {

/// Tolerance for an output that is one correctly rounded operation away from the reference in
/// `dtype` (elementwise ops): a few units in the last place of that dtype.
Tolerance elementwise_tolerance(DType dtype);

/// Tolerance for an output computed in fp32 through several steps (exponentials, divisions,
/// reductions) and rounded once to `dtype` on store, shared by the ops whose kernels do that
/// (GELU, softmax): fp32 {abs 1e-7, rel 1e-5}, fp16 {1e-6, 2e-3}, bf16 {1e-6, 1.6e-2}.
/// In fp16 and bf16 the rounding on store dominates, so rel is elementwise_tolerance's; fp32
/// allows the few ulps of the approximate exp2/division steps. The abs term covers fp16
/// subnormals (softmax rows of 64K have outputs near 1e-7, where fp16 keeps steps of 6e-8).
Tolerance fp32_math_tolerance(DType dtype);

struct Verification {
  bool passed = false;
  std::int64_t checked = 0;         ///< elements compared
  std::int64_t mismatches = 0;      ///< elements outside the tolerance (NaN and Inf included)
  std::int64_t first_mismatch = -1; ///< flat index of the first one, -1 if none
  double max_abs_error = 0;
  double rel_l2_error = 0;          ///< ||out - ref|| / ||ref||
  Tolerance tolerance;
  std::string message;              ///< one line for tables and logs
  /// Wall time of the variant's first call on this workload (ms), when the verification made it:
  /// launch to stream drained (harness/ops/first_call.hpp).
  std::optional<double> first_call_ms;
};

/// What an element may differ from its reference by: abs + rel·|reference| + scaled·scale, the
/// scaled term only where the tolerance has one (an infinite scale times 0 would make it NaN).
double allowed_error(const Tolerance& tolerance, double reference, double scale);

/// Compares `output` with `reference` element by element; `scale` is empty or one per element.
Verification compare_with_reference(const std::vector<float>& output, const std::vector<double>& reference,
                                    Tolerance tolerance, const std::vector<double>& scale = {});

}  // namespace kbench
