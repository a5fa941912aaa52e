#include "harness/results/hardware_counters_json.hpp"

#include "harness/common/json_fields.hpp"
#include "harness/common/json_input.hpp"

#include <cmath>
#include <limits>

namespace kbench {

using nlohmann::json;

namespace {

/// {"metric name": value, ...}: each value a finite number >= 0.
void read_metrics(const JsonObject& object, const std::string& key, KernelCounters& k) {
  const JsonObject metrics = object.object(key);
  for (const auto& item : metrics.node().items()) {
    const json& v = item.value();
    if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() < 0) {
      found_expected(metrics.place(item.key()), v, "a finite number >= 0");
    }
    k.metrics[item.key()] = v.get<double>();
  }
}

const JsonFields<KernelCounters>& kernel_fields() {
  static const JsonFields<KernelCounters> fields{
      json_field("name", &KernelCounters::name, &JsonObject::string),
      {"metrics", [](const KernelCounters& k) { return json(k.metrics); }, &read_metrics},
  };
  return fields;
}

const JsonFields<HardwareCounters>& counters_fields() {
  static const JsonFields<HardwareCounters> fields{
      {"calls_profiled", [](const HardwareCounters& c) { return json(c.calls_profiled); },
       [](const JsonObject& object, const std::string& key, HardwareCounters& c) {
         c.calls_profiled = object.small_count(key);
         if (c.calls_profiled < 1) object.fail(key, "an integer >= 1");
       }},
      json_list("kernels", &HardwareCounters::kernels, &kernel_fields),
  };
  return fields;
}

/// An optional figure: a finite number >= 0, or the key left out.
template <typename Struct>
JsonField<Struct> optional_figure(std::string key, std::optional<double> Struct::*member) {
  return {std::move(key), [member](const Struct& s) { return s.*member ? json(*(s.*member)) : json(json::value_t::discarded); },
          [member](const JsonObject& object, const std::string& k, Struct& s) {
            if (object.has(k)) s.*member = object.finite_non_negative(k);
          }};
}

void read_pids(const JsonObject& object, const std::string& key, ModeTelemetry& t) {
  const json& pids = object.array(key);
  for (std::size_t i = 0; i < pids.size(); ++i) {
    if (!pids[i].is_number_integer() || pids[i].get<std::int64_t>() < 0 ||
        pids[i].get<std::int64_t>() > std::numeric_limits<std::int32_t>::max()) {
      found_expected(object.place(key).index(i), pids[i], "a process id (an integer from 0 to 2147483647)");
    }
    t.other_processes.push_back(pids[i].get<std::int64_t>());
  }
}

const JsonFields<ModeTelemetry>& telemetry_fields() {
  static const JsonFields<ModeTelemetry> fields{
      json_field("samples", &ModeTelemetry::samples, &JsonObject::small_count),
      optional_figure("energy_j_per_call", &ModeTelemetry::energy_j_per_call),
      optional_figure("mean_power_w", &ModeTelemetry::mean_power_w),
      optional_figure("max_temperature_c", &ModeTelemetry::max_temperature_c),
      json_field("clock_event_reasons", &ModeTelemetry::clock_event_reasons, &JsonObject::string_items),
      {"other_processes", [](const ModeTelemetry& t) { return json(t.other_processes); }, &read_pids},
  };
  return fields;
}

JsonObject object_at(const json& value, const std::string& path) {
  const JsonPlace place{"", path, JsonWording::results};
  if (!value.is_object()) found_expected(place, value, "an object");
  return JsonObject(value, place);
}

}  // namespace

json counters_to_json(const std::optional<HardwareCounters>& counters) {
  if (!counters) return json(json::value_t::discarded);
  return write_fields(*counters, counters_fields());
}

HardwareCounters counters_from_json(const json& value, const std::string& path) {
  HardwareCounters counters;
  read_fields(object_at(value, path), counters, counters_fields());
  return counters;
}

json telemetry_to_json(const std::optional<ModeTelemetry>& telemetry) {
  if (!telemetry) return json(json::value_t::discarded);
  return write_fields(*telemetry, telemetry_fields());
}

ModeTelemetry telemetry_from_json(const json& value, const std::string& path) {
  ModeTelemetry telemetry;
  read_fields(object_at(value, path), telemetry, telemetry_fields());
  return telemetry;
}

}  // namespace kbench
