#pragma once
/// The shapes of one sweep, from its shape template and axes (configs/README.md). Host-only.
///
///   "shape": ["B", "S", "S"]                    extents: integers or axis names
///   "axes":  {"B": [32, 16],                    an explicit list
///             "S": {"pow2": {"from": 512, "to": 1024}}}   or {"range": {"from", "to", "step"}}
///   "zip":   [["B", "S"]]                       axes paired value by value instead of crossed
///
/// Axes are crossed (every combination) unless zipped; the axis (or zip group) that appears first
/// in the template varies slowest. A zipped group needs axes of equal length.

#include "harness/common/json_input.hpp"
#include "harness/ops/problem.hpp"

#include <cstdint>
#include <vector>

namespace kbench {

/// Most shapes one sweep may expand to (a guard against a typo that asks for millions).
constexpr std::size_t kMaxSweepShapes = 10000;

/// The values of one axis spec: an array of positive integers, {"range": {"from": A, "to": B,
/// "step": S}} (A, A+S, ... up to B inclusive; step defaults to 1) or {"pow2": {"from": A,
/// "to": B}} (every power of two from A to B, both powers of two). Throws InputError.
std::vector<std::int64_t> parse_axis(const nlohmann::json& spec, const JsonPlace& place);

/// The shapes of the sweep object `sweep` (its "shape", "axes" and "zip" keys). Throws InputError.
std::vector<Shape> sweep_shapes(const JsonObject& sweep);

}  // namespace kbench
