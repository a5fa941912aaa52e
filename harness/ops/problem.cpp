#include "harness/ops/problem.hpp"

#include <cstdio>
#include <limits>
#include <stdexcept>

namespace kbench {

std::int64_t element_count(const Shape& shape) {
  if (shape.empty()) throw std::invalid_argument("shape has no extents");
  // Leave room for 8-byte elements and a few buffers, so byte counts never overflow.
  constexpr std::int64_t limit = std::numeric_limits<std::int64_t>::max() / 64;
  std::int64_t count = 1;
  for (std::int64_t extent : shape) {
    if (extent <= 0) {
      throw std::invalid_argument("shape " + format_shape(shape) + " has a non-positive extent " +
                                  std::to_string(extent) + "; extents must be >= 1");
    }
    if (count > limit / extent) {
      throw std::invalid_argument("shape " + format_shape(shape) + " has too many elements (byte counts overflow 64 bits)");
    }
    count *= extent;
  }
  return count;
}

std::string format_shape(const Shape& shape) {
  std::string text;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i) text += 'x';
    text += std::to_string(shape[i]);
  }
  return text;
}

Shape parse_shape(const std::string& text) {
  Shape shape;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = text.find_first_of("x*", start);
    const std::string token = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
    std::size_t used = 0;
    long long value = 0;
    try {
      value = std::stoll(token, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (token.empty() || used != token.size()) {
      throw std::invalid_argument("shape '" + text + "': '" + token +
                                  "' is not an integer extent (expected e.g. 4096x4096 or 32x512x512)");
    }
    if (value <= 0) {
      throw std::invalid_argument("shape '" + text + "': extent " + token + " must be >= 1");
    }
    shape.push_back(value);
    if (end == std::string::npos) break;
    start = end + 1;
  }
  element_count(shape);  // rejects overflow
  return shape;
}

std::string format_count(double count) {
  char buffer[32];
  if (count >= 1e9) std::snprintf(buffer, sizeof buffer, "%.2fG", count / 1e9);
  else if (count >= 1e6) std::snprintf(buffer, sizeof buffer, "%.1fM", count / 1e6);
  else if (count >= 1e3) std::snprintf(buffer, sizeof buffer, "%.1fK", count / 1e3);
  else std::snprintf(buffer, sizeof buffer, "%.0f", count);
  return buffer;
}

}  // namespace kbench
