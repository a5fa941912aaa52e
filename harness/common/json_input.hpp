#pragma once
/// Reading hand-written JSON input (sweep configs, thresholds) field by field. Every error names
/// the file, the JSON path of the field, what was found and what was expected; unknown keys are
/// rejected with a "did you mean" suggestion. Host-only.

#include "harness/common/input_error.hpp"
#include "harness/common/json_text.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace kbench {

/// Where a value sits: its file and its JSON path ("$.sweeps[0].shape").
struct JsonPlace {
  std::string file;
  std::string path = "$";
  /// The place of member `key` of this object.
  JsonPlace key(const std::string& key) const { return {file, path + "." + key}; }
  /// The place of element `i` of this array.
  JsonPlace index(std::size_t i) const { return {file, path + "[" + std::to_string(i) + "]"}; }
  /// "FILE: PATH".
  std::string text() const { return file + ": " + path; }
};

/// A short description of a JSON value for messages: "fp64" (quoted), 12, true, null, an array, an object.
std::string describe_json(const nlohmann::json& value);

/// Throws InputError "FILE: PATH: MESSAGE".
[[noreturn]] void input_error(const JsonPlace& place, const std::string& message);

/// Throws InputError "FILE: PATH: found FOUND; expected EXPECTED".
[[noreturn]] void found_expected(const JsonPlace& place, const nlohmann::json& found, const std::string& expected);

/// A positive integer (an extent), or throws naming the place.
std::int64_t positive_integer(const nlohmann::json& value, const JsonPlace& place);

/// An array of strings, or throws naming the place of the bad element.
std::vector<std::string> string_list(const nlohmann::json& value, const JsonPlace& place);

/// One JSON object of an input file. The node must outlive this view.
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

  std::string string(const std::string& key) const;                            ///< a required string
  std::string string_or(const std::string& key, const std::string& fallback) const;  ///< an optional string
  double number(const std::string& key) const;                                 ///< a required number
  std::vector<std::string> strings(const std::string& key) const;              ///< a required array of strings
  JsonObject object(const std::string& key) const;                             ///< a required object

 private:
  const nlohmann::json& node_;
  JsonPlace place_;
};

}  // namespace kbench
