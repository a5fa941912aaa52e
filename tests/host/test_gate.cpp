#include "harness/judge/gate.hpp"
#include "harness/results/results_json.hpp"
#include "support/catch.hpp"
#include "support/test_paths.hpp"

#include <sstream>

using namespace kbench;

namespace {

RunResults fixture(const std::string& name) { return read_results_file(test::fixture_path(name)); }

Thresholds fixture_thresholds() { return load_thresholds(test::fixture_path("thresholds.json")); }

std::string joined(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines) text += line + "\n";
  return text;
}

}  // namespace

TEST_CASE("gate: a run meeting every minimum passes", "[gate]") {
  const GateResult result = evaluate_gate(fixture("run-pass.json"), fixture_thresholds(), nullptr, {});
  CHECK(result.passed());
  CHECK(result.cases_checked == 6);
  std::ostringstream out;
  print_gate_result(out, result);
  CHECK(contains(out.str(), "gate: PASS: 0 violations; 6 cases checked against thresholds"));
}

TEST_CASE("gate: minimum efficiency, minimum speed ratio and correctness are each violations", "[gate]") {
  const GateResult result = evaluate_gate(fixture("run-fail.json"), fixture_thresholds(), nullptr, {});
  CHECK_FALSE(result.passed());
  const std::string text = joined(result.violations);
  CHECK(contains(text, "add vectorized fp16 4096x4096 (large): efficiency 55.0% < minimum 60.0%"));
  CHECK(contains(text, "add vectorized fp32 4096x4096 (large): speed ratio 0.77x < minimum 0.80x"));
  CHECK(contains(text, "add naive fp16 256x256 (small): incorrect: 3 of 65536 elements outside tolerance"));
  CHECK(contains(text, "add naive fp16 16x1024x1024 (batch): error: CUDA error"));
  CHECK(result.violations.size() == 5);
  // Only the best own variant is held to the minimum: naive fp16 large (50%) is not listed.
  CHECK_FALSE(contains(text, "add naive fp16 4096x4096"));
  CHECK(contains(joined(result.notes), "skipped, not checked: add naive fp32 16x1024x1024"));
}

TEST_CASE("gate: a slowdown beyond tolerance and noise regresses; improvements pass", "[gate]") {
  const RunResults baseline = fixture("run-pass.json");
  const GateResult regressed = evaluate_gate(fixture("run-regressed.json"), fixture_thresholds(), &baseline, {});
  REQUIRE(regressed.violations.size() == 1);
  CHECK(contains(regressed.violations[0], "add vectorized fp32 4096x4096 (large): regression: 119.84 µs -> 143.80 µs (+20.0%)"));
  CHECK(regressed.rows_compared == 12);

  const GateResult improved = evaluate_gate(fixture("run-improved.json"), fixture_thresholds(), &baseline, {});
  CHECK(improved.passed());
  CHECK(contains(joined(improved.notes), "improvement: add vectorized fp32 4096x4096"));

  GateOptions loose;
  loose.max_regression = 0.25;  // a 20% slowdown is within a 25% tolerance
  CHECK(evaluate_gate(fixture("run-regressed.json"), fixture_thresholds(), &baseline, loose).passed());
}

TEST_CASE("gate: a slowdown within the runs' noise is not a regression", "[gate]") {
  const RunResults baseline = fixture("run-pass.json");
  CHECK(evaluate_gate(fixture("run-slower-noisy.json"), fixture_thresholds(), &baseline, {}).passed());
}

TEST_CASE("gate: rows missing from either side are listed, not failed", "[gate]") {
  const RunResults baseline = fixture("run-pass.json");
  const GateResult result = evaluate_gate(fixture("run-missing.json"), fixture_thresholds(), &baseline, {});
  CHECK(result.passed());
  const std::string notes = joined(result.notes);
  CHECK(contains(notes, "missing from the results (in the baseline run only): add naive fp16 16x1024x1024 (batch)"));
  CHECK(contains(notes, "missing from the baseline run (new in the results): add vectorized bf16 256x256 (small)"));
}

TEST_CASE("gate: another device is an error unless allowed", "[gate]") {
  const RunResults baseline = fixture("run-pass.json");
  const RunResults other = fixture("run-other-device.json");
  CHECK_THROWS_AS(evaluate_gate(other, fixture_thresholds(), &baseline, {}), GateInputError);
  GateOptions allow;
  allow.allow_device_mismatch = true;
  const GateResult result = evaluate_gate(other, fixture_thresholds(), &baseline, allow);
  CHECK(result.passed());
  CHECK(contains(joined(result.notes), "comparing across devices"));
}

TEST_CASE("gate: a run with nothing timed is unusable input", "[gate]") {
  RunResults empty = fixture("run-pass.json");
  for (CaseResult& row : empty.cases) {
    row.status = CaseStatus::skipped;
    row.timings.clear();
  }
  CHECK_THROWS_AS(evaluate_gate(empty, fixture_thresholds(), nullptr, {}), GateInputError);
}

TEST_CASE("gate: a minimum speed ratio with no timed baseline is a violation", "[gate]") {
  RunResults run = fixture("run-pass.json");
  for (CaseResult& row : run.cases) row.speed_ratio.reset();
  const GateResult result = evaluate_gate(run, fixture_thresholds(), nullptr, {});
  CHECK(contains(joined(result.violations), "add vectorized fp32 4096x4096 (large): no speed ratio (the baseline was not timed)"));
}

TEST_CASE("gate: an interrupted run fails, whatever its finished rows say", "[gate]") {
  RunResults interrupted = fixture("run-pass.json");
  interrupted.run_state = RunState::interrupted;
  const GateResult result = evaluate_gate(interrupted, fixture_thresholds(), nullptr, {});
  CHECK_FALSE(result.passed());
  CHECK(contains(joined(result.violations), "the run did not complete (run_state interrupted)"));
}
