#pragma once
/// The layout of kbench's results files: indented like nlohmann's dump(2), except that an
/// array of numbers stays on one line ("[0.004672, 0.00512, ...]"). A results file's per-sample
/// times are most of its bytes; one number per line made a targets run with samples 10 MB where
/// this layout makes it about 4. Host-only.

#include <nlohmann/json.hpp>

#include <string>

namespace kbench {

/// `document` as text: two-space indents, one key or element per line, except non-empty arrays
/// whose elements are all numbers, written on one line with ", " between them. Scalars are
/// written exactly as nlohmann writes them (the same number formatting and string escapes).
std::string dump_with_number_arrays_inline(const nlohmann::json& document);

}  // namespace kbench
