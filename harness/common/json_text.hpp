#pragma once
/// From JSON text to a document, with the line and column of whatever makes the text not JSON
/// (a truncated file, a NaN, a number out of range, a stray comma). Host-only.

#include "harness/common/input_error.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace kbench {

/// Parses `text` as one JSON document; `file` names it in messages. Throws InputError
/// "FILE: not valid JSON at line L, column C: WHAT".
nlohmann::json parse_json_text(const std::string& text, const std::string& file);

/// Reads the file at `path` and parses it. Throws InputError naming the file.
nlohmann::json read_json_file(const std::string& path);

}  // namespace kbench
