#include "harness/results/kernel_breakdown_json.hpp"

#include "harness/common/input_error.hpp"
#include "harness/common/json_input.hpp"

#include <cmath>
#include <stdexcept>

namespace kbench {

using nlohmann::json;

namespace {

[[noreturn]] void bad(const std::string& path, const json& found, const std::string& expected) {
  throw InputError(path + ": found " + describe_json(found) + "; expected " + expected);
}

const json& field(const json& object, const std::string& key, const std::string& path) {
  auto it = object.find(key);
  if (it == object.end()) throw InputError("missing field " + path + "." + key);
  return *it;
}

double non_negative(const json& object, const std::string& key, const std::string& path) {
  const json& v = field(object, key, path);
  if (!v.is_number() || !(v.get<double>() >= 0) || !std::isfinite(v.get<double>())) {
    bad(path + "." + key, v, "a finite number >= 0");
  }
  return v.get<double>();
}

std::array<int, 3> extents(const json& object, const std::string& key, const std::string& path) {
  const json& v = field(object, key, path);
  if (!v.is_array() || v.size() != 3) bad(path + "." + key, v, "an array of 3 integers");
  std::array<int, 3> out{};
  for (std::size_t i = 0; i < 3; ++i) {
    if (!v[i].is_number_integer() || v[i].get<std::int64_t>() < 0 || v[i].get<std::int64_t>() > (1ll << 31)) {
      bad(path + "." + key + "[" + std::to_string(i) + "]", v[i], "an integer >= 0");
    }
    out[i] = v[i].get<int>();
  }
  return out;
}

}  // namespace

json breakdown_to_json(const std::optional<KernelBreakdown>& breakdown) {
  if (!breakdown) return nullptr;
  json activities = json::array();
  for (const KernelActivity& a : breakdown->activities) {
    activities.push_back({{"name", a.name},
                          {"launches_per_call", a.launches_per_call},
                          {"grid", a.grid},
                          {"block", a.block},
                          {"mean_ms", a.mean_ms}});
  }
  return {{"calls_traced", breakdown->calls_traced},
          {"kernels_per_call", breakdown->kernels_per_call},
          {"gpu_ms_per_call", breakdown->gpu_ms_per_call},
          {"activities", activities}};
}

std::optional<KernelBreakdown> breakdown_from_json(const json& value, const std::string& path) {
  if (value.is_null()) return std::nullopt;
  if (!value.is_object()) bad(path, value, "an object or null");
  KernelBreakdown b;
  const json& calls = field(value, "calls_traced", path);
  if (!calls.is_number_integer() || calls.get<std::int64_t>() < 1) bad(path + ".calls_traced", calls, "an integer >= 1");
  b.calls_traced = calls.get<int>();
  b.kernels_per_call = non_negative(value, "kernels_per_call", path);
  b.gpu_ms_per_call = non_negative(value, "gpu_ms_per_call", path);
  const json& activities = field(value, "activities", path);
  if (!activities.is_array()) bad(path + ".activities", activities, "an array");
  for (std::size_t i = 0; i < activities.size(); ++i) {
    const std::string where = path + ".activities[" + std::to_string(i) + "]";
    const json& a = activities[i];
    if (!a.is_object()) bad(where, a, "an object");
    const json& name = field(a, "name", where);
    if (!name.is_string()) bad(where + ".name", name, "a string");
    b.activities.push_back({name.get<std::string>(), non_negative(a, "launches_per_call", where), extents(a, "grid", where),
                            extents(a, "block", where), non_negative(a, "mean_ms", where)});
  }
  return b;
}

}  // namespace kbench
