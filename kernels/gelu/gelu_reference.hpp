#pragma once
/// The CPU reference and the tolerances GELU outputs are held to. Host-only.

#include "harness/ops/dtype.hpp"
#include "harness/ops/verification.hpp"
#include "kernels/gelu/gelu_kernels.hpp"

#include <vector>

namespace kbench::gelu {

/// GELU of each element in double from the exact dtype values, by the formula of `form`.
std::vector<double> reference_gelu(Form form, const std::vector<float>& x);

/// The fused kernels (fp32 math, one rounding on store): fp32 {abs 1e-7, rel 1e-5},
/// fp16 {1e-6, 2e-3}, bf16 {1e-6, 1.6e-2}.
Tolerance gelu_tolerance(DType dtype);

/// The manual chain, every step rounded to the dtype: the same abs and rel plus a `scaled` term
/// to be multiplied by |x| per element (see gelu_reference.cpp for why the error grows with |x|).
Tolerance manual_gelu_tolerance(DType dtype);

}  // namespace kbench::gelu
