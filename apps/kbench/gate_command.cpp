#include "gate_command.hpp"

#include "command_errors.hpp"

#include "source_paths.hpp"

#include "harness/common/exit_codes.hpp"
#include "harness/common/printable_text.hpp"
#include "harness/judge/gate.hpp"
#include "harness/results/results_json.hpp"

#include <cmath>
#include <iostream>

namespace kbench::cli {

void add_gate_command(CLI::App& parent, GateCommand& command) {
  command.app = parent.add_subcommand(
      "gate", "CI gate: exit 0 when every case meets its minimum efficiency (and speed ratio) and nothing regressed, "
              "1 when not, 2 on unusable input (no GPU needed)");
  command.app->add_option("results", command.results, "results file written by kbench --json")->required();
  command.app->add_option("--thresholds", command.thresholds,
                          "thresholds file (default: " + default_thresholds_path() + ")");
  CLI::Option* baseline =
      command.app->add_option("--baseline", command.baseline, "an earlier results file: fail on rows that got slower");
  command.app->add_option("--max-regression", command.max_regression_pct,
                          "tolerated slowdown against --baseline, percent (default 5); a row fails only when it is "
                          "also slower by more than both runs' noise")
      ->needs(baseline);
  command.app->add_flag("--allow-device-mismatch", command.allow_device_mismatch,
                        "compare with a baseline measured on another device")
      ->needs(baseline);
}

int run_gate_command(const GateCommand& command) {
  try {
    if (!(command.max_regression_pct >= 0) || !std::isfinite(command.max_regression_pct)) {
      throw GateInputError("--max-regression must be a percentage >= 0");
    }
    const RunResults results = read_results_file(command.results);
    const Thresholds thresholds = load_thresholds(command.thresholds.empty() ? default_thresholds_path() : command.thresholds);
    RunResults baseline;
    if (!command.baseline.empty()) baseline = read_results_file(command.baseline);
    check_threshold_names(thresholds, command.registered_ops,
                          std::vector<const RunResults*>{&results, command.baseline.empty() ? nullptr : &baseline});
    GateOptions options;
    options.max_regression = command.max_regression_pct / 100;
    options.allow_device_mismatch = command.allow_device_mismatch;
    const GateResult result =
        evaluate_gate(results, thresholds, command.baseline.empty() ? nullptr : &baseline, options);
    std::cout << "kbench gate: " << printable(command.results) << " against " << printable(thresholds.file);
    if (!command.baseline.empty()) std::cout << " and the baseline run " << printable(command.baseline);
    std::cout << '\n';
    print_gate_result(std::cout, result);
    flush_standard_output();
    return result.passed() ? exit_code::ok : exit_code::gate_failed;
  } catch (const std::exception& e) {
    return fail("gate", e);
  }
}

}  // namespace kbench::cli
