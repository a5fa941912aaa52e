#pragma once
// The rmsnorm op's view of one problem: the tensor seen as rows x cols (cols = the last extent),
// y[r][c] = x[r][c] / sqrt(mean over c of x[r][c]^2 + eps) * weight[c], fp32 math.

#include <kbench/types.hpp>

#include <cstdint>

namespace example {

struct RmsNormArgs {
  static constexpr const char* kind = "example.rmsnorm";  ///< what a variant for this op must take
  kbench::DType dtype = kbench::DType::f32;  ///< of x, weight and y
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  float eps = 1e-6f;
  const void* x = nullptr;       ///< rows x cols
  const void* weight = nullptr;  ///< cols
  void* y = nullptr;             ///< rows x cols
  kbench::Device device;
};

}  // namespace example
