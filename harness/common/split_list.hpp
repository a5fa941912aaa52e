#pragma once
/// Comma-separated lists as the CLI and configs write them.

#include <string>
#include <vector>

namespace kbench {

/// Splits "a,b, c" into {"a","b","c"}, dropping empty items.
std::vector<std::string> split_list(const std::string& text);

}  // namespace kbench
