#pragma once
/// What one call of a case must move and compute. Host-only.

#include <string>

namespace kbench {

/// The minimum traffic and arithmetic of one call, in the case's dtype: each input read once,
/// each output written once. Bandwidth and efficiency are computed from these in one place
/// (harness/results/metrics.cpp), never by the ops.
struct Traffic {
  double bytes_read = 0;
  double bytes_written = 0;
  double flops = 0;
  /// The unit the FLOPs run on, which picks the peak they are held against: "fp32" (CUDA cores),
  /// "tf32_tensor", "fp16_tensor" (fp16 and bf16 with fp32 accumulation).
  std::string math = "fp32";

  double bytes_total() const { return bytes_read + bytes_written; }
};

/// FLOPs per byte of minimum traffic: where the op sits on the roofline (0 without bytes).
inline double arithmetic_intensity(const Traffic& t) { return t.bytes_total() > 0 ? t.flops / t.bytes_total() : 0.0; }

}  // namespace kbench
