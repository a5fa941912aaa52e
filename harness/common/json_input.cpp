#include "harness/common/json_input.hpp"

#include "harness/common/did_you_mean.hpp"
#include "harness/common/printable_text.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace kbench {

using nlohmann::json;

namespace {
constexpr auto kLargestInt64 = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
}  // namespace

std::string describe_json(const json& value) {
  if (value.is_object()) return "an object";
  if (value.is_array()) return value.empty() ? "an empty array" : "an array";
  std::string text = value.dump();
  if (text.size() > 40) text = text.substr(0, 37) + "...";
  return text;
}

void input_error(const JsonPlace& place, const std::string& message) { throw InputError(place.text() + ": " + message); }

void found_expected(const JsonPlace& place, const json& found, const std::string& expected) {
  input_error(place, "found " + describe_json(found) + "; expected " + expected);
}

std::int64_t positive_integer(const json& value, const JsonPlace& place) {
  if (value.is_number_unsigned() && value.get<std::uint64_t>() > kLargestInt64) found_expected(place, value, "a positive integer below 2^63");
  if (!value.is_number_integer() || value.get<std::int64_t>() <= 0) found_expected(place, value, "a positive integer");
  return value.get<std::int64_t>();
}

std::vector<std::string> string_list(const json& value, const JsonPlace& place, const std::string& expected) {
  if (!value.is_array()) found_expected(place, value, expected);
  std::vector<std::string> items;
  for (std::size_t i = 0; i < value.size(); ++i) {
    if (!value[i].is_string()) found_expected(place.index(i), value[i], "a string");
    items.push_back(value[i].get<std::string>());
  }
  return items;
}

JsonObject::JsonObject(const json& node, JsonPlace place) : node_(node), place_(std::move(place)) {
  if (!node_.is_object()) found_expected(place_, node_, "an object");
}

void JsonObject::allow_keys(const std::vector<std::string>& known) const {
  for (const auto& item : node_.items()) {
    if (std::find(known.begin(), known.end(), item.key()) != known.end()) continue;
    input_error(place_, "unknown key '" + item.key() + "'" + did_you_mean(item.key(), known) +
                            "; expected one of: " + join_names(known));
  }
}

bool JsonObject::has(const std::string& key) const { return node_.contains(key); }

const json& JsonObject::at(const std::string& key) const {
  const auto it = node_.find(key);
  if (it != node_.end()) return *it;
  if (place_.wording == JsonWording::results) throw InputError("missing field " + place_.path + "." + key);
  input_error(place_, "missing key '" + key + "'");
}

void JsonObject::fail(const std::string& key, const std::string& expected) const {
  found_expected(place(key), at(key), expected);
}

std::string JsonObject::string(const std::string& key) const {
  const json& value = at(key);
  if (!value.is_string()) fail(key, "a string");
  return value.get<std::string>();
}

std::string JsonObject::display_string(const std::string& key) const { return printable(string(key)); }

std::vector<std::string> JsonObject::display_string_items(const std::string& key) const {
  std::vector<std::string> items = string_items(key);
  for (std::string& item : items) item = printable(item);
  return items;
}

std::string JsonObject::string_or(const std::string& key, const std::string& fallback) const {
  return has(key) ? string(key) : fallback;
}

double JsonObject::number(const std::string& key) const {
  const json& value = at(key);
  if (!value.is_number()) fail(key, "a number");
  return value.get<double>();
}

double JsonObject::non_negative(const std::string& key) const {
  const json& value = at(key);
  if (!value.is_number() || !(value.get<double>() >= 0)) fail(key, "a number >= 0");
  return value.get<double>();
}

double JsonObject::finite_non_negative(const std::string& key) const {
  const json& value = at(key);
  if (!value.is_number() || !(value.get<double>() >= 0) || !std::isfinite(value.get<double>())) {
    fail(key, "a finite number >= 0");
  }
  return value.get<double>();
}

std::optional<double> JsonObject::optional_number(const std::string& key) const {
  const json& value = at(key);
  if (value.is_null()) return std::nullopt;
  if (!value.is_number()) fail(key, "a number or null");
  return value.get<double>();
}

std::optional<double> JsonObject::optional_non_negative(const std::string& key) const {
  const json& value = at(key);
  if (value.is_null()) return std::nullopt;
  if (!value.is_number() || !(value.get<double>() >= 0)) fail(key, "a number >= 0 or null");
  return value.get<double>();
}

std::int64_t JsonObject::integer(const std::string& key) const {
  const json& value = at(key);
  if (!value.is_number_integer() || (value.is_number_unsigned() && value.get<std::uint64_t>() > kLargestInt64)) {
    fail(key, "an integer");
  }
  return value.get<std::int64_t>();
}

std::uint64_t JsonObject::unsigned_integer(const std::string& key) const {
  const json& value = at(key);
  if (!value.is_number_unsigned()) fail(key, "an integer >= 0");
  return value.get<std::uint64_t>();
}

std::int64_t JsonObject::count(const std::string& key) const {
  const std::int64_t value = integer(key);
  if (value < 0) fail(key, "an integer >= 0");
  return value;
}

int JsonObject::small_count(const std::string& key) const {
  const std::int64_t value = count(key);
  if (value > std::numeric_limits<int>::max()) fail(key, "an integer from 0 to 2147483647");
  return static_cast<int>(value);
}

int JsonObject::int_value(const std::string& key) const {
  const std::int64_t value = integer(key);
  if (value < std::numeric_limits<int>::min() || value > std::numeric_limits<int>::max()) {
    fail(key, "an integer from -2147483648 to 2147483647");
  }
  return static_cast<int>(value);
}

bool JsonObject::boolean(const std::string& key) const {
  const json& value = at(key);
  if (!value.is_boolean()) fail(key, "true or false");
  return value.get<bool>();
}

const json& JsonObject::array(const std::string& key) const {
  const json& value = at(key);
  if (!value.is_array()) fail(key, "an array");
  return value;
}

std::vector<std::string> JsonObject::strings(const std::string& key) const { return string_list(at(key), place(key)); }

std::vector<std::string> JsonObject::string_items(const std::string& key) const {
  return string_list(at(key), place(key), "an array");
}

JsonObject JsonObject::object(const std::string& key) const { return JsonObject(at(key), place(key)); }

}  // namespace kbench
