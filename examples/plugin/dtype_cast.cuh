#pragma once
// Loads and stores of fp32, fp16 and bf16 elements with fp32 math, and the host's dtype dispatch.

#include <kbench/types.hpp>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

namespace example {

__device__ __forceinline__ float to_float(float v) { return v; }
__device__ __forceinline__ float to_float(__half v) { return __half2float(v); }
__device__ __forceinline__ float to_float(__nv_bfloat16 v) { return __bfloat162float(v); }

template <class T> __device__ __forceinline__ T from_float(float v);
template <> __device__ __forceinline__ float from_float<float>(float v) { return v; }
template <> __device__ __forceinline__ __half from_float<__half>(float v) { return __float2half_rn(v); }
template <> __device__ __forceinline__ __nv_bfloat16 from_float<__nv_bfloat16>(float v) { return __float2bfloat16_rn(v); }

/// Calls f(T{}) with T the element type of `dtype` (fp32, fp16, bf16).
template <class F>
void dispatch(kbench::DType dtype, F&& f) {
  switch (dtype) {
    case kbench::DType::f32: f(float{}); return;
    case kbench::DType::f16: f(__half{}); return;
    case kbench::DType::bf16: f(__nv_bfloat16{}); return;
    default: throw std::invalid_argument("the example plugin runs fp32, fp16 and bf16 only");
  }
}

/// The plugin links its own CUDA runtime, whose launch errors kbench's runtime does not see:
/// each launch checks its own.
inline void check_launch(const char* kernel) {
  const cudaError_t error = cudaGetLastError();
  if (error != cudaSuccess) throw std::runtime_error(std::string(kernel) + ": " + cudaGetErrorString(error));
}

}  // namespace example
