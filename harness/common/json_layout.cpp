#include "harness/common/json_layout.hpp"

#include <algorithm>

namespace kbench {

using nlohmann::json;

namespace {

bool is_number_array(const json& value) {
  return value.is_array() && !value.empty() &&
         std::all_of(value.begin(), value.end(), [](const json& element) { return element.is_number(); });
}

void append(std::string& out, const json& value, int depth) {
  const std::string inner(2 * (depth + 1), ' ');
  if (is_number_array(value)) {
    out += '[';
    for (std::size_t i = 0; i < value.size(); ++i) out += (i ? ", " : "") + value[i].dump();
    out += ']';
  } else if ((value.is_array() || value.is_object()) && !value.empty()) {
    out += value.is_object() ? "{\n" : "[\n";
    std::size_t i = 0;
    for (auto it = value.begin(); it != value.end(); ++it, ++i) {
      out += inner;
      if (value.is_object()) out += json(it.key()).dump() + ": ";
      append(out, it.value(), depth + 1);
      out += i + 1 < value.size() ? ",\n" : "\n";
    }
    out += std::string(2 * depth, ' ') + (value.is_object() ? '}' : ']');
  } else {
    out += value.dump();
  }
}

}  // namespace

std::string dump_with_number_arrays_inline(const json& document) {
  std::string out;
  append(out, document, 0);
  return out;
}

}  // namespace kbench
