#pragma once
/// The 16-byte vectors that kbench's bandwidth-bound kernels load and store (one 128-bit
/// LDG/STG per thread instead of four or eight narrow ones). Included by .cu files only.
///
/// Contract: a pointer may be read or written as uint4 only when aligned16() holds for it; the
/// kernels fall back to (or throw for) scalar access otherwise.

#include <cstdint>

namespace kbench {

/// Elements of T in one 16-byte vector: 4 fp32 or 8 fp16/bf16.
template <typename T>
constexpr int kVector = 16 / sizeof(T);

/// True when `p` may be accessed as 16-byte vectors. Host (launchers) and device (kernels that
/// pick the vector path at run time).
__host__ __device__ __forceinline__ bool aligned16(const void* p) {
  return reinterpret_cast<std::uintptr_t>(p) % 16 == 0;
}

/// The unsigned vector type of `Bytes` bytes (16: uint4, 8: uint2) that a thread loads or stores
/// as one instruction.
template <int Bytes>
struct LoadOf;
template <>
struct LoadOf<16> {
  using type = uint4;
};
template <>
struct LoadOf<8> {
  using type = uint2;
};

}  // namespace kbench
