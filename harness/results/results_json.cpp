#include "harness/results/results_json.hpp"

#include "harness/common/file_output.hpp"

#include "harness/common/json_fields.hpp"
#include "harness/common/json_input.hpp"
#include "harness/common/json_layout.hpp"
#include "harness/common/json_text.hpp"
#include "harness/common/printable_text.hpp"
#include "harness/results/hardware_counters_json.hpp"
#include "harness/results/kernel_breakdown_json.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <map>
#include <tuple>
#include <stdexcept>

namespace kbench {

using nlohmann::json;

namespace {

/// "9.0" -> 9, 0; false for anything else (std::from_chars refuses what an int cannot hold).
bool parse_compute_capability(const std::string& text, int& major, int& minor) {
  const char* const end = text.data() + text.size();
  const auto [dot, major_error] = std::from_chars(text.data(), end, major);
  if (major_error != std::errc() || dot == end || *dot != '.' || major < 0) return false;
  const auto [last, minor_error] = std::from_chars(dot + 1, end, minor);
  return minor_error == std::errc() && last == end && minor >= 0;
}

// ---- the tables: one row per key, in reading order ------------------------------------------

const JsonFields<SampleStats>& stats_fields() {
  static const JsonFields<SampleStats> fields{
      json_field("count", &SampleStats::count, &JsonObject::count),
      json_field("median_ms", &SampleStats::median, &JsonObject::non_negative),
      json_field("min_ms", &SampleStats::min, &JsonObject::non_negative),
      json_field("max_ms", &SampleStats::max, &JsonObject::non_negative),
      json_field("mean_ms", &SampleStats::mean, &JsonObject::non_negative),
      json_field("stddev_ms", &SampleStats::stddev, &JsonObject::non_negative),
      json_field("q1_ms", &SampleStats::q1, &JsonObject::non_negative),
      json_field("q3_ms", &SampleStats::q3, &JsonObject::non_negative),
      {"relative_iqr", [](const SampleStats& s) { return json(s.relative_iqr()); }, nullptr},  // derived: not read
  };
  return fields;
}

/// Per-sample times: each a number >= 0.
void read_samples(const JsonObject& object, const std::string& key, ModeTiming& t) {
  const json& samples = object.array(key);
  for (std::size_t i = 0; i < samples.size(); ++i) {
    if (!samples[i].is_number() || !(samples[i].get<double>() >= 0)) {
      found_expected(object.place(key).index(i), samples[i], "a number >= 0 (ms)");
    }
    t.samples_ms.push_back(samples[i].get<double>());
  }
}

/// Samples rounded to the nanosecond (CUDA events resolve about half a microsecond): a sample
/// then takes about 9 characters instead of 20.
json samples_to_json(const std::vector<double>& samples_ms) {
  json out = json::array();
  for (double ms : samples_ms) out.push_back(std::round(ms * 1e6) / 1e6);
  return out;
}

/// Seconds to the millisecond: written only when recorded (> 0), read as 0 when absent.
template <typename Struct>
JsonField<Struct> optional_seconds(std::string key, double Struct::*member) {
  return {std::move(key),
          [member](const Struct& s) {
            return s.*member > 0 ? json(std::round(s.*member * 1e3) / 1e3) : json(json::value_t::discarded);
          },
          [member](const JsonObject& object, const std::string& k, Struct& s) {
            if (object.has(k)) s.*member = object.non_negative(k);
          }};
}

const JsonFields<ModeTiming>& timing_fields() {
  static const JsonFields<ModeTiming> fields{
      json_field("mode", &ModeTiming::mode, &JsonObject::name<MeasureMode>),
      json_field("warmup_calls", &ModeTiming::warmup_calls, &JsonObject::small_count),
      json_field("calls_per_sample", &ModeTiming::calls_per_sample, &JsonObject::small_count),
      json_field("timed_out", &ModeTiming::timed_out, &JsonObject::boolean),
      json_field("stop_reason", &ModeTiming::stop_reason, &JsonObject::display_string),
      json_field("l2_resident", &ModeTiming::l2_resident, &JsonObject::boolean),
      json_field("sm_clock_mhz", &ModeTiming::sm_clock_mhz, &JsonObject::non_negative),
      json_field("min_sm_clock_mhz", &ModeTiming::min_sm_clock_mhz, &JsonObject::non_negative),
      json_field("low_clock_samples", &ModeTiming::low_clock_samples, &JsonObject::small_count),
      json_field("warnings", &ModeTiming::warnings, &JsonObject::display_string_items),
      json_object("stats", &ModeTiming::stats, &stats_fields),
      {"samples_ms", [](const ModeTiming& t) { return samples_to_json(t.samples_ms); }, &read_samples},
      // Written only when more than one process contributed; absent means 1.
      {"processes", [](const ModeTiming& t) { return t.processes > 1 ? json(t.processes) : json(json::value_t::discarded); },
       [](const JsonObject& object, const std::string& key, ModeTiming& t) {
         if (!object.has(key)) return;
         t.processes = object.small_count(key);
         if (t.processes < 1) object.fail(key, "an integer >= 1");
       }},
      // Only where NVML gave readings.
      {"telemetry", [](const ModeTiming& t) { return telemetry_to_json(t.telemetry); },
       [](const JsonObject& object, const std::string& key, ModeTiming& t) {
         if (object.has(key)) t.telemetry = telemetry_from_json(object.at(key), object.place(key).path);
       }},
      // Host wall times; files from before they were recorded leave them out (0).
      optional_seconds("warmup_s", &ModeTiming::warmup_s),
      optional_seconds("wall_s", &ModeTiming::wall_s),
  };
  return fields;
}

const JsonFields<RowWallTime>& row_wall_fields() {
  static const JsonFields<RowWallTime> fields{
      json_field("prepare", &RowWallTime::prepare_s, &JsonObject::non_negative),
      json_field("verify", &RowWallTime::verify_s, &JsonObject::non_negative),
      json_field("timing", &RowWallTime::timing_s, &JsonObject::non_negative),
      json_field("breakdown", &RowWallTime::breakdown_s, &JsonObject::non_negative),
      json_field("counters", &RowWallTime::counters_s, &JsonObject::non_negative),
  };
  return fields;
}

}  // namespace

const JsonFields<Traffic>& traffic_fields() {
  static const JsonFields<Traffic> fields{
      json_field("bytes_read", &Traffic::bytes_read, &JsonObject::non_negative),
      json_field("bytes_written", &Traffic::bytes_written, &JsonObject::non_negative),
      json_field("flops", &Traffic::flops, &JsonObject::non_negative),
      json_field("math", &Traffic::math, &JsonObject::display_string),
  };
  return fields;
}

namespace {

/// Extents: positive integers whose product (and byte counts) an int64 holds.
void read_shape(const JsonObject& object, const std::string& key, CaseResult& c) {
  constexpr auto kLargest = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  const json& shape = object.array(key);
  for (std::size_t i = 0; i < shape.size(); ++i) {
    const json& extent = shape[i];
    const bool positive = extent.is_number_unsigned()
                              ? extent.get<std::uint64_t>() >= 1 && extent.get<std::uint64_t>() <= kLargest
                              : extent.is_number_integer() && extent.get<std::int64_t>() > 0;
    if (!positive) found_expected(object.place(key).index(i), extent, "a positive integer below 2^63");
    c.shape.push_back(extent.get<std::int64_t>());
  }
  try {
    element_count(c.shape);
  } catch (const std::invalid_argument& e) {
    input_error(object.place(key), e.what());
  }
}

const JsonFields<CaseResult>& case_fields() {
  static const JsonFields<CaseResult> fields{
      json_field("op", &CaseResult::op, &JsonObject::display_string),
      json_field("variant", &CaseResult::variant, &JsonObject::display_string),
      json_field("role", &CaseResult::role, &JsonObject::name<VariantRole>),
      json_field("kernels_per_call", &CaseResult::kernels_per_call, &JsonObject::small_count),
      // Only for variants from outside kbench: a plugin's or kernel file's path.
      {"source", [](const CaseResult& c) { return c.source == kKbenchSource ? json(json::value_t::discarded) : json(c.source); },
       [](const JsonObject& object, const std::string& key, CaseResult& c) {
         c.source = object.has(key) ? object.display_string(key) : std::string(kKbenchSource);
       }},
      json_field("dtype", &CaseResult::dtype, &JsonObject::display_string),
      json_field("size_class", &CaseResult::size_class, &JsonObject::display_string),
      {"shape", [](const CaseResult& c) { return json(c.shape); }, &read_shape},
      json_field("elements", &CaseResult::elements, &JsonObject::count),
      json_object("traffic", &CaseResult::traffic, &traffic_fields),
      json_field("status", &CaseResult::status, &JsonObject::name<CaseStatus>),
      json_field("message", &CaseResult::message, &JsonObject::display_string),
      json_group<CaseResult>("verification",
                             {json_field("mismatches", &CaseResult::mismatches, &JsonObject::count),
                              json_field("max_abs_error", &CaseResult::max_abs_error, &JsonObject::non_negative),
                              json_field("rel_l2_error", &CaseResult::rel_l2_error, &JsonObject::non_negative)}),
      // Left out when the variant was not called; files from before first calls were timed leave it out too.
      {"first_call_ms",
       [](const CaseResult& c) { return c.first_call_ms ? json(*c.first_call_ms) : json(json::value_t::discarded); },
       [](const JsonObject& object, const std::string& key, CaseResult& c) {
         if (object.has(key)) c.first_call_ms = object.optional_non_negative(key);
       }},
      json_list("timings", &CaseResult::timings, &timing_fields),
      json_group<CaseResult>(
          "derived",
          {json_field("bandwidth_gbps", &CaseResult::bandwidth_gbps, &JsonObject::non_negative),
           json_field("tflops", &CaseResult::tflops, &JsonObject::non_negative),
           json_field("bandwidth_efficiency", &CaseResult::bandwidth_efficiency, &JsonObject::non_negative),
           json_field("compute_efficiency", &CaseResult::compute_efficiency, &JsonObject::non_negative),
           json_field("bound", &CaseResult::bound, &JsonObject::optional_name<Bound>),
           json_field("efficiency", &CaseResult::efficiency, &JsonObject::non_negative),
           json_field("roof_fraction", &CaseResult::roof_fraction, &JsonObject::optional_non_negative),
           json_field("baseline_ms", &CaseResult::baseline_ms, &JsonObject::optional_non_negative),
           json_field("speed_ratio", &CaseResult::speed_ratio, &JsonObject::optional_non_negative),
           // eager - hot: may be negative
           json_field("launch_overhead_ms", &CaseResult::launch_overhead_ms, &JsonObject::optional_number),
           json_field("headline_mode", &CaseResult::headline_mode, &JsonObject::optional_name<MeasureMode>),
           json_field("band", &CaseResult::band, &JsonObject::optional_name<Band>)}),
      // Written as null when not traced; files from before breakdowns leave the key out.
      {"kernel_breakdown", [](const CaseResult& c) { return breakdown_to_json(c.breakdown); },
       [](const JsonObject& object, const std::string& key, CaseResult& c) {
         if (object.has(key)) c.breakdown = breakdown_from_json(object.at(key), object.place(key).path);
       }},
      // An index into the top-level devices; absent: 0 (checked against them in check_devices).
      {"device", [](const CaseResult& c) { return c.device == 0 ? json(json::value_t::discarded) : json(c.device); },
       [](const JsonObject& object, const std::string& key, CaseResult& c) {
         if (object.has(key)) c.device = static_cast<std::size_t>(object.count(key));
       }},
      // Only with --counters.
      {"hardware_counters", [](const CaseResult& c) { return counters_to_json(c.counters); },
       [](const JsonObject& object, const std::string& key, CaseResult& c) {
         if (object.has(key)) c.counters = counters_from_json(object.at(key), object.place(key).path);
       }},
      // Host seconds by phase; files from before it was recorded leave it out.
      {"wall_s", [](const CaseResult& c) { return c.wall ? write_fields(*c.wall, row_wall_fields()) : json(json::value_t::discarded); },
       [](const JsonObject& object, const std::string& key, CaseResult& c) {
         if (object.has(key)) read_fields(object.object(key), c.wall.emplace(), row_wall_fields());
       }},
  };
  return fields;
}

const JsonFields<DeviceInfo>& device_fields() {
  static const JsonFields<DeviceInfo> fields{
      json_field("index", &DeviceInfo::index, &JsonObject::small_count),
      json_field("name", &DeviceInfo::name, &JsonObject::display_string),
      json_field("pci_bus_id", &DeviceInfo::pci_bus_id, &JsonObject::display_string),
      {"compute_capability", [](const DeviceInfo& d) { return json(std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor)); },
       [](const JsonObject& object, const std::string& key, DeviceInfo& d) {
         if (!parse_compute_capability(object.string(key), d.cc_major, d.cc_minor)) object.fail(key, "MAJOR.MINOR, e.g. \"9.0\"");
       }},
      json_field("sm_count", &DeviceInfo::sm_count, &JsonObject::small_count),
      json_field("l2_bytes", &DeviceInfo::l2_bytes, &JsonObject::count),
      json_field("global_memory_bytes", &DeviceInfo::global_memory_bytes, &JsonObject::count),
      json_field("sm_clock_khz", &DeviceInfo::sm_clock_khz, &JsonObject::small_count),
      json_field("memory_clock_khz", &DeviceInfo::memory_clock_khz, &JsonObject::small_count),
      json_field("bus_width_bits", &DeviceInfo::bus_width_bits, &JsonObject::small_count),
      json_field("ecc_enabled", &DeviceInfo::ecc_enabled, &JsonObject::boolean),
      json_field("driver_version", &DeviceInfo::driver_version, &JsonObject::small_count),
      json_field("runtime_version", &DeviceInfo::runtime_version, &JsonObject::small_count),
      json_scaled("peak_bandwidth_gbps", &DeviceInfo::peak_bandwidth_bytes_per_s, 1e9),
      json_field("peak_bandwidth_source", &DeviceInfo::peak_bandwidth_source, &JsonObject::display_string),
      json_scaled("peak_fp32_tflops", &DeviceInfo::peak_fp32_flops, 1e12),
      json_scaled("peak_tf32_tensor_tflops", &DeviceInfo::peak_tf32_tensor_flops, 1e12),
      json_scaled("peak_fp16_tensor_tflops", &DeviceInfo::peak_fp16_tensor_flops, 1e12),
      json_field("peak_flops_source", &DeviceInfo::peak_flops_source, &JsonObject::display_string),
  };
  return fields;
}

}  // namespace

const JsonFields<BuildInfo>& build_fields() {
  static const JsonFields<BuildInfo> fields{
      json_field("version", &BuildInfo::version, &JsonObject::display_string),
      json_field("git_commit", &BuildInfo::git_commit, &JsonObject::display_string),
      json_field("git_dirty", &BuildInfo::git_dirty, &JsonObject::display_string),
      json_field("build_type", &BuildInfo::build_type, &JsonObject::display_string),
      json_field("optimized", &BuildInfo::optimized, &JsonObject::boolean),
      json_field("device_debug", &BuildInfo::device_debug, &JsonObject::boolean),
      json_field("cuda_architectures", &BuildInfo::cuda_architectures, &JsonObject::display_string),
      json_field("cxx_compiler", &BuildInfo::cxx_compiler, &JsonObject::display_string),
      json_field("cuda_compiler", &BuildInfo::cuda_compiler, &JsonObject::display_string),
  };
  return fields;
}

json settings_to_json(const MeasureSettings& settings) {
  json out = json::object();
  for (const MeasureSettingRow& row : measure_settings_table()) {
    if (listed_in_results(settings, row)) out[row.key] = setting_to_json(settings, row);
  }
  return out;
}

json plan_identity_to_json(const PlanIdentity& plan) {
  json shard = nullptr;
  if (plan.shard_count > 1) {
    shard = {{"index", plan.shard_index + 1}, {"count", plan.shard_count}, {"source", plan.shard_source}};
  }
  return {{"fingerprint", plan.fingerprint}, {"cases", plan.cases}, {"shard", shard}};
}

namespace {

json plan_to_json(const std::optional<PlanIdentity>& plan) {
  if (!plan) return json(json::value_t::discarded);
  return plan_identity_to_json(*plan);
}

void read_plan(const JsonObject& parent, const std::string& key, RunResults& results) {
  if (!parent.has(key)) return;  // files from before plans were recorded
  const JsonObject object = parent.object(key);
  PlanIdentity plan;
  plan.fingerprint = object.string("fingerprint");
  // Escaped as the rows' op, variant and dtype are (display_string), so that merges match them.
  plan.cases = object.display_string_items("cases");
  if (!object.at("shard").is_null()) {
    const JsonObject shard = object.object("shard");
    const std::int64_t count = shard.count("count"), index = shard.count("index");
    if (count < 1 || count > 10000) shard.fail("count", "an integer from 1 to 10000");
    if (index < 1 || index > count) shard.fail("index", "an integer from 1 to the shard count");
    plan.shard_index = static_cast<std::size_t>(index - 1);
    plan.shard_count = static_cast<std::size_t>(count);
    plan.shard_source = shard.display_string("source");
  }
  results.plan = std::move(plan);
}


void read_settings(const JsonObject& parent, const std::string& key, RunResults& results) {
  const JsonObject object = parent.object(key);
  for (const MeasureSettingRow& row : measure_settings_table()) {
    if (row.may_be_absent && !object.has(row.key)) continue;
    const std::string error = setting_from_json(results.settings, row, object.at(row.key));
    if (!error.empty()) input_error(object.place(row.key), "found " + describe_json(object.at(row.key)) + "; " + error);
  }
  // Within the ranges a run accepts (measure_settings.hpp), as the options and configs are.
  if (const std::string problem = validate(results.settings); !problem.empty()) input_error(object.place(), problem);
}

/// Only version 1 is read; a newer file says so.
void read_schema_version(const JsonObject& object, const std::string& key, RunResults& results) {
  const std::int64_t version = object.integer(key);
  if (version != kResultsSchemaVersion) {
    throw InputError("$.schema_version is " + std::to_string(version) + "; this kbench reads version " +
                     std::to_string(kResultsSchemaVersion) +
                     (version > kResultsSchemaVersion ? " (the file comes from a newer kbench: update kbench to read it)" : ""));
  }
  results.schema_version = kResultsSchemaVersion;
}

const JsonFields<RunResults>& results_fields() {
  static const JsonFields<RunResults> fields{
      {"schema_version", [](const RunResults& r) { return json(r.schema_version); }, &read_schema_version},
      json_object("kbench", &RunResults::build, &build_fields),
      json_field("command_line", &RunResults::command_line, &JsonObject::display_string),
      json_field("utc_time", &RunResults::utc_time, &JsonObject::display_string),
      json_field("host", &RunResults::host, &JsonObject::display_string),
      json_field("seed", &RunResults::seed, &JsonObject::unsigned_integer),
      json_field("run_state", &RunResults::run_state, &JsonObject::name<RunState>),
      json_object("device", &RunResults::device, &device_fields),
      {"settings", [](const RunResults& r) { return settings_to_json(r.settings); }, &read_settings},
      // Files from before run notes leave the key out.
      {"notes", [](const RunResults& r) { return json(r.notes); },
       [](const JsonObject& object, const std::string& key, RunResults& r) {
         if (object.has(key)) r.notes = object.display_string_items(key);
       }},
      json_list("cases", &RunResults::cases, &case_fields),
      // Both optional: only runs over several devices write devices; files from before plans lack plan.
      {"devices",
       [](const RunResults& r) {
         if (r.devices.empty()) return json(json::value_t::discarded);
         json out = json::array();
         for (const DeviceInfo& d : r.devices) out.push_back(write_fields(d, device_fields()));
         return out;
       },
       [](const JsonObject& object, const std::string& key, RunResults& r) {
         if (!object.has(key)) return;
         const json& items = object.array(key);
         for (std::size_t i = 0; i < items.size(); ++i) {
           DeviceInfo device;
           read_fields(JsonObject(items[i], object.place(key).index(i)), device, device_fields());
           r.devices.push_back(std::move(device));
         }
       }},
      {"plan", [](const RunResults& r) { return plan_to_json(r.plan); }, &read_plan},
  };
  return fields;
}

}  // namespace

json to_json(const RunResults& results) { return write_fields(results, results_fields()); }

json to_json(const DeviceInfo& device) { return write_fields(device, device_fields()); }

namespace {

/// One row per op x variant x dtype x shape, and one timing per mode in each row: a repeated one
/// would be judged, compared or reported twice (or the wrong one of the two).
void check_unique_rows(const RunResults& results) {
  if (results.cases.size() > kMaxResultsRows) {
    throw InputError("$.cases: holds " + std::to_string(results.cases.size()) + " rows; expected at most " +
                     std::to_string(kMaxResultsRows));
  }
  std::map<std::tuple<std::string, std::string, std::string, Shape>, std::size_t> seen;
  for (std::size_t i = 0; i < results.cases.size(); ++i) {
    const CaseResult& row = results.cases[i];
    const std::string place = "$.cases[" + std::to_string(i) + "]";
    const auto [first, inserted] = seen.emplace(std::make_tuple(row.op, row.variant, row.dtype, row.shape), i);
    if (!inserted) {
      throw InputError(place + ": repeats the row of $.cases[" + std::to_string(first->second) + "] (" +
                       printable(row.op) + " " + printable(row.variant) + " " + printable(row.dtype) + " " +
                       format_shape(row.shape) + "); expected one row per op, variant, dtype and shape");
    }
    for (std::size_t t = 0; t < row.timings.size(); ++t) {
      for (std::size_t u = 0; u < t; ++u) {
        if (row.timings[u].mode == row.timings[t].mode) {
          throw InputError(place + ".timings[" + std::to_string(t) + "]: repeats the " + std::string(enum_name(row.timings[t].mode)) +
                           " timing of " + place + ".timings[" + std::to_string(u) + "]; expected one timing per mode");
        }
      }
    }
  }
}

/// Each row's device is one of the file's devices.
void check_devices(const RunResults& results) {
  const std::size_t known = std::max<std::size_t>(1, results.devices.size());
  for (std::size_t i = 0; i < results.cases.size(); ++i) {
    if (results.cases[i].device >= known) {
      throw InputError("$.cases[" + std::to_string(i) + "].device: found " + std::to_string(results.cases[i].device) +
                       "; expected an index into $.devices (" + std::to_string(results.devices.size()) + " devices)");
    }
  }
}

}  // namespace

RunResults results_from_json(const json& document) {
  RunResults results;
  read_fields(JsonObject(document, JsonPlace{"", "$", JsonWording::results}), results, results_fields());
  check_unique_rows(results);
  check_devices(results);
  return results;
}

void write_results_file(const RunResults& results, const std::string& path) {
  write_file_atomically(path, dump_with_number_arrays_inline(to_json(results)) + '\n');
}

RunResults read_results_file(const std::string& path) {
  const json document = read_json_file(path, kMaxResultsFileBytes);
  try {
    return results_from_json(document);
  } catch (const InputError& e) {
    throw InputError(printable(path) + ": " + e.what());
  }
}

}  // namespace kbench
