#pragma once
/// The one place where a runtime DType becomes a C++ element type.

#include "harness/ops/dtype.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <stdexcept>

namespace kbench {

template <typename T>
struct TypeTag {
  using type = T;
};

/// Calls `f(TypeTag<T>{})` with T = float (fp32 and tf32), __half or __nv_bfloat16 for `dtype`.
template <typename F>
decltype(auto) dispatch_dtype(DType dtype, F&& f) {
  switch (dtype) {
    case DType::f32:
    case DType::tf32: return f(TypeTag<float>{});
    case DType::f16: return f(TypeTag<__half>{});
    case DType::bf16: return f(TypeTag<__nv_bfloat16>{});
  }
  throw std::logic_error("dispatch_dtype: unhandled dtype");
}

}  // namespace kbench
