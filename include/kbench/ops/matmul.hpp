#pragma once
/// The matmul op's view of one problem: C = A·B, row-major, A is m x k, B is k x n, C is m x n,
/// for a shape {m, n, k}. Accumulate in fp32. Public API.

#include "kbench/types.hpp"

#include <cstdint>

namespace kbench {

struct MatmulArgs {
  static constexpr const char* kind = "matmul";
  /// fp32 (no TF32), fp16, bf16, or tf32: fp32 storage multiplied with TF32 inputs.
  DType dtype = DType::f32;
  std::int64_t m = 0, n = 0, k = 0;
  const void* a = nullptr;  ///< m x k
  const void* b = nullptr;  ///< k x n
  void* c = nullptr;        ///< m x n
  Device device;
};

}  // namespace kbench
