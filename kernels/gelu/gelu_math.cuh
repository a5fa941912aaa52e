#pragma once
/// The GELU formulas in fp32 and the conversions around them, shared by the fused, vectorized and
/// CUB kernels (the same functor in all three) and by the steps of the manual chain. Included by
/// the .cu files of kernels/gelu/ only.

#include <cuda_bf16.h>
#include <cuda_fp16.h>

namespace kbench::gelu {

__device__ __forceinline__ float to_float(float x) { return x; }
__device__ __forceinline__ float to_float(__half x) { return __half2float(x); }
__device__ __forceinline__ float to_float(__nv_bfloat16 x) { return __bfloat162float(x); }

template <typename T>
__device__ __forceinline__ T from_float(float x);
template <>
__device__ __forceinline__ float from_float<float>(float x) { return x; }
template <>
__device__ __forceinline__ __half from_float<__half>(float x) { return __float2half_rn(x); }
template <>
__device__ __forceinline__ __nv_bfloat16 from_float<__nv_bfloat16>(float x) { return __float2bfloat16_rn(x); }

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

/// 0.5 x (1 + erf(x / sqrt 2)), evaluated as 0.5 x erfc(-x / sqrt 2): the same function
/// (1 + erf(z) = erfc(-z)) without the cancellation of 1 + erf(z) for negative x. erfcf is
/// accurate to 4 ulp (CUDA Programming Guide, mathematical functions).
struct GeluErf {
  __device__ float operator()(float x) const { return 0.5f * x * erfcf(-x * kInvSqrt2); }
};

/// One element of the op in dtype T: widen, GELU in fp32, round to nearest even on store. The
/// functor the fused and vectorized kernels apply and the one handed to cub::DeviceTransform.
template <typename T, typename Form>
struct GeluFunctor {
  __device__ T operator()(T x) const { return from_float<T>(Form{}(to_float(x))); }
};

}  // namespace kbench::gelu
