#pragma once
/// The softmax op's view of one problem: y = softmax(x) over the last axis, the tensor seen as
/// rows x cols (rows = product of the leading extents, cols = the last), row-major. Public API.

#include "kbench/types.hpp"

#include <cstdint>

namespace kbench {

struct SoftmaxArgs {
  static constexpr const char* kind = "softmax";
  DType dtype = DType::f32;  ///< of x and y; the math is fp32
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  const void* x = nullptr;   ///< rows x cols
  void* y = nullptr;         ///< rows x cols
  Device device;
};

}  // namespace kbench
