#pragma once
/// From JSON text to a document, with the line and column of whatever makes the text not JSON
/// (a truncated file, a NaN, a number out of range, a stray comma, content after the document),
/// and the JSON path of a key given twice in one object. Every JSON file kbench reads (configs,
/// included configs, thresholds, results files) comes through read_json_file: a regular file of
/// at most a stated size, checked before it is opened. Host-only.

#include "harness/common/input_error.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

namespace kbench {

/// The most bytes kbench reads from a config (each included file too) or a thresholds file.
constexpr std::uintmax_t kMaxConfigFileBytes = 64ull << 20;  // 64 MiB
/// The most bytes kbench reads from a results file (per-sample times make them the largest).
constexpr std::uintmax_t kMaxResultsFileBytes = 512ull << 20;  // 512 MiB
/// The deepest nesting of arrays and objects kbench accepts in any JSON file.
constexpr std::size_t kMaxJsonDepth = 64;

/// Parses `text` as one JSON document; `file` names it in messages. Throws InputError
/// "FILE: not valid JSON at line L, column C: WHAT" (content after the document, NUL bytes
/// included, is not JSON), "FILE: $.a.b: key 'k' appears twice in one object", or
/// "FILE: ... nests arrays and objects deeper than 64 levels".
nlohmann::json parse_json_text(const std::string& text, const std::string& file);

/// Reads the file at `path` and parses it. The path must name a regular file (not a folder, a
/// FIFO, a device or a socket: checked before opening, so /dev/zero or a pipe never blocks or
/// fills memory) of at most `max_bytes`. Throws InputError naming the file.
nlohmann::json read_json_file(const std::string& path, std::uintmax_t max_bytes = kMaxConfigFileBytes);

/// "64 MiB": a byte limit for messages and docs.
std::string format_byte_limit(std::uintmax_t bytes);

}  // namespace kbench
