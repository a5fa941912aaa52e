#pragma once
/// Conversions between the element types kbench's kernels store (fp32, fp16, bf16) and the fp32
/// they compute in. Device code only: included by the .cu files of kernels/<op>/.
///
/// Contract: to_float is exact for every element type; from_float<T> rounds to nearest even
/// (the fp32 case is the identity), so a kernel rounds once, on the store.

#include <cuda_bf16.h>
#include <cuda_fp16.h>

namespace kbench {

/// Widens an element to fp32 (exact).
__device__ __forceinline__ float to_float(float x) { return x; }
/// Widens an fp16 element to fp32 (exact).
__device__ __forceinline__ float to_float(__half x) { return __half2float(x); }
/// Widens a bf16 element to fp32 (exact).
__device__ __forceinline__ float to_float(__nv_bfloat16 x) { return __bfloat162float(x); }

/// Rounds an fp32 value to the element type T (round to nearest even).
template <typename T>
__device__ __forceinline__ T from_float(float x);
template <>
__device__ __forceinline__ float from_float<float>(float x) { return x; }
template <>
__device__ __forceinline__ __half from_float<__half>(float x) { return __float2half_rn(x); }
template <>
__device__ __forceinline__ __nv_bfloat16 from_float<__nv_bfloat16>(float x) { return __float2bfloat16_rn(x); }

}  // namespace kbench
