#pragma once
/// Reading JSON input field by field: kbench's one JSON reader, used by sweep configs, thresholds
/// and results files. Every error names the JSON path of the field (and, for configs, the file),
/// what was found and what was expected; unknown keys can be rejected with a "did you mean"
/// suggestion. Host-only.

#include "harness/common/enum_names.hpp"
#include "harness/common/input_error.hpp"
#include "harness/common/json_text.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kbench {

/// How messages word a place. Configs are read knowing their file: "FILE: $.sweeps[0]: missing
/// key 'op'". Results documents are read without one (read_results_file puts the file in front):
/// "missing field $.cases[0].op".
enum class JsonWording { config, results };

/// Where a value sits: its file and its JSON path ("$.sweeps[0].shape").
struct JsonPlace {
  std::string file;
  std::string path = "$";
  JsonWording wording = JsonWording::config;
  /// The place of member `key` of this object.
  JsonPlace key(const std::string& key) const { return {file, path + "." + key, wording}; }
  /// The place of element `i` of this array.
  JsonPlace index(std::size_t i) const { return {file, path + "[" + std::to_string(i) + "]", wording}; }
  /// "FILE: PATH" (configs) or "PATH" (results).
  std::string text() const { return wording == JsonWording::results ? path : file + ": " + path; }
};

/// A short description of a JSON value for messages: "fp64" (quoted), 12, true, null, an array, an object.
std::string describe_json(const nlohmann::json& value);

/// Throws InputError "PLACE: MESSAGE".
[[noreturn]] void input_error(const JsonPlace& place, const std::string& message);

/// Throws InputError "PLACE: found FOUND; expected EXPECTED".
[[noreturn]] void found_expected(const JsonPlace& place, const nlohmann::json& found, const std::string& expected);

/// A positive integer (an extent), or throws naming the place.
std::int64_t positive_integer(const nlohmann::json& value, const JsonPlace& place);

/// An array of strings, or throws naming the place of the bad element; `expected` describes the
/// whole value when it is not an array.
std::vector<std::string> string_list(const nlohmann::json& value, const JsonPlace& place,
                                     const std::string& expected = "an array of strings");

/// One JSON object of an input. The node must outlive this view.
class JsonObject {
 public:
  /// Throws when `node` is not an object.
  JsonObject(const nlohmann::json& node, JsonPlace place);

  /// Rejects any key not in `known`, suggesting the nearest known key.
  void allow_keys(const std::vector<std::string>& known) const;

  bool has(const std::string& key) const;                ///< the key is present
  const nlohmann::json& at(const std::string& key) const; ///< a required member, or throws "missing"
  JsonPlace place(const std::string& key) const { return place_.key(key); }  ///< a member's place
  const JsonPlace& place() const { return place_; }       ///< this object's place
  const nlohmann::json& node() const { return node_; }    ///< the object itself
  /// Throws "PLACE.KEY: found ...; expected EXPECTED" for a present member.
  [[noreturn]] void fail(const std::string& key, const std::string& expected) const;

  std::string string(const std::string& key) const;                            ///< a required string
  std::string string_or(const std::string& key, const std::string& fallback) const;  ///< an optional string
  /// A required string for display (a results file's names, messages, device and build text):
  /// control characters escaped once, here, so that no report, table or note echoes them raw.
  std::string display_string(const std::string& key) const;
  double number(const std::string& key) const;                                 ///< a required number
  /// Times, rates, byte counts: NaN (written as null) and negative values are refused.
  double non_negative(const std::string& key) const;
  double finite_non_negative(const std::string& key) const;                    ///< a finite number >= 0
  std::optional<double> optional_number(const std::string& key) const;         ///< a number or null
  std::optional<double> optional_non_negative(const std::string& key) const;   ///< a number >= 0 or null
  std::int64_t integer(const std::string& key) const;                          ///< an integer an int64 holds
  std::uint64_t unsigned_integer(const std::string& key) const;                ///< an integer >= 0 (to 2^64 - 1)
  std::int64_t count(const std::string& key) const;                            ///< an integer >= 0
  int small_count(const std::string& key) const;                               ///< an integer >= 0 an int holds
  int int_value(const std::string& key) const;                                 ///< an integer an int holds
  bool boolean(const std::string& key) const;                                  ///< true or false
  const nlohmann::json& array(const std::string& key) const;                   ///< a required array
  std::vector<std::string> strings(const std::string& key) const;              ///< a required array of strings
  std::vector<std::string> string_items(const std::string& key) const;         ///< the same, "an array" when it is not one
  std::vector<std::string> display_string_items(const std::string& key) const; ///< string_items, escaped as display_string
  JsonObject object(const std::string& key) const;                             ///< a required object

  /// One name of an enum's table: "PLACE.KEY is 'y'; expected a, b or c" otherwise.
  template <typename Enum>
  Enum name(const std::string& key) const {
    const std::string text = string(key);
    if (const std::optional<Enum> value = enum_from_name<Enum>(text)) return *value;
    throw InputError(place(key).text() + " is '" + text + "'; expected " + enum_names_text<Enum>());
  }
  /// One name of an enum's table, or "" for none.
  template <typename Enum>
  std::optional<Enum> optional_name(const std::string& key) const {
    const std::string text = string(key);
    if (text.empty()) return std::nullopt;
    if (const std::optional<Enum> value = enum_from_name<Enum>(text)) return *value;
    throw InputError(place(key).text() + " is '" + text + "'; expected " + enum_names_text<Enum>(", ") + " or \"\"");
  }

 private:
  const nlohmann::json& node_;
  JsonPlace place_;
};

}  // namespace kbench
