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

/// The kernels that compute in fp32 and round once on store: fp32 {abs 1e-7, rel 1e-5},
/// fp16 {1e-6, 2e-3}, bf16 {1e-6, 1.6e-2}. The abs term covers fp16 subnormals: long rows have
/// outputs near 1e-7, where fp16 keeps steps of 6e-8.
Tolerance softmax_tolerance(DType dtype);

/// The manual chain, whose intermediates x - max and e^(x - max) are rounded to the dtype: wider
/// in fp16 and bf16 only (see softmax_reference.cpp for the error budget).
Tolerance manual_softmax_tolerance(DType dtype);

}  // namespace kbench::softmax
