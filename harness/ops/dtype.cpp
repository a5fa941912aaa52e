#include "harness/ops/dtype.hpp"

namespace kbench {

const std::vector<DType>& all_dtypes() {
  static const std::vector<DType> dtypes{DType::f32, DType::f16, DType::bf16};
  return dtypes;
}

DType storage_dtype(DType dtype) { return dtype == DType::tf32 ? DType::f32 : dtype; }

std::string_view dtype_name(DType dtype) {
  switch (dtype) {
    case DType::f32: return "fp32";
    case DType::f16: return "fp16";
    case DType::bf16: return "bf16";
    case DType::tf32: return "tf32";
  }
  return "unknown";
}

std::size_t dtype_size(DType dtype) {
  switch (dtype) {
    case DType::f32: return 4;
    case DType::f16: return 2;
    case DType::bf16: return 2;
    case DType::tf32: return 4;
  }
  return 0;
}

std::optional<DType> parse_dtype(std::string_view text) {
  if (text == "fp32" || text == "f32" || text == "float32" || text == "float") return DType::f32;
  if (text == "fp16" || text == "f16" || text == "float16" || text == "half") return DType::f16;
  if (text == "bf16" || text == "bfloat16") return DType::bf16;
  if (text == "tf32") return DType::tf32;
  return std::nullopt;
}

}  // namespace kbench
