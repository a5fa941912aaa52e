#pragma once
/// The plain types every kbench op and variant speaks in: element types, shapes, the problem one
/// case computes on, its minimum traffic, tolerances and variant roles. Header-only, CUDA-free.
/// Part of kbench's public API (kbench/plugin.hpp includes everything a plugin needs).

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace kbench {

/// Element types. tf32 is fp32 data multiplied on the tensor cores with TF32 inputs (matmul
/// only): stored, and handed to kernels, as fp32.
enum class DType { f32, f16, bf16, tf32 };

/// Bytes per stored element.
constexpr std::size_t element_size(DType dtype) { return dtype == DType::f16 || dtype == DType::bf16 ? 2 : 4; }

/// Extents, outermost first (row-major).
using Shape = std::vector<std::int64_t>;

/// What one benchmark case computes on.
struct Problem {
  Shape shape;             ///< extents, outermost first (row-major)
  DType dtype = DType::f32;
  std::string size_class;  ///< "small", "large", ... or "custom" for --shape
};

/// The minimum traffic and arithmetic of one call, in the case's dtype: each input read once,
/// each output written once. kbench computes bandwidth and efficiency from these.
struct Traffic {
  double bytes_read = 0;
  double bytes_written = 0;
  double flops = 0;
  /// The unit the FLOPs run on, which picks the peak they are held against: "fp32" (CUDA cores),
  /// "tf32_tensor", "fp16_tensor" (fp16 and bf16 with fp32 accumulation).
  std::string math = "fp32";
  double bytes_total() const { return bytes_read + bytes_written; }
};

/// An element passes when |out - ref| <= abs + rel * |ref| + scaled * scale[i]; NaN or Inf
/// never passes. `scale` is a per-element magnitude the rounding error of a long accumulation
/// grows with (for a sum or dot product: the sum of the absolute values of its terms), so that
/// results that cancel to near zero are still held to a meaningful bound.
struct Tolerance {
  double abs = 0;
  double rel = 0;
  double scaled = 0;
};

/// What a row is to the report.
enum class VariantRole {
  own,       ///< a kernel under test: kbench's own, a plugin's, a kernel file's
  baseline,  ///< the vendor or reference implementation that speed ratios divide by
  roof,      ///< the device-to-device copy of the same byte count: the practical memory roof
};

/// The GPU a call runs on, as kernels choose launch shapes by it.
struct Device {
  int cc_major = 0;          ///< compute capability
  int cc_minor = 0;
  int sm_count = 0;
  std::int64_t l2_bytes = 0;
};

}  // namespace kbench
