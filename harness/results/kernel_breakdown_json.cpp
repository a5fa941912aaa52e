#include "harness/results/kernel_breakdown_json.hpp"

#include "harness/common/json_fields.hpp"
#include "harness/common/json_input.hpp"

#include <cstdint>

namespace kbench {

using nlohmann::json;

namespace {

/// A launch shape: 3 integers from 0 to 2^31.
JsonField<KernelActivity> extents_field(std::string key, std::array<int, 3> KernelActivity::*member) {
  return {std::move(key), [member](const KernelActivity& a) { return json(a.*member); },
          [member](const JsonObject& object, const std::string& key, KernelActivity& a) {
            const json& v = object.at(key);
            if (!v.is_array() || v.size() != 3) object.fail(key, "an array of 3 integers");
            for (std::size_t i = 0; i < 3; ++i) {
              if (!v[i].is_number_integer() || v[i].get<std::int64_t>() < 0 || v[i].get<std::int64_t>() > (1ll << 31)) {
                found_expected(object.place(key).index(i), v[i], "an integer >= 0");
              }
              (a.*member)[i] = v[i].get<int>();
            }
          }};
}

const JsonFields<KernelActivity>& activity_fields() {
  static const JsonFields<KernelActivity> fields{
      json_field("name", &KernelActivity::name, &JsonObject::string),
      json_field("launches_per_call", &KernelActivity::launches_per_call, &JsonObject::finite_non_negative),
      extents_field("grid", &KernelActivity::grid),
      extents_field("block", &KernelActivity::block),
      json_field("mean_ms", &KernelActivity::mean_ms, &JsonObject::finite_non_negative),
  };
  return fields;
}

const JsonFields<KernelBreakdown>& breakdown_fields() {
  static const JsonFields<KernelBreakdown> fields{
      {"calls_traced", [](const KernelBreakdown& b) { return json(b.calls_traced); },
       [](const JsonObject& object, const std::string& key, KernelBreakdown& b) {
         const json& calls = object.at(key);
         if (!calls.is_number_integer() || calls.get<std::int64_t>() < 1) object.fail(key, "an integer >= 1");
         b.calls_traced = calls.get<int>();
       }},
      json_field("kernels_per_call", &KernelBreakdown::kernels_per_call, &JsonObject::finite_non_negative),
      json_field("gpu_ms_per_call", &KernelBreakdown::gpu_ms_per_call, &JsonObject::finite_non_negative),
      json_list("activities", &KernelBreakdown::activities, &activity_fields),
  };
  return fields;
}

}  // namespace

json breakdown_to_json(const std::optional<KernelBreakdown>& breakdown) {
  if (!breakdown) return nullptr;
  return write_fields(*breakdown, breakdown_fields());
}

std::optional<KernelBreakdown> breakdown_from_json(const json& value, const std::string& path) {
  if (value.is_null()) return std::nullopt;
  const JsonPlace place{"", path, JsonWording::results};
  if (!value.is_object()) found_expected(place, value, "an object or null");
  KernelBreakdown b;
  read_fields(JsonObject(value, place), b, breakdown_fields());
  return b;
}

}  // namespace kbench
