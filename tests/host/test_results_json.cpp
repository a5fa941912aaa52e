#include "harness/results/results_json.hpp"
#include "support/catch.hpp"
#include "support/results_errors.hpp"
#include "support/test_paths.hpp"

#include <cstdio>
#include <fstream>

using namespace kbench;
using nlohmann::json;

namespace {
RunResults sample_results() {
  RunResults r;
  r.build = {"0.1.0", "abc123", "false", "Release", true, false, "90", "GNU 12.2.0", "NVIDIA 13.0.88"};
  r.device.name = "Synthetic GPU (test fixture)";
  r.device.cc_major = 9;
  r.device.sm_count = 132;
  r.device.l2_bytes = 50 << 20;
  r.device.memory_clock_khz = 2619000;
  r.device.bus_width_bits = 5120;
  r.device.peak_bandwidth_bytes_per_s = 3352.32e9;
  r.device.peak_bandwidth_source = "device attributes";
  r.device.peak_flops_source = "unknown";
  r.command_line = "kbench --op add";
  r.utc_time = "2026-11-22T00:00:00Z";
  r.host = "test";
  r.seed = 0xFEDCBA9876543210ull;  // above 2^53: must survive as an integer
  CaseResult c;
  c.op = "add";
  c.variant = "vectorized";
  c.role = VariantRole::own;
  c.dtype = "fp16";
  c.size_class = "large";
  c.shape = {4096, 4096};
  c.elements = 4096 * 4096;
  c.traffic = {6.7e7, 3.3e7, 1.6e7, "fp16_tensor"};
  c.kernels_per_call = 8;
  c.bound = Bound::memory;
  c.bandwidth_efficiency = 0.27;
  c.status = CaseStatus::passed;
  c.message = "ok";
  ModeTiming cold;
  cold.mode = MeasureMode::cold;
  cold.samples_ms = {0.1, 0.11, 0.12};
  cold.stats = summarize(cold.samples_ms);
  cold.warmup_calls = 10;
  cold.stop_reason = "noise_target";
  cold.sm_clock_mhz = 1980;
  cold.min_sm_clock_mhz = 1755;
  ModeTiming hot = cold;
  hot.mode = MeasureMode::hot;
  hot.samples_ms = {0.09, 0.095};
  hot.stats = summarize(hot.samples_ms);
  hot.calls_per_sample = 100;
  hot.l2_resident = true;
  hot.low_clock_samples = 2;
  hot.warnings = {"2 of 2 samples ran slow"};
  c.timings = {cold, hot};
  c.headline_mode = MeasureMode::cold;
  c.launch_overhead_ms = 0.004;
  c.bandwidth_gbps = 900;
  c.efficiency = 0.27;
  c.speed_ratio = 1.05;
  c.band = Band::poor;
  r.cases.push_back(c);
  CaseResult failed = c;
  failed.variant = "naive";  // one row per op, variant, dtype and shape
  failed.status = CaseStatus::incorrect;
  failed.timings.clear();
  failed.speed_ratio.reset();
  failed.launch_overhead_ms.reset();
  failed.band.reset();
  failed.mismatches = 12;
  r.cases.push_back(failed);
  return r;
}

using test::parse_error;

/// The message read_results_file throws for `path`, or "no error".
std::string file_error(const std::string& path) {
  try {
    read_results_file(path);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}
}  // namespace

TEST_CASE("results survive a JSON round trip", "[results]") {
  const RunResults original = sample_results();
  const json document = to_json(original);
  CHECK(document["schema_version"] == kResultsSchemaVersion);
  CHECK(document["device"]["peak_bandwidth_gbps"].get<double>() == Approx(3352.32));
  const RunResults back = results_from_json(json::parse(document.dump()));
  CHECK(back.seed == original.seed);
  CHECK(back.run_state == RunState::complete);
  CHECK(back.build.git_commit == "abc123");
  CHECK(back.device.name == original.device.name);
  CHECK(back.device.cc_major == 9);
  CHECK(back.device.peak_bandwidth_bytes_per_s == Approx(original.device.peak_bandwidth_bytes_per_s));
  REQUIRE(back.cases.size() == 2);
  CHECK(back.cases[0].shape == Shape{4096, 4096});
  CHECK(back.cases[0].kernels_per_call == 8);
  CHECK(back.cases[0].traffic.math == "fp16_tensor");
  CHECK(back.cases[0].bound == Bound::memory);
  REQUIRE(back.cases[0].timings.size() == 2);
  CHECK(back.cases[0].timings[0].samples_ms == original.cases[0].timings[0].samples_ms);
  CHECK(back.cases[0].headline()->stats.median == Approx(0.11));
  CHECK(back.cases[0].timing(MeasureMode::hot)->calls_per_sample == 100);
  CHECK(back.cases[0].timing(MeasureMode::hot)->l2_resident);
  CHECK(back.cases[0].timing(MeasureMode::hot)->low_clock_samples == 2);
  CHECK(back.cases[0].timing(MeasureMode::hot)->warnings == std::vector<std::string>{"2 of 2 samples ran slow"});
  CHECK(back.cases[0].timing(MeasureMode::cold)->min_sm_clock_mhz == 1755);
  CHECK(*back.cases[0].launch_overhead_ms == Approx(0.004));
  CHECK(*back.cases[0].speed_ratio == Approx(1.05));
  CHECK(back.cases[1].status == CaseStatus::incorrect);
  CHECK_FALSE(back.cases[1].speed_ratio);
  CHECK(back.cases[1].mismatches == 12);
  CHECK(to_json(back) == document);
}

TEST_CASE("bad results documents name the field", "[results]") {
  const json good = to_json(sample_results());
  json d = good;
  d["schema_version"] = 99;
  CHECK(contains(parse_error(d), "$.schema_version is 99; this kbench reads version 1"));
  d = good;
  d["cases"][1].erase("variant");
  CHECK(contains(parse_error(d), "missing field $.cases[1].variant"));
  d = good;
  d["cases"][0]["timings"][1]["stats"]["median_ms"] = -1.0;
  CHECK(contains(parse_error(d), "$.cases[0].timings[1].stats.median_ms"));
  d = good;
  d["cases"][0]["timings"][0]["mode"] = "lukewarm";
  CHECK(contains(parse_error(d), "$.cases[0].timings[0].mode is 'lukewarm'; expected cold, hot or eager"));
  d = good;
  d["run_state"] = "paused";
  CHECK(contains(parse_error(d), "$.run_state is 'paused'; expected complete, in_progress, interrupted or context_lost"));
  d = good;
  d["cases"][0]["status"] = "great";
  CHECK(contains(parse_error(d), "$.cases[0].status is 'great'"));
  d = good;
  d["cases"][0]["role"] = "star";
  CHECK(parse_error(d) == "$.cases[0].role is 'star'; expected own, baseline or roof");
  d = good;
  d["cases"][0]["derived"]["band"] = "fine";
  CHECK(parse_error(d) == "$.cases[0].derived.band is 'fine'; expected critical, poor, good or \"\"");
  d = good;
  d["cases"][1]["derived"]["bound"] = "latency";
  CHECK(parse_error(d) == "$.cases[1].derived.bound is 'latency'; expected memory, compute or \"\"");
  d = good;
  d["device"]["sm_count"] = "many";
  CHECK(contains(parse_error(d), "$.device.sm_count: found \"many\"; expected an integer"));
  CHECK(contains(parse_error(json::array()), "$: found an empty array; expected an object"));
}

TEST_CASE("results with NaN (null), negative or out-of-range figures are refused", "[results]") {
  const json good = to_json(sample_results());
  json d = good;
  d["cases"][0]["timings"][0]["stats"]["median_ms"] = nullptr;  // how a NaN is written
  CHECK(parse_error(d) == "$.cases[0].timings[0].stats.median_ms: found null; expected a number >= 0");
  d = good;
  d["cases"][0]["timings"][1]["samples_ms"][1] = -0.1;
  CHECK(parse_error(d) == "$.cases[0].timings[1].samples_ms[1]: found -0.1; expected a number >= 0 (ms)");
  d = good;
  d["cases"][0]["timings"][0]["stats"]["count"] = -3;
  CHECK(parse_error(d) == "$.cases[0].timings[0].stats.count: found -3; expected an integer >= 0");
  d = good;
  d["cases"][0]["timings"][0]["calls_per_sample"] = 4294967296ll;
  CHECK(parse_error(d) == "$.cases[0].timings[0].calls_per_sample: found 4294967296; expected an integer from 0 to 2147483647");
  d = good;
  d["cases"][0]["derived"]["speed_ratio"] = -1.0;
  CHECK(parse_error(d) == "$.cases[0].derived.speed_ratio: found -1.0; expected a number >= 0 or null");
  d = good;
  d["cases"][0]["derived"]["launch_overhead_ms"] = -0.001;  // eager faster than hot: allowed
  CHECK(parse_error(d) == "no error");
  d = good;
  d["cases"][0]["traffic"]["bytes_read"] = -5;
  CHECK(parse_error(d) == "$.cases[0].traffic.bytes_read: found -5; expected a number >= 0");
  d = good;
  d["cases"][0]["shape"] = {4294967296ll, 4294967296ll};
  CHECK(parse_error(d) == "$.cases[0].shape: shape 4294967296x4294967296 has too many elements (byte counts overflow 64 bits)");
  d = good;
  d["cases"][0]["shape"] = json::array();
  CHECK(parse_error(d) == "$.cases[0].shape: shape has no extents");
  d = good;
  d["cases"][0]["shape"][0] = 0;
  CHECK(parse_error(d) == "$.cases[0].shape[0]: found 0; expected a positive integer below 2^63");
  d = good;
  d["device"]["compute_capability"] = "99999999999.0";
  CHECK(parse_error(d) == "$.device.compute_capability: found \"99999999999.0\"; expected MAJOR.MINOR, e.g. \"9.0\"");
  d = good;
  d["device"]["sm_count"] = 18446744073709551615ull;
  CHECK(parse_error(d) == "$.device.sm_count: found 18446744073709551615; expected an integer");
}

TEST_CASE("schema versions: another version, a newer one, one of the wrong type", "[results]") {
  json d = to_json(sample_results());
  d["schema_version"] = 0;
  CHECK(parse_error(d) == "$.schema_version is 0; this kbench reads version 1");
  d["schema_version"] = 2;
  CHECK(parse_error(d) ==
        "$.schema_version is 2; this kbench reads version 1 (the file comes from a newer kbench: update kbench to read it)");
  d["schema_version"] = "1";
  CHECK(parse_error(d) == "$.schema_version: found \"1\"; expected an integer");
  d.erase("schema_version");
  CHECK(parse_error(d) == "missing field $.schema_version");
}

TEST_CASE("the bad results fixtures are refused with the file and the place", "[results]") {
  const auto bad = [](const std::string& name) { return test::fixture_path("bad-results/" + name); };
  CHECK(contains(file_error(bad("not-json.json")), "not-json.json: not valid JSON at line 1, column 2"));
  CHECK(contains(file_error(bad("truncated.json")), "truncated.json: not valid JSON at line 72, column 17"));
  CHECK(contains(file_error(bad("schema-string.json")), "schema-string.json: $.schema_version: found \"1\""));
  CHECK(contains(file_error(bad("missing-field.json")), "missing-field.json: missing field $.cases[2].timings[0].stats.median_ms"));
  CHECK(contains(file_error(bad("nan-time.json")), "(NaN and Infinity are not JSON numbers)"));
  CHECK(contains(file_error(bad("null-time.json")), "null-time.json: $.cases[2].timings[0].stats.median_ms: found null"));
  CHECK(contains(file_error(bad("negative-time.json")), "$.cases[2].timings[0].stats.median_ms: found -0.12; expected a number >= 0"));
  CHECK(file_error(test::fixture_path("run-pass.json")) == "no error");
}

TEST_CASE("results files are written whole and read back, errors name the file", "[results]") {
  const std::string path = "kbench_test_results.json";
  write_results_file(sample_results(), path);
  CHECK(read_results_file(path).cases.size() == 2);
  {
    std::ofstream(path) << "{ not json";
  }
  try {
    read_results_file(path);
    FAIL("expected an error");
  } catch (const std::runtime_error& e) {
    CHECK(contains(e.what(), path + ": not valid JSON at line 1, column 4"));
  }
  std::remove(path.c_str());
  CHECK_THROWS_AS(read_results_file("no/such/file.json"), InputError);
}
