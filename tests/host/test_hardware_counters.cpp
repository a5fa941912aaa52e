// The counter rules of the primary issue (README: Primary issue), each firing and not firing on
// synthetic rows; the JSON of counters and telemetry; the gate on rows another process shared.
#include "harness/judge/gate.hpp"
#include "harness/judge/primary_issue.hpp"
#include "harness/results/results_json.hpp"
#include "support/catch.hpp"

using namespace kbench;
namespace cm = counter_metric;

namespace {

/// A passed, memory-bound row at 60 % of the roof moving 64 MiB in, 64 MiB out, with one kernel's counters.
CaseResult row_with(std::map<std::string, double> metrics) {
  CaseResult row;
  row.op = "softmax";
  row.variant = "fused";
  row.dtype = "fp32";
  row.shape = {4096, 4096};
  row.status = CaseStatus::passed;
  ModeTiming cold;
  cold.mode = MeasureMode::cold;
  cold.stats.count = 20;
  cold.stats.median = 0.2;
  row.timings.push_back(cold);
  row.bound = Bound::memory;
  row.roof_fraction = 0.60;
  row.traffic.bytes_read = 64.0 * 1048576;
  row.traffic.bytes_written = 64.0 * 1048576;
  HardwareCounters counters;
  counters.kernels.push_back({"softmax_kernel", std::move(metrics)});
  row.counters = counters;
  return row;
}

/// Counters of a well-behaved kernel: minimum DRAM bytes, 16-byte coalesced accesses, full occupancy.
std::map<std::string, double> healthy() {
  const double bytes = 64.0 * 1048576;
  return {{cm::duration_ns, 60000},
          {cm::dram_read_bytes, bytes},
          {cm::dram_write_bytes, bytes},
          {cm::warps_active_pct, 80},
          {cm::global_load_sectors, bytes / 32},
          {cm::global_load_requests, bytes / 512},
          {cm::global_store_sectors, bytes / 32},
          {cm::global_store_requests, bytes / 512},
          {cm::shared_load_conflicts, 10},
          {cm::shared_load_wavefronts, 1000},
          {cm::global_atom_requests, 0},
          {cm::issue_active_pct, 30}};
}

}  // namespace

TEST_CASE("counter rules: a healthy kernel below the roof keeps today's text", "[primary_issue][counters]") {
  CHECK(primary_issue(row_with(healthy())) == "memory bound: 60% of roof");
  CaseResult at_roof = row_with(healthy());
  at_roof.roof_fraction = 0.97;
  at_roof.counters->kernels[0].metrics[cm::dram_read_bytes] *= 2;  // rows at the roof are at the roof
  CHECK(primary_issue(at_roof) == "at memory roof");
}

TEST_CASE("counter rules: extra traffic at 1.3x the minimum bytes and above", "[primary_issue][counters]") {
  auto m = healthy();
  m[cm::dram_read_bytes] *= 2;  // 192 MiB of 128: 1.5x
  CHECK(primary_issue(row_with(m)) == "extra traffic: 1.5× the minimum bytes");
  m = healthy();
  m[cm::dram_read_bytes] *= 1.5;  // 1.25x: below the threshold
  CHECK(primary_issue(row_with(m)) == "memory bound: 60% of roof");
}

TEST_CASE("counter rules: extra traffic sums every kernel of the call", "[primary_issue][counters]") {
  CaseResult row = row_with(healthy());
  row.counters->kernels.push_back(row.counters->kernels[0]);  // a second pass over the same bytes
  row.counters->kernels[1].metrics[cm::duration_ns] = 1000;
  CHECK(primary_issue(row) == "extra traffic: 2.0× the minimum bytes");
}

TEST_CASE("counter rules: low occupancy names the blocks when traced", "[primary_issue][counters]") {
  auto m = healthy();
  m[cm::warps_active_pct] = 12.5;
  CHECK(primary_issue(row_with(m)) == "low occupancy: 12% warps active");
  CaseResult traced = row_with(m);
  traced.breakdown = summarize_activities({{"row_sum", {264, 1, 1}, {32, 1, 1}, 0.2}}, 1);
  CHECK(primary_issue(traced, 132) == "low occupancy: 12% warps active (264 blocks for 132 SMs)");
  m[cm::warps_active_pct] = 25;
  CHECK(primary_issue(row_with(m)) == "memory bound: 60% of roof");
}

TEST_CASE("counter rules: uncoalesced needs many sectors per request and excess L1 sectors", "[primary_issue][counters]") {
  auto m = healthy();
  m[cm::global_load_requests] = m[cm::global_load_sectors] / 8;  // 8 sectors per request...
  CHECK(primary_issue(row_with(m)) == "memory bound: 60% of roof");  // ...but the minimum bytes: wide coalesced loads
  m[cm::global_load_sectors] *= 4;                                    // 4x the bytes through L1
  CHECK(primary_issue(row_with(m)) == "uncoalesced: 32.0 sectors per load request (4.0× the minimum bytes through L1)");
  m = healthy();
  m[cm::global_store_sectors] *= 8;
  m[cm::global_store_requests] = m[cm::global_store_sectors] / 8;
  CHECK(primary_issue(row_with(m)) == "re-read or strided: 8.0× the minimum bytes through L1 (8.0 sectors per store request)");
  m[cm::global_store_requests] = m[cm::global_store_sectors] / 16;  // a warp's 16-byte stores, twice the bytes
  CHECK(primary_issue(row_with(m)).rfind("re-read or strided: 8.0×", 0) == 0);
  m[cm::global_store_requests] = m[cm::global_store_sectors] / 17;
  CHECK(primary_issue(row_with(m)).rfind("uncoalesced: 17.0 sectors per store request", 0) == 0);
}

TEST_CASE("counter rules: atomics at 0.1 atomic requests per load request and above", "[primary_issue][counters]") {
  auto m = healthy();
  m[cm::global_atom_requests] = m[cm::global_load_requests];  // one atomic per element
  CHECK(primary_issue(row_with(m)) == "atomics: 1.00 atomic requests per load request");
  m[cm::global_atom_requests] = 0;
  m[cm::global_red_requests] = m[cm::global_load_requests] * 0.2;
  CHECK(primary_issue(row_with(m)) == "atomics: 0.20 atomic requests per load request");
  m[cm::global_red_requests] = m[cm::global_load_requests] * 0.01;  // one per block
  CHECK(primary_issue(row_with(m)) == "memory bound: 60% of roof");
  m[cm::global_red_requests] = 0;
  m[cm::global_load_requests] = 100;            // data by bulk copies: few load requests...
  m[cm::global_atom_requests] = 1000;           // ...and a few atomics per block of 128 MiB
  CHECK(primary_issue(row_with(m)) == "memory bound: 60% of roof");
  m[cm::global_atom_requests] = 0.1 * 131072;   // 0.1 per KiB of the minimum bytes
  CHECK(primary_issue(row_with(m)) == "atomics: 131.07 atomic requests per load request");
}

TEST_CASE("counter rules: bank conflicts at 25% of shared wavefronts and above", "[primary_issue][counters]") {
  auto m = healthy();
  m[cm::shared_load_conflicts] = 400;
  CHECK(primary_issue(row_with(m)) == "shared-memory bank conflicts: 40% of shared wavefronts");
  m[cm::shared_load_conflicts] = 200;
  CHECK(primary_issue(row_with(m)) == "memory bound: 60% of roof");
}

TEST_CASE("counter rules: bank conflicts must also take a share of the SMs' cycles when the clock is known", "[primary_issue][counters]") {
  auto m = healthy();  // 60 µs on 132 SMs at 2000 MHz: 15.84 M SM cycles
  m[cm::shared_load_wavefronts] = 4e6;
  m[cm::shared_load_conflicts] = 1e6;  // 25 % of the wavefronts, 6 % of the cycles: not the limit
  CaseResult row = row_with(m);
  row.timings[0].sm_clock_mhz = 2000;
  CHECK(primary_issue(row, 132) == "memory bound: 60% of roof");
  CHECK(primary_issue(row) == "shared-memory bank conflicts: 25% of shared wavefronts");  // SM count unknown
  row.counters->kernels[0].metrics[cm::shared_load_wavefronts] = 8e6;
  row.counters->kernels[0].metrics[cm::shared_load_conflicts] = 4e6;  // 25 % of the cycles
  CHECK(primary_issue(row, 132) == "shared-memory bank conflicts: 50% of shared wavefronts (25% of the SMs' cycles)");
}

TEST_CASE("counter rules: compute-bound rows name the tensor pipe or the issue slots", "[primary_issue][counters]") {
  CaseResult mm = row_with(healthy());
  mm.op = "matmul";
  mm.bound = Bound::compute;
  mm.compute_efficiency = 0.41;
  mm.traffic.math = "fp16_tensor";
  mm.counters->kernels[0].metrics[cm::tensor_gmma_pct] = 43;
  mm.counters->kernels[0].metrics[cm::tensor_hmma_pct] = 2;
  CHECK(primary_issue(mm) == "compute bound: 41% of peak FLOP/s; tensor pipe 43% busy");
  mm.traffic.math = "fp32";
  CHECK(primary_issue(mm) == "compute bound: 41% of peak FLOP/s; issue slots 30% busy");
  mm.counters.reset();
  CHECK(primary_issue(mm) == "compute bound: 41% of peak FLOP/s");
}

TEST_CASE("counter rules: metrics the device did not give fire no rule", "[primary_issue][counters]") {
  CHECK(primary_issue(row_with({})) == "memory bound: 60% of roof");
  CaseResult none = row_with(healthy());
  none.counters->kernels.clear();  // a memcpy-only call
  CHECK(primary_issue(none) == "memory bound: 60% of roof");
}

TEST_CASE("counters and telemetry round-trip through the results JSON", "[results][counters]") {
  RunResults run;
  run.cases.push_back(row_with(healthy()));
  ModeTelemetry t;
  t.samples = 12;
  t.energy_j_per_call = 0.0125;
  t.mean_power_w = 412.5;
  t.max_temperature_c = 61;
  t.clock_event_reasons = {"sw_power_cap"};
  t.other_processes = {4242};
  run.cases[0].timings[0].telemetry = t;
  run.settings.counters = 1;
  const nlohmann::json written = to_json(run);
  CHECK(written["settings"]["counters"] == 1);
  const nlohmann::json& row = written["cases"][0];
  CHECK(row["hardware_counters"]["kernels"][0]["metrics"][cm::dram_read_bytes] == 64.0 * 1048576);
  CHECK(row["timings"][0]["telemetry"]["other_processes"][0] == 4242);
  const RunResults back = results_from_json(written);
  REQUIRE(back.cases[0].counters);
  CHECK(back.cases[0].counters->kernels[0].metrics == run.cases[0].counters->kernels[0].metrics);
  REQUIRE(back.cases[0].timings[0].telemetry);
  CHECK(*back.cases[0].timings[0].telemetry->energy_j_per_call == 0.0125);
  CHECK(back.cases[0].contended());
  CHECK(back.settings.counters == 1);
  CHECK(to_json(back) == written);
}

TEST_CASE("without counters or telemetry the keys are left out, and the counters setting at 0 too", "[results][counters]") {
  RunResults run;
  run.cases.push_back(row_with(healthy()));
  run.cases[0].counters.reset();
  const nlohmann::json written = to_json(run);
  CHECK_FALSE(written["cases"][0].contains("hardware_counters"));
  CHECK_FALSE(written["cases"][0]["timings"][0].contains("telemetry"));
  CHECK_FALSE(written["settings"].contains("counters"));
  CHECK(results_from_json(written).settings.counters == 0);
}

TEST_CASE("bad counter values are refused with their JSON path", "[results][counters]") {
  RunResults run;
  run.cases.push_back(row_with(healthy()));
  nlohmann::json written = to_json(run);
  written["cases"][0]["hardware_counters"]["kernels"][0]["metrics"][cm::dram_read_bytes] = -1;
  std::string error;
  try {
    results_from_json(written);
  } catch (const InputError& e) {
    error = e.what();
  }
  CHECK(contains(error, "$.cases[0].hardware_counters.kernels[0].metrics.dram__bytes_read.sum"));
  CHECK(contains(error, "a finite number >= 0"));
  written = to_json(run);
  written["cases"][0]["timings"][0]["telemetry"] = {{"samples", 1}, {"clock_event_reasons", nlohmann::json::array()},
                                                    {"other_processes", {-5}}};
  CHECK_THROWS_AS(results_from_json(written), InputError);
}

TEST_CASE("gate: a row another process shared is neither a regression nor an improvement", "[gate][counters]") {
  RunResults old_run, new_run;
  CaseResult old_row = row_with(healthy());
  old_row.role = VariantRole::own;
  old_row.efficiency = 0.9;
  old_row.size_class = "large";
  CaseResult new_row = old_row;
  new_row.timings[0].stats.median = 0.4;  // twice as slow...
  ModeTelemetry shared;
  shared.other_processes = {777};
  new_row.timings[0].telemetry = shared;  // ...while another process ran
  old_run.cases.push_back(old_row);
  new_run.cases.push_back(new_row);
  Thresholds thresholds;
  const GateResult contended = evaluate_gate(new_run, thresholds, &old_run, {});
  CHECK(contended.passed());
  std::string notes;
  for (const std::string& n : contended.notes) notes += n + "\n";
  CHECK(contains(notes, "not judged: softmax fused fp32 4096x4096 (large): another process used the GPU during the new run's row"));

  new_run.cases[0].timings[0].telemetry.reset();
  CHECK_FALSE(evaluate_gate(new_run, thresholds, &old_run, {}).passed());  // the same slowdown alone regresses
}
