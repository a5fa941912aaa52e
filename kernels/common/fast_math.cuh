#pragma once
/// The hardware's approximate special functions, one MUFU instruction each, with denormals
/// flushed (`.ftz`). Without --use_fast_math or -ftz=true (kbench builds with neither), the CUDA
/// math library's exp2f and `/` compile to the non-ftz and IEEE forms: exp2f wraps the MUFU in a
/// range check and two predicated multiplies to keep subnormal results, and the division adds a
/// refinement and a slow path. Results under 2^-126 become 0. Included by .cu files only.

namespace kbench {

/// 2^a: `ex2.approx.ftz.f32`, 2^-22 relative error.
__device__ __forceinline__ float fast_exp2(float a) {
  float r;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(a));
  return r;
}

/// log2(a): `lg2.approx.ftz.f32`, about 2^-22 absolute error over the normal range.
__device__ __forceinline__ float fast_log2(float a) {
  float r;
  asm("lg2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(a));
  return r;
}

/// 1 / a: `rcp.approx.ftz.f32`, 1 ulp.
__device__ __forceinline__ float fast_reciprocal(float a) {
  float r;
  asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(a));
  return r;
}

}  // namespace kbench
