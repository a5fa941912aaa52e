#pragma once
/// The GELU ops' view of one problem: y = gelu(x) over n elements, for gelu_tanh (the tanh
/// approximation) and gelu_erf (the exact form) alike. Public API.

#include "kbench/types.hpp"

#include <cstdint>

namespace kbench {

struct GeluArgs {
  static constexpr const char* kind = "gelu";
  DType dtype = DType::f32;  ///< of x and y; the math is fp32
  std::int64_t n = 0;        ///< elements
  const void* x = nullptr;
  void* y = nullptr;
  Device device;
};

}  // namespace kbench
