#pragma once
/// Element types kbench benchmarks, with their names and sizes. Host-only: no CUDA headers.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kbench/types.hpp"

namespace kbench {

/// The storage dtypes every elementwise op supports, in display order (tf32 is matmul's own).
const std::vector<DType>& all_dtypes();

/// The dtype whose bytes a `dtype` tensor holds: fp32 for tf32, itself otherwise.
DType storage_dtype(DType dtype);

/// Canonical name: "fp32", "fp16", "bf16".
std::string_view dtype_name(DType dtype);

/// Bytes per element.
std::size_t dtype_size(DType dtype);

/// Parses a canonical name or a common alias (float32, half, bfloat16, ...).
std::optional<DType> parse_dtype(std::string_view text);

}  // namespace kbench
