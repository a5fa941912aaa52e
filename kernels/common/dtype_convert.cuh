#pragma once
/// Conversions between the element types kbench's kernels store (fp32, fp16, bf16) and the fp32
/// they compute in. Device code only: included by the .cu files of kernels/<op>/.
///
/// Contract: to_float is exact for every element type; from_float<T> rounds to nearest even
/// (the fp32 case is the identity), so a kernel rounds once, on the store.

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <cstring>

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

/// The two 16-bit elements of a 4-byte word as fp32 (exact), the lower address first.
template <typename T>
__device__ __forceinline__ float2 unpack_pair(std::uint32_t word);
template <>
__device__ __forceinline__ float2 unpack_pair<__half>(std::uint32_t word) {
  __half2 pair;
  memcpy(&pair, &word, 4);
  return __half22float2(pair);
}
template <>
__device__ __forceinline__ float2 unpack_pair<__nv_bfloat16>(std::uint32_t word) {
  return {__uint_as_float(word << 16), __uint_as_float(word & 0xffff0000u)};
}

/// The 4 bytes of a 16-bit pair (__half2, __nv_bfloat162) as one word.
template <typename Pair>
__device__ __forceinline__ std::uint32_t word_of(const Pair& pair) {
  static_assert(sizeof(Pair) == 4, "a pair of 16-bit values");
  std::uint32_t word;
  memcpy(&word, &pair, 4);
  return word;
}

/// Two fp32 values rounded to 16-bit T (nearest even) in one 4-byte word, `low` at the lower address.
template <typename T>
__device__ __forceinline__ std::uint32_t pack_pair(float low, float high);
template <>
__device__ __forceinline__ std::uint32_t pack_pair<__half>(float low, float high) {
  return word_of(__floats2half2_rn(low, high));
}
template <>
__device__ __forceinline__ std::uint32_t pack_pair<__nv_bfloat16>(float low, float high) {
  return word_of(__floats2bfloat162_rn(low, high));
}

}  // namespace kbench
