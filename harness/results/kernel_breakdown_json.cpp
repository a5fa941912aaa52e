#include "harness/results/kernel_breakdown_json.hpp"

#include "harness/common/json_fields.hpp"
#include "harness/common/json_input.hpp"

#include <array>
#include <cstdint>

namespace kbench {

using nlohmann::json;

namespace {

/// CUDA's launch limits (results/SCHEMA.md): grid x up to 2^31 - 1, y and z up to 65535; block
/// x and y up to 1024, z up to 64, at most 1024 threads in all.
constexpr std::array<std::int64_t, 3> kMaxGrid{2147483647, 65535, 65535};
constexpr std::array<std::int64_t, 3> kMaxBlock{1024, 1024, 64};
constexpr std::int64_t kMaxBlockThreads = 1024;

/// A launch shape: 3 integers, all 0 (a memcpy or memset) or each from 1 to CUDA's limit. The
/// block, read after the grid, is all 0 exactly when the grid is.
JsonField<KernelActivity> extents_field(std::string key, std::array<int, 3> KernelActivity::*member) {
  const bool is_block = key == "block";
  return {std::move(key), [member](const KernelActivity& a) { return json(a.*member); },
          [member, is_block](const JsonObject& object, const std::string& key, KernelActivity& a) {
            const json& v = object.at(key);
            const std::array<std::int64_t, 3>& limit = is_block ? kMaxBlock : kMaxGrid;
            if (!v.is_array() || v.size() != 3) object.fail(key, "an array of 3 integers");
            const bool zeros = v[0] == 0 && v[1] == 0 && v[2] == 0;
            for (std::size_t i = 0; i < 3 && !zeros; ++i) {
              if (!v[i].is_number_integer() || v[i].get<std::int64_t>() < 1 || v[i].get<std::int64_t>() > limit[i]) {
                found_expected(object.place(key).index(i), v[i],
                               "an integer from 1 to " + std::to_string(limit[i]) + " ([0, 0, 0] for a memcpy or memset)");
              }
            }
            for (std::size_t i = 0; i < 3; ++i) (a.*member)[i] = zeros ? 0 : v[i].get<int>();
            if (!is_block) return;
            const bool grid_zeros = a.grid == std::array<int, 3>{0, 0, 0};
            if (zeros != grid_zeros) {
              object.fail(key, grid_zeros ? "[0, 0, 0] as the grid is (a memcpy or memset)"
                                          : "a block of a kernel launch, as the grid is not [0, 0, 0]");
            }
            if (static_cast<std::int64_t>(a.block[0]) * a.block[1] * a.block[2] > kMaxBlockThreads) {
              object.fail(key, "at most " + std::to_string(kMaxBlockThreads) + " threads (x * y * z)");
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
         if (!calls.is_number_integer() || calls.get<std::int64_t>() < 1 || calls.get<std::int64_t>() > 2147483647) {
           object.fail(key, "an integer from 1 to 2147483647");
         }
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
