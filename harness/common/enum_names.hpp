#pragma once
/// One name table per closed set (CUTLASS's enumerated_types.h): an enum specialises EnumNames
/// with a constexpr array of {value, name} rows, and these templates turn values into names and
/// text into values. Text is parsed once at the edges (JSON, CLI, configs); inside the harness
/// only the enum values are compared. Host-only.
///
///   template <> struct EnumNames<Band> {
///     static constexpr std::array<EnumName<Band>, 3> table{{{Band::critical, "critical"}, ...}};
///   };

#include "harness/common/input_error.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace kbench {

/// One row of a name table.
template <typename Enum>
struct EnumName {
  Enum value;             ///< the enumerator
  std::string_view name;  ///< its one spelling in JSON, on the command line and in reports
};

/// Specialised once per closed set, beside the enum, with `static constexpr ... table`.
template <typename Enum>
struct EnumNames;

/// The name of `value` in its table ("unknown" for a value outside the table).
template <typename Enum>
constexpr std::string_view enum_name(Enum value) {
  for (const EnumName<Enum>& row : EnumNames<Enum>::table)
    if (row.value == value) return row.name;
  return "unknown";
}

/// The value called `text`, or nothing.
template <typename Enum>
constexpr std::optional<Enum> enum_from_name(std::string_view text) {
  for (const EnumName<Enum>& row : EnumNames<Enum>::table)
    if (row.name == text) return row.value;
  return std::nullopt;
}

/// Every name of the table, in order: "a, b or c" (`last` joins the last two).
template <typename Enum>
std::string enum_names_text(std::string_view last = " or ") {
  std::string text;
  const auto& table = EnumNames<Enum>::table;
  for (std::size_t i = 0; i < table.size(); ++i) {
    if (i > 0) text += i + 1 == table.size() ? last : std::string_view(", ");
    text += table[i].name;
  }
  return text;
}

/// The value called `text`, or throws InputError "unknown WHAT 'TEXT'; expected a, b or c".
template <typename Enum>
Enum parse_enum(std::string_view text, std::string_view what) {
  if (const std::optional<Enum> value = enum_from_name<Enum>(text)) return *value;
  throw InputError("unknown " + std::string(what) + " '" + std::string(text) + "'; expected " + enum_names_text<Enum>());
}

}  // namespace kbench
