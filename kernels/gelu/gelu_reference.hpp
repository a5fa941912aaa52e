#pragma once
/// The CPU reference and the tolerances GELU outputs are held to. Host-only.

#include "harness/ops/dtype.hpp"
#include "harness/ops/verification.hpp"
#include "kernels/gelu/gelu_kernels.hpp"

#include <vector>

namespace kbench::gelu {

/// GELU of each element in double from the exact dtype values, by the formula of `form`.
std::vector<double> reference_gelu(Form form, const std::vector<float>& x);

// The fused, vectorized, blocked and CUB kernels (fp32 math, one rounding on store) are held to
// fp32_math_tolerance (harness/ops/verification.hpp).

/// The manual chain, every step rounded to the dtype: fp32_math_tolerance's abs and rel plus a
/// `scaled` term to be multiplied by |x| per element (see gelu_reference.cpp for why the error
/// grows with |x|).
Tolerance manual_gelu_tolerance(DType dtype);

}  // namespace kbench::gelu
