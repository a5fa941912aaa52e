#pragma once
/// The CPU reference and the tolerances softmax outputs are held to. Host-only.

#include "harness/ops/dtype.hpp"
#include "harness/ops/verification.hpp"

#include <cstdint>
#include <vector>

namespace kbench::softmax {

/// softmax over each row of a rows x cols row-major matrix, in double from the exact dtype
/// values: the row maximum is subtracted first, as in the kernels.
std::vector<double> reference_softmax(const std::vector<float>& x, std::int64_t rows, std::int64_t cols);

// The kernels that compute in fp32 and round once on store are held to fp32_math_tolerance
// (harness/ops/verification.hpp).

/// The manual chain, whose intermediates x - max and e^(x - max) are rounded to the dtype: wider
/// than fp32_math_tolerance in fp16 and bf16 only (see softmax_reference.cpp for the error budget).
Tolerance manual_softmax_tolerance(DType dtype);

}  // namespace kbench::softmax
