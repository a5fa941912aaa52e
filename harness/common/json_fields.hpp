#pragma once
/// One table per JSON struct drives both writing and reading it: each row names a key once, with
/// how its member is written and how it is read back (which JsonObject getter checks it). Rows
/// whose JSON form is not the member's own (a unit conversion, a derived figure, an optional key)
/// carry their two converters explicitly. Keys are read in table order, so the first bad field of
/// a document is the one reported. Host-only.
///
///   const JsonFields<SampleStats>& stats_fields() {
///     static const JsonFields<SampleStats> fields{
///         json_field("median_ms", &SampleStats::median, &JsonObject::non_negative), ...};
///     return fields;
///   }

#include "harness/common/enum_names.hpp"
#include "harness/common/json_input.hpp"

#include <nlohmann/json.hpp>

#include <functional>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace kbench {

/// One key of a JSON object and the member (or members) of `Struct` behind it.
template <typename Struct>
struct JsonField {
  std::string key;                                                               ///< the JSON key
  std::function<nlohmann::json(const Struct&)> write;                            ///< the key's value (a discarded value leaves the key out); empty: not written
  std::function<void(const JsonObject&, const std::string& key, Struct&)> read;  ///< reads it back; empty: not read
};

/// A struct's table, in reading order.
template <typename Struct>
using JsonFields = std::vector<JsonField<Struct>>;

/// `value` as a JSON object, one key per row.
template <typename Struct>
nlohmann::json write_fields(const Struct& value, const JsonFields<Struct>& fields) {
  nlohmann::json out = nlohmann::json::object();
  for (const JsonField<Struct>& field : fields) {
    if (!field.write) continue;
    nlohmann::json written = field.write(value);
    if (!written.is_discarded()) out[field.key] = std::move(written);  // discarded: leave the key out
  }
  return out;
}

/// Reads every row of `fields` from `object` into `value`; throws InputError at the first bad key.
template <typename Struct>
void read_fields(const JsonObject& object, Struct& value, const JsonFields<Struct>& fields) {
  for (const JsonField<Struct>& field : fields)
    if (field.read) field.read(object, field.key, value);
}

namespace detail {
template <typename T>
struct is_optional : std::false_type {};
template <typename T>
struct is_optional<std::optional<T>> : std::true_type {};
}  // namespace detail

/// A member's JSON form: enums by name (none: ""), optional numbers as null when absent.
template <typename T>
nlohmann::json json_value(const T& value) {
  if constexpr (std::is_enum_v<T>) {
    return std::string(enum_name(value));
  } else if constexpr (detail::is_optional<T>::value) {
    using Inner = typename T::value_type;
    if constexpr (std::is_enum_v<Inner>) {
      return value ? std::string(enum_name(*value)) : std::string();
    } else {
      return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
    }
  } else {
    return nlohmann::json(value);
  }
}

/// A member read with one of JsonObject's checking getters (&JsonObject::non_negative,
/// &JsonObject::name<Band>, ...) and written as json_value() writes it.
template <typename Struct, typename Member, typename Got>
JsonField<Struct> json_field(std::string key, Member Struct::*member, Got (JsonObject::*get)(const std::string&) const) {
  return {std::move(key), [member](const Struct& s) { return json_value(s.*member); },
          [member, get](const JsonObject& object, const std::string& k, Struct& s) {
            s.*member = static_cast<Member>((object.*get)(k));
          }};
}

/// A number stored in one unit and written in another: JSON value = member / scale (bytes/s
/// written as GB/s with scale 1e9); read back as a number >= 0 times scale.
template <typename Struct>
JsonField<Struct> json_scaled(std::string key, double Struct::*member, double scale) {
  return {std::move(key), [member, scale](const Struct& s) { return nlohmann::json(s.*member / scale); },
          [member, scale](const JsonObject& object, const std::string& k, Struct& s) {
            s.*member = object.non_negative(k) * scale;
          }};
}

/// A member struct written as a nested object with its own table.
template <typename Struct, typename Member>
JsonField<Struct> json_object(std::string key, Member Struct::*member, const JsonFields<Member>& (*fields)()) {
  return {std::move(key), [member, fields](const Struct& s) { return write_fields(s.*member, fields()); },
          [member, fields](const JsonObject& object, const std::string& k, Struct& s) {
            read_fields(object.object(k), s.*member, fields());
          }};
}

/// Several members of this struct grouped under one key as a nested object ("verification").
template <typename Struct>
JsonField<Struct> json_group(std::string key, JsonFields<Struct> group) {
  return {std::move(key), [group](const Struct& s) { return write_fields(s, group); },
          [group](const JsonObject& object, const std::string& k, Struct& s) { read_fields(object.object(k), s, group); }};
}

/// A vector of structs written as an array of objects, each with the element's table.
template <typename Struct, typename Element>
JsonField<Struct> json_list(std::string key, std::vector<Element> Struct::*member,
                            const JsonFields<Element>& (*fields)()) {
  return {std::move(key),
          [member, fields](const Struct& s) {
            nlohmann::json out = nlohmann::json::array();
            for (const Element& element : s.*member) out.push_back(write_fields(element, fields()));
            return out;
          },
          [member, fields](const JsonObject& object, const std::string& k, Struct& s) {
            const nlohmann::json& items = object.array(k);
            for (std::size_t i = 0; i < items.size(); ++i) {
              Element element;
              read_fields(JsonObject(items[i], object.place(k).index(i)), element, fields());
              (s.*member).push_back(std::move(element));
            }
          }};
}

}  // namespace kbench
