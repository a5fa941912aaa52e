#pragma once
/// The add op's view of one problem: c = a + b over n elements (any shape, flat). Public API.

#include "kbench/types.hpp"

#include <cstdint>

namespace kbench {

struct AddArgs {
  static constexpr const char* kind = "add";
  DType dtype = DType::f32;  ///< of a, b and c
  std::int64_t n = 0;        ///< elements of each tensor
  const void* a = nullptr;   ///< n elements of dtype
  const void* b = nullptr;   ///< n elements of dtype
  void* c = nullptr;         ///< n elements of dtype
  Device device;
};

}  // namespace kbench
