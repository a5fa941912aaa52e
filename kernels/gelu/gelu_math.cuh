#pragma once
/// The GELU formulas in fp32, shared by the fused, vectorized and CUB kernels (the same functor
/// in all three) and by the steps of the manual chain; the conversions around them are
/// kernels/common/dtype_convert.cuh's. Included by the .cu files of kernels/gelu/ only.

#include "kernels/common/dtype_convert.cuh"
#include "kernels/common/fast_math.cuh"

#include <type_traits>

namespace kbench::gelu {

/// sqrt(2 / pi) and the cubic coefficient of the tanh approximation.
constexpr float kTanhScale = 0.79788456f;
constexpr float kTanhCubic = 0.044715f;
/// 1 / sqrt(2).
constexpr float kInvSqrt2 = 0.70710678f;

/// 0.5 x (1 + tanh(u)), u = sqrt(2/pi) (x + 0.044715 x^3), evaluated as x / (1 + e^(-2u)).
///
/// The two are equal (0.5 (1 + tanh(u)) = 1 / (1 + e^(-2u)), the logistic function of 2u), but
/// the literal form cancels for negative x: tanh(u) rounds to within an ulp of -1, and 1 + tanh(u)
/// keeps almost no correct bits, so the result (about -2e-7 at x = -5) would carry an absolute
/// error of |x| * 2^-24, far above its own size. The logistic form has no subtraction and stays
/// within a few ulps everywhere. e^(-2u) is computed as 2^(x * (A x^2 + B)) with the constants
/// folded (A = -2 log2(e) sqrt(2/pi) 0.044715, B = -2 log2(e) sqrt(2/pi)): three FP32 ops and the
/// hardware's ex2. For very negative x the power overflows to +inf and x / inf gives -0, the
/// correctly rounded limit. __fdividef is accurate to 2 ulp for denominators below 2^126.
struct GeluTanh {
  __device__ float operator()(float x) const {
    constexpr float kB = -2.0f * 1.4426950408889634f * kTanhScale;
    constexpr float kA = kB * kTanhCubic;
    const float power = x * fmaf(kA, x * x, kB);
    return __fdividef(x, 1.0f + exp2f(power));
  }
};

/// 0.5 x (1 + erf(x / sqrt 2)) = x * Phi(x), Phi the normal CDF, with Phi from erfc:
///     Phi(x) = erfc(|x| / sqrt 2) / 2        for x < 0,
///     Phi(x) = 1 - erfc(|x| / sqrt 2) / 2    for x >= 0,
/// so erfc only ever sees z = |x| / sqrt 2 >= 0 and nothing cancels for negative x (where
/// 1 + erf(z) would keep almost no correct bits, as 1 + tanh does above).
///
/// erfc(z) for z >= 0 is the Chebyshev fit of Numerical Recipes (Press et al., 2nd ed., section
/// 6.2, fractional error below 1.2e-7 everywhere):
///     erfc(z) = t exp(-z^2 + P(t)),   t = 1 / (1 + z / 2),   P a polynomial of degree 9,
/// one reciprocal, nine FMAs and one ex2: about 25 instructions where CUDA's erfcf takes about 50,
/// which made this op ALU-bound in fp16/bf16 (39 % of peak bandwidth at 8192^2 on an H200, against
/// 81 % for the tanh form). -z^2 = -x^2 / 2 is taken from the exact product x^2 = hi + lo (one
/// FMA recovers lo), so the exponent is not rounded before the exponential. Relative error of the
/// result in fp32, measured against double on a 4M-point grid: 1.9e-6 for |x| <= 5, 7e-6 at
/// |x| = 10; beyond about |x| = 13 the negative side underflows to -0, the correctly rounded
/// limit within any absolute tolerance.
struct GeluErf {
  __device__ float operator()(float x) const {
    constexpr float kLog2e = 1.4426950408889634f;
    const float z = fabsf(x) * kInvSqrt2;
    const float t = __fdividef(1.0f, fmaf(0.5f, z, 1.0f));
    float p = 0.17087277f;
    p = fmaf(p, t, -0.82215223f);
    p = fmaf(p, t, 1.48851587f);
    p = fmaf(p, t, -1.13520398f);
    p = fmaf(p, t, 0.27886807f);
    p = fmaf(p, t, -0.18628806f);
    p = fmaf(p, t, 0.09678418f);
    p = fmaf(p, t, 0.37409196f);
    p = fmaf(p, t, 1.00002368f);
    p = fmaf(p, t, -1.26551223f);
    const float square_hi = x * x;
    const float square_lo = fmaf(x, x, -square_hi);
    const float exponent = fmaf(-0.5f, square_lo, fmaf(-0.5f, square_hi, p));
    const float half_erfc = 0.5f * t * exp2f(exponent * kLog2e);
    return x * (x < 0.0f ? half_erfc : 1.0f - half_erfc);
  }
};

/// The erf form for fp16 and bf16 tensors: the same x * Phi(x) with Phi from erfc as GeluErf,
/// cut to what a 16-bit result can show (about 17 instructions instead of 25):
///   - P(t) of degree 7, fitted here (Chebyshev least squares reweighted towards minimax on
///     t in [0.17, 1], i.e. |x| <= 13.2, below which the negative side is under 1e-38): relative
///     error of erfc 6.3e-7, against 1.2e-7 for the degree-9 fit and 2.4e-4 for half an fp16 ulp;
///   - x^2 is exact in fp32 for a 16-bit input (at most 11 significant bits), so the lo term goes;
///   - log2(e) and the factor 1/2 of Phi are folded into the coefficients (the constant term
///     carries the -1 of the exponent), so the polynomial yields log2(erfc(z) / 2 / t) + z^2 log2(e);
///   - the reciprocal and ex2 are the approximate MUFU instructions with denormals flushed:
///     a flushed erfc/2 below 2^-126 gives a result below the smallest bf16 normal and fp16 value.
/// Exhaustively over every finite fp16 input (simulated in fp32 with numpy), 22 of 63,488
/// outputs differ from the correctly rounded value, each by one ulp (6 for GeluErf).
struct GeluErf16BitInput {
  __device__ float operator()(float x) const {
    constexpr float kHalfOverSqrt2 = 0.35355339f;  // t = 1 / (1 + z / 2), z = |x| / sqrt 2
    constexpr float kMinusHalfLog2e = -0.72134752f;
    const float t = fast_reciprocal(fmaf(fabsf(x), kHalfOverSqrt2, 1.0f));
    float q = -0.264238864f;
    q = fmaf(q, t, 1.05572534f);
    q = fmaf(q, t, -1.39375794f);
    q = fmaf(q, t, 0.457289666f);
    q = fmaf(q, t, -0.0316956043f);
    q = fmaf(q, t, 0.560554147f);
    q = fmaf(q, t, 1.4418987f);
    q = fmaf(q, t, -2.82577634f);
    const float power = fast_exp2(fmaf(kMinusHalfLog2e, x * x, q));
    const float half_erfc = t * power;
    return x * (x < 0.0f ? half_erfc : 1.0f - half_erfc);
  }
};

/// The erf form an element type uses: GeluErf16BitInput for fp16 and bf16, GeluErf for fp32.
template <typename T>
using GeluErfFor = std::conditional_t<sizeof(T) == 2, GeluErf16BitInput, GeluErf>;

/// One element of the op in dtype T: widen, GELU in fp32, round to nearest even on store. The
/// functor the fused and vectorized kernels apply and the one handed to cub::DeviceTransform.
template <typename T, typename Form>
struct GeluFunctor {
  __device__ T operator()(T x) const { return from_float<T>(Form{}(to_float(x))); }
};

}  // namespace kbench::gelu
