#include "fuzz/fuzz_inputs.hpp"

#include "harness/report/compare_report.hpp"
#include "harness/plan/config_plan.hpp"
#include "harness/report/csv_report.hpp"
#include "harness/judge/gate.hpp"
#include "harness/common/json_text.hpp"
#include "harness/report/markdown_report.hpp"
#include "harness/results/results_json.hpp"
#include "harness/judge/run_comparison.hpp"
#include "harness/config/thresholds.hpp"

#include <sstream>

namespace kbench::fuzz {

namespace {

/// Fixed thresholds, with a per-op and a per-size-class entry so that every lookup path runs.
const Thresholds& thresholds() {
  static const Thresholds parsed = parse_thresholds(nlohmann::json::parse(R"({
    "default": {"min_efficiency_pct": 25, "target_efficiency_pct": 50},
    "size_classes": {"small": {"min_efficiency_pct": 5, "target_efficiency_pct": 20}},
    "ops": {"add": {"large": {"min_efficiency_pct": 60, "target_efficiency_pct": 80, "min_speed_ratio": 0.8}}}
  })"), "fuzz-thresholds.json");
  return parsed;
}

}  // namespace

void load_config(const std::string& text, const Registry& registry) {
  const SweepConfig config = parse_sweep_config(parse_json_text(text, kInputFile), kInputFile);
  make_config_plan(registry, config, Selection{});
}

void load_results(const std::string& text) {
  const RunResults results = results_from_json(parse_json_text(text, kInputFile));
  std::ostringstream out;
  const ReportInput input{&results, &thresholds(), "input.json", &results, "again"};
  write_markdown_report(out, input);
  write_csv_report(out, input);
  print_comparison(out, compare_runs(results, results, 0.02), 0.02);
  // Last: the gate throws GateInputError (an InputError) for a run it cannot judge.
  GateOptions options;
  options.allow_device_mismatch = true;
  print_gate_result(out, evaluate_gate(results, thresholds(), &results, options));
}

}  // namespace kbench::fuzz
