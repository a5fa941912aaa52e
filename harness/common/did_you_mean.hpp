#pragma once
/// Suggestions for misspelt names ("did you mean ...?"), from the Levenshtein edit distance.
/// Host-only.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace kbench {

/// Insertions, deletions and substitutions that turn `a` into `b`.
std::size_t edit_distance(std::string_view a, std::string_view b);

/// The candidate nearest to `word`, when it is close enough to be a likely misspelling
/// (at most 2 edits, or a third of the word's length for long words); empty otherwise.
std::string closest_match(std::string_view word, const std::vector<std::string>& candidates);

/// " (did you mean 'x'?)" when closest_match finds one, otherwise "".
std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates);

/// "a, b, c": candidates joined for "expected one of" messages.
std::string join_names(const std::vector<std::string>& names);

}  // namespace kbench
