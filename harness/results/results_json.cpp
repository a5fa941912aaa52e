#include "harness/results/results_json.hpp"

#include "harness/common/json_input.hpp"
#include "harness/results/kernel_breakdown_json.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <stdexcept>

namespace kbench {

using nlohmann::json;

namespace {

json optional_number(const std::optional<double>& value) { return value ? json(*value) : json(nullptr); }

template <typename Enum>
json optional_name(const std::optional<Enum>& value) { return value ? std::string(enum_name(*value)) : std::string(); }

json stats_to_json(const SampleStats& s) {
  return {{"count", s.count}, {"median_ms", s.median}, {"min_ms", s.min},    {"max_ms", s.max},
          {"mean_ms", s.mean}, {"stddev_ms", s.stddev}, {"q1_ms", s.q1},     {"q3_ms", s.q3},
          {"relative_iqr", s.relative_iqr()}};
}

json timing_to_json(const ModeTiming& t) {
  return {{"mode", enum_name(t.mode)},
          {"warmup_calls", t.warmup_calls},
          {"calls_per_sample", t.calls_per_sample},
          {"timed_out", t.timed_out},
          {"stop_reason", t.stop_reason},
          {"l2_resident", t.l2_resident},
          {"sm_clock_mhz", t.sm_clock_mhz},
          {"min_sm_clock_mhz", t.min_sm_clock_mhz},
          {"low_clock_samples", t.low_clock_samples},
          {"warnings", t.warnings},
          {"stats", stats_to_json(t.stats)},
          {"samples_ms", t.samples_ms}};
}

json case_to_json(const CaseResult& c) {
  json timings = json::array();
  for (const ModeTiming& t : c.timings) timings.push_back(timing_to_json(t));
  return {
      {"op", c.op},
      {"variant", c.variant},
      {"role", enum_name(c.role)},
      {"kernels_per_call", c.kernels_per_call},
      {"dtype", c.dtype},
      {"size_class", c.size_class},
      {"shape", c.shape},
      {"elements", c.elements},
      {"traffic",
       {{"bytes_read", c.traffic.bytes_read},
        {"bytes_written", c.traffic.bytes_written},
        {"flops", c.traffic.flops},
        {"math", c.traffic.math}}},
      {"status", status_name(c.status)},
      {"message", c.message},
      {"verification", {{"mismatches", c.mismatches}, {"max_abs_error", c.max_abs_error}, {"rel_l2_error", c.rel_l2_error}}},
      {"timings", timings},
      {"derived",
       {{"bandwidth_gbps", c.bandwidth_gbps},
        {"tflops", c.tflops},
        {"bandwidth_efficiency", c.bandwidth_efficiency},
        {"compute_efficiency", c.compute_efficiency},
        {"bound", optional_name(c.bound)},
        {"efficiency", c.efficiency},
        {"roof_fraction", optional_number(c.roof_fraction)},
        {"baseline_ms", optional_number(c.baseline_ms)},
        {"speed_ratio", optional_number(c.speed_ratio)},
        {"launch_overhead_ms", optional_number(c.launch_overhead_ms)},
        {"headline_mode", optional_name(c.headline_mode)},
        {"band", optional_name(c.band)}}},
      {"kernel_breakdown", breakdown_to_json(c.breakdown)},
  };
}

json device_to_json(const DeviceInfo& d) {
  return {{"index", d.index},
          {"name", d.name},
          {"pci_bus_id", d.pci_bus_id},
          {"compute_capability", std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor)},
          {"sm_count", d.sm_count},
          {"l2_bytes", d.l2_bytes},
          {"global_memory_bytes", d.global_memory_bytes},
          {"sm_clock_khz", d.sm_clock_khz},
          {"memory_clock_khz", d.memory_clock_khz},
          {"bus_width_bits", d.bus_width_bits},
          {"ecc_enabled", d.ecc_enabled},
          {"driver_version", d.driver_version},
          {"runtime_version", d.runtime_version},
          {"peak_bandwidth_gbps", d.peak_bandwidth_bytes_per_s / 1e9},
          {"peak_bandwidth_source", d.peak_bandwidth_source},
          {"peak_fp32_tflops", d.peak_fp32_flops / 1e12},
          {"peak_tf32_tensor_tflops", d.peak_tf32_tensor_flops / 1e12},
          {"peak_fp16_tensor_tflops", d.peak_fp16_tensor_flops / 1e12},
          {"peak_flops_source", d.peak_flops_source}};
}

json build_to_json(const BuildInfo& b) {
  return {{"version", b.version},         {"git_commit", b.git_commit},
          {"git_dirty", b.git_dirty},     {"build_type", b.build_type},
          {"optimized", b.optimized},     {"device_debug", b.device_debug},
          {"cuda_architectures", b.cuda_architectures},
          {"cxx_compiler", b.cxx_compiler}, {"cuda_compiler", b.cuda_compiler}};
}

json settings_to_json(const MeasureSettings& settings) {
  json out = json::object();
  for (const MeasureSettingRow& row : measure_settings_table()) out[row.key] = setting_to_json(settings, row);
  return out;
}

// ---- reading ------------------------------------------------------------------------------

/// "9.0" -> 9, 0; false for anything else (std::from_chars refuses what an int cannot hold).
bool parse_compute_capability(const std::string& text, int& major, int& minor) {
  const char* const end = text.data() + text.size();
  const auto [dot, major_error] = std::from_chars(text.data(), end, major);
  if (major_error != std::errc() || dot == end || *dot != '.' || major < 0) return false;
  const auto [last, minor_error] = std::from_chars(dot + 1, end, minor);
  return minor_error == std::errc() && last == end && minor >= 0;
}

constexpr auto kLargestInt64 = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());

/// Field access that reports the JSON path of whatever is missing, mistyped or out of range:
/// "$.cases[0].timings[0].stats.median_ms: found -0.5; expected a number >= 0".
class Reader {
 public:
  Reader(const json& node, std::string path) : node_(node), path_(std::move(path)) {
    if (!node_.is_object()) fail_at(path_, node_, "an object");
  }
  const json& at(const std::string& key) const {
    auto it = node_.find(key);
    if (it == node_.end()) throw InputError("missing field " + path_ + "." + key);
    return *it;
  }
  Reader object(const std::string& key) const { return Reader(at(key), path(key)); }
  std::string string(const std::string& key) const {
    const json& v = at(key);
    if (!v.is_string()) fail(key, "a string");
    return v.get<std::string>();
  }
  double number(const std::string& key) const {
    const json& v = at(key);
    if (!v.is_number()) fail(key, "a number");
    return v.get<double>();
  }
  /// Times, rates, byte counts: NaN (written as null) and negative values are refused.
  double non_negative(const std::string& key) const {
    const json& v = at(key);
    if (!v.is_number() || !(v.get<double>() >= 0)) fail(key, "a number >= 0");
    return v.get<double>();
  }
  std::int64_t integer(const std::string& key) const {
    const json& v = at(key);
    if (!v.is_number_integer() || (v.is_number_unsigned() && v.get<std::uint64_t>() > kLargestInt64)) {
      fail(key, "an integer");
    }
    return v.get<std::int64_t>();
  }
  /// A count (samples, calls, elements): an integer >= 0.
  std::int64_t count(const std::string& key) const {
    const std::int64_t value = integer(key);
    if (value < 0) fail(key, "an integer >= 0");
    return value;
  }
  /// A count that an int holds.
  int small_count(const std::string& key) const {
    const std::int64_t value = count(key);
    if (value > std::numeric_limits<int>::max()) fail(key, "an integer from 0 to 2147483647");
    return static_cast<int>(value);
  }
  /// An integer that an int holds (device attributes).
  int int_value(const std::string& key) const {
    const std::int64_t value = integer(key);
    if (value < std::numeric_limits<int>::min() || value > std::numeric_limits<int>::max()) {
      fail(key, "an integer from -2147483648 to 2147483647");
    }
    return static_cast<int>(value);
  }
  bool boolean(const std::string& key) const {
    const json& v = at(key);
    if (!v.is_boolean()) fail(key, "true or false");
    return v.get<bool>();
  }
  std::optional<double> optional_number(const std::string& key) const {
    const json& v = at(key);
    if (v.is_null()) return std::nullopt;
    if (!v.is_number()) fail(key, "a number or null");
    return v.get<double>();
  }
  std::optional<double> optional_non_negative(const std::string& key) const {
    const json& v = at(key);
    if (v.is_null()) return std::nullopt;
    if (!v.is_number() || !(v.get<double>() >= 0)) fail(key, "a number >= 0 or null");
    return v.get<double>();
  }
  /// One name of an enum's table.
  template <typename Enum>
  Enum name(const std::string& key) const {
    const std::string text = string(key);
    if (const std::optional<Enum> value = enum_from_name<Enum>(text)) return *value;
    throw InputError(path(key) + " is '" + text + "'; expected " + enum_names_text<Enum>());
  }
  /// One name of an enum's table, or "" for none.
  template <typename Enum>
  std::optional<Enum> optional_name(const std::string& key) const {
    const std::string text = string(key);
    if (text.empty()) return std::nullopt;
    if (const std::optional<Enum> value = enum_from_name<Enum>(text)) return *value;
    throw InputError(path(key) + " is '" + text + "'; expected " + enum_names_text<Enum>(", ") + " or \"\"");
  }
  const json& array(const std::string& key) const {
    const json& v = at(key);
    if (!v.is_array()) fail(key, "an array");
    return v;
  }
  std::string path(const std::string& key) const { return path_ + "." + key; }
  const json& node() const { return node_; }
  [[noreturn]] void fail(const std::string& key, const std::string& expected) const {
    fail_at(path(key), node_.at(key), expected);
  }
  [[noreturn]] static void fail_at(const std::string& where, const json& found, const std::string& expected) {
    throw InputError(where + ": found " + describe_json(found) + "; expected " + expected);
  }

 private:
  const json& node_;
  std::string path_;
};

SampleStats stats_from_json(const Reader& r) {
  SampleStats s;
  s.count = static_cast<std::size_t>(r.count("count"));
  s.median = r.non_negative("median_ms");
  s.min = r.non_negative("min_ms");
  s.max = r.non_negative("max_ms");
  s.mean = r.non_negative("mean_ms");
  s.stddev = r.non_negative("stddev_ms");
  s.q1 = r.non_negative("q1_ms");
  s.q3 = r.non_negative("q3_ms");
  return s;
}

ModeTiming timing_from_json(const Reader& r) {
  ModeTiming t;
  t.mode = r.name<MeasureMode>("mode");
  t.warmup_calls = r.small_count("warmup_calls");
  t.calls_per_sample = r.small_count("calls_per_sample");
  t.timed_out = r.boolean("timed_out");
  t.stop_reason = r.string("stop_reason");
  t.l2_resident = r.boolean("l2_resident");
  t.sm_clock_mhz = r.non_negative("sm_clock_mhz");
  t.min_sm_clock_mhz = r.non_negative("min_sm_clock_mhz");
  t.low_clock_samples = r.small_count("low_clock_samples");
  const json& warnings = r.array("warnings");
  for (std::size_t i = 0; i < warnings.size(); ++i) {
    const std::string where = r.path("warnings") + "[" + std::to_string(i) + "]";
    if (!warnings[i].is_string()) Reader::fail_at(where, warnings[i], "a string");
    t.warnings.push_back(warnings[i].get<std::string>());
  }
  t.stats = stats_from_json(r.object("stats"));
  const json& samples = r.array("samples_ms");
  for (std::size_t i = 0; i < samples.size(); ++i) {
    if (!samples[i].is_number() || !(samples[i].get<double>() >= 0)) {
      Reader::fail_at(r.path("samples_ms") + "[" + std::to_string(i) + "]", samples[i], "a number >= 0 (ms)");
    }
    t.samples_ms.push_back(samples[i].get<double>());
  }
  return t;
}

CaseResult case_from_json(const Reader& r) {
  CaseResult c;
  c.op = r.string("op");
  c.variant = r.string("variant");
  c.role = r.name<VariantRole>("role");
  c.kernels_per_call = r.small_count("kernels_per_call");
  c.dtype = r.string("dtype");
  c.size_class = r.string("size_class");
  const json& shape = r.array("shape");
  for (std::size_t i = 0; i < shape.size(); ++i) {
    const json& extent = shape[i];
    const bool positive = extent.is_number_unsigned()
                              ? extent.get<std::uint64_t>() >= 1 && extent.get<std::uint64_t>() <= kLargestInt64
                              : extent.is_number_integer() && extent.get<std::int64_t>() > 0;
    if (!positive) Reader::fail_at(r.path("shape") + "[" + std::to_string(i) + "]", extent, "a positive integer below 2^63");
    c.shape.push_back(extent.get<std::int64_t>());
  }
  try {
    element_count(c.shape);
  } catch (const std::invalid_argument& e) {
    throw InputError(r.path("shape") + ": " + e.what());
  }
  c.elements = r.count("elements");
  const Reader traffic = r.object("traffic");
  c.traffic = {traffic.non_negative("bytes_read"), traffic.non_negative("bytes_written"), traffic.non_negative("flops"),
               traffic.string("math")};
  c.status = r.name<CaseStatus>("status");
  c.message = r.string("message");
  const Reader verification = r.object("verification");
  c.mismatches = verification.count("mismatches");
  c.max_abs_error = verification.non_negative("max_abs_error");
  c.rel_l2_error = verification.non_negative("rel_l2_error");
  const json& timings = r.array("timings");
  for (std::size_t i = 0; i < timings.size(); ++i) {
    c.timings.push_back(timing_from_json(Reader(timings[i], r.path("timings") + "[" + std::to_string(i) + "]")));
  }
  const Reader derived = r.object("derived");
  c.bandwidth_gbps = derived.non_negative("bandwidth_gbps");
  c.tflops = derived.non_negative("tflops");
  c.bandwidth_efficiency = derived.non_negative("bandwidth_efficiency");
  c.compute_efficiency = derived.non_negative("compute_efficiency");
  c.bound = derived.optional_name<Bound>("bound");
  c.efficiency = derived.non_negative("efficiency");
  c.roof_fraction = derived.optional_non_negative("roof_fraction");
  c.baseline_ms = derived.optional_non_negative("baseline_ms");
  c.speed_ratio = derived.optional_non_negative("speed_ratio");
  c.launch_overhead_ms = derived.optional_number("launch_overhead_ms");  // eager - hot: may be negative
  c.headline_mode = derived.optional_name<MeasureMode>("headline_mode");
  c.band = derived.optional_name<Band>("band");
  if (const json& node = r.node(); node.contains("kernel_breakdown")) {
    c.breakdown = breakdown_from_json(node.at("kernel_breakdown"), r.path("kernel_breakdown"));
  }
  return c;
}

DeviceInfo device_from_json(const Reader& r) {
  DeviceInfo d;
  d.index = r.int_value("index");
  d.name = r.string("name");
  d.pci_bus_id = r.string("pci_bus_id");
  const std::string cc = r.string("compute_capability");
  if (!parse_compute_capability(cc, d.cc_major, d.cc_minor)) r.fail("compute_capability", "MAJOR.MINOR, e.g. \"9.0\"");
  d.sm_count = r.int_value("sm_count");
  d.l2_bytes = r.integer("l2_bytes");
  d.global_memory_bytes = r.integer("global_memory_bytes");
  d.sm_clock_khz = r.int_value("sm_clock_khz");
  d.memory_clock_khz = r.int_value("memory_clock_khz");
  d.bus_width_bits = r.int_value("bus_width_bits");
  d.ecc_enabled = r.boolean("ecc_enabled");
  d.driver_version = r.int_value("driver_version");
  d.runtime_version = r.int_value("runtime_version");
  d.peak_bandwidth_bytes_per_s = r.non_negative("peak_bandwidth_gbps") * 1e9;
  d.peak_bandwidth_source = r.string("peak_bandwidth_source");
  d.peak_fp32_flops = r.non_negative("peak_fp32_tflops") * 1e12;
  d.peak_tf32_tensor_flops = r.non_negative("peak_tf32_tensor_tflops") * 1e12;
  d.peak_fp16_tensor_flops = r.non_negative("peak_fp16_tensor_tflops") * 1e12;
  d.peak_flops_source = r.string("peak_flops_source");
  return d;
}

BuildInfo build_from_json(const Reader& r) {
  BuildInfo b;
  b.version = r.string("version");
  b.git_commit = r.string("git_commit");
  b.git_dirty = r.string("git_dirty");
  b.build_type = r.string("build_type");
  b.optimized = r.boolean("optimized");
  b.device_debug = r.boolean("device_debug");
  b.cuda_architectures = r.string("cuda_architectures");
  b.cxx_compiler = r.string("cxx_compiler");
  b.cuda_compiler = r.string("cuda_compiler");
  return b;
}

MeasureSettings settings_from_json(const Reader& r) {
  MeasureSettings settings;
  for (const MeasureSettingRow& row : measure_settings_table()) {
    const std::string error = setting_from_json(settings, row, r.at(row.key));
    if (!error.empty()) throw InputError(r.path(row.key) + ": found " + describe_json(r.at(row.key)) + "; " + error);
  }
  return settings;
}

}  // namespace

json to_json(const RunResults& results) {
  json cases = json::array();
  for (const CaseResult& c : results.cases) cases.push_back(case_to_json(c));
  return {{"schema_version", results.schema_version},
          {"kbench", build_to_json(results.build)},
          {"command_line", results.command_line},
          {"utc_time", results.utc_time},
          {"host", results.host},
          {"seed", results.seed},
          {"run_state", enum_name(results.run_state)},
          {"device", device_to_json(results.device)},
          {"settings", settings_to_json(results.settings)},
          {"notes", results.notes},
          {"cases", cases}};
}

RunResults results_from_json(const json& document) {
  const Reader root(document, "$");
  RunResults results;
  const std::int64_t version = root.integer("schema_version");
  if (version != kResultsSchemaVersion) {
    throw InputError("$.schema_version is " + std::to_string(version) + "; this kbench reads version " +
                     std::to_string(kResultsSchemaVersion) +
                     (version > kResultsSchemaVersion ? " (the file comes from a newer kbench: update kbench to read it)" : ""));
  }
  results.schema_version = kResultsSchemaVersion;
  results.build = build_from_json(root.object("kbench"));
  results.command_line = root.string("command_line");
  results.utc_time = root.string("utc_time");
  results.host = root.string("host");
  const json& seed = root.at("seed");
  if (!seed.is_number_unsigned()) root.fail("seed", "an integer >= 0");
  results.seed = seed.get<std::uint64_t>();
  results.run_state = root.name<RunState>("run_state");
  results.device = device_from_json(root.object("device"));
  results.settings = settings_from_json(root.object("settings"));
  if (document.contains("notes")) {
    const json& notes = root.array("notes");
    for (std::size_t i = 0; i < notes.size(); ++i) {
      if (!notes[i].is_string()) Reader::fail_at("$.notes[" + std::to_string(i) + "]", notes[i], "a string");
      results.notes.push_back(notes[i].get<std::string>());
    }
  }
  const json& cases = root.array("cases");
  for (std::size_t i = 0; i < cases.size(); ++i) {
    results.cases.push_back(case_from_json(Reader(cases[i], "$.cases[" + std::to_string(i) + "]")));
  }
  return results;
}

void write_results_file(const RunResults& results, const std::string& path) {
  const std::string temporary = path + ".tmp";
  {
    std::ofstream out(temporary);
    if (!out) throw std::runtime_error("cannot open '" + temporary + "' for writing");
    out << to_json(results).dump(2) << '\n';
    if (!out) throw std::runtime_error("writing '" + temporary + "' failed");
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    throw std::runtime_error("cannot rename '" + temporary + "' to '" + path + "'");
  }
}

RunResults read_results_file(const std::string& path) {
  const json document = read_json_file(path);
  try {
    return results_from_json(document);
  } catch (const InputError& e) {
    throw InputError(path + ": " + e.what());
  }
}

}  // namespace kbench
