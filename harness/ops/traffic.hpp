#pragma once
/// What one call of a case must move and compute. Host-only.

#include <string>

#include "kbench/types.hpp"

namespace kbench {

/// FLOPs per byte of minimum traffic: where the op sits on the roofline (0 without bytes).
inline double arithmetic_intensity(const Traffic& t) { return t.bytes_total() > 0 ? t.flops / t.bytes_total() : 0.0; }

}  // namespace kbench
