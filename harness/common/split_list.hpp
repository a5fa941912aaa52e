#pragma once
/// Comma-separated lists as the CLI and configs write them.

#include <string>
#include <vector>

namespace kbench {

/// Splits "a,b, c" into {"a","b","c"}, dropping empty items.
std::vector<std::string> split_list(const std::string& text);

/// Whether an item of "a,b" is nothing but blanks ("a,,b", "a,", ",a"), which split_list drops:
/// lists given by people refuse them, since a doubled comma is usually a typo.
bool has_empty_item(const std::string& text);

}  // namespace kbench
