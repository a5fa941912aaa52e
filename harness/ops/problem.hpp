#pragma once
/// A problem is what one benchmark case computes on: a shape, a dtype and the size class it
/// came from. Host-only.

#include "harness/ops/dtype.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace kbench {

/// Number of elements; throws std::invalid_argument on a non-positive extent or on overflow of
/// a 64-bit byte count for the largest dtype.
std::int64_t element_count(const Shape& shape);

/// "4096x4096".
std::string format_shape(const Shape& shape);

/// Parses "4096x4096", "32x512x512" or "65536"; throws std::invalid_argument naming the text.
Shape parse_shape(const std::string& text);

/// "16.8M", "65.5K", "1.07G": element counts as the seed report writes them.
std::string format_count(double count);

}  // namespace kbench
