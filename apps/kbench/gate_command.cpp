#include "gate_command.hpp"

#include "command_errors.hpp"

#include "source_paths.hpp"

#include "harness/common/exit_codes.hpp"
#include "harness/common/printable_text.hpp"
#include "harness/judge/gate.hpp"
#include "harness/judge/history_baseline.hpp"
#include "harness/results/results_json.hpp"

#include <cmath>
#include <filesystem>
#include <optional>
#include <system_error>
#include <iostream>

namespace kbench::cli {

namespace {

/// Reads every results file of `folder` but the run being gated, then builds the rolling baseline.
HistoryBaseline read_history(const std::string& folder, const std::string& run_path, const RunResults& run, std::size_t depth) {
  std::vector<HistoryFile> files;
  std::error_code error;
  for (const std::string& path : history_files(folder)) {
    if (std::filesystem::equivalent(path, run_path, error)) continue;  // the run itself, kept in its own history
    files.push_back({path, read_results_file(path)});
  }
  return history_baseline(run, files, depth, folder);
}

}  // namespace

void add_gate_command(CLI::App& parent, GateCommand& command) {
  command.app = parent.add_subcommand(
      "gate", "CI gate: exit 0 when every case meets its minimum efficiency (and speed ratio) and nothing regressed, "
              "1 when not, 2 on unusable input (no GPU needed)");
  command.app->add_option("results", command.results, "results file written by kbench --json")->required();
  command.app->add_option("--thresholds", command.thresholds,
                          "thresholds file (default: " + default_thresholds_path() + ")");
  CLI::Option* baseline =
      command.app->add_option("--baseline", command.baseline, "an earlier results file: fail on rows that got slower");
  CLI::Option* history = command.app->add_option(
      "--history", command.history,
      "a folder of earlier results files (*.json): the baseline is the last --history-depth of the same device and "
      "plan, their samples pooled; prints each row's trend");
  history->excludes(baseline);
  command.app->add_option("--history-depth", command.history_depth,
                          "how many of the newest matching files in --history make the baseline (default 5, at least 1)")
      ->needs(history);
  command.app->add_option("--max-regression", command.max_regression_pct,
                          "tolerated slowdown against the baseline, percent (default 2); a slower row fails only when the "
                          "slowdown is also significant: Mann-Whitney p < 0.01 on the samples when both rows kept them, "
                          "else beyond both runs' noise (relative IQR); needs --baseline or --history");
  command.app->add_option("--min-change-us", command.min_change_us,
                          "a change smaller than this many microseconds per kernel launch of the call is never a "
                          "regression or an improvement, whatever its percentage (default 0.5: twice the largest drift "
                          "between two processes of one build measured on an H100); needs --baseline or --history");
  command.app->add_flag("--allow-device-mismatch", command.allow_device_mismatch,
                        "compare with a baseline measured on another device; needs --baseline");
}

int run_gate_command(const GateCommand& command) {
  try {
    if (!(command.max_regression_pct >= 0) || !std::isfinite(command.max_regression_pct)) {
      throw GateInputError("--max-regression must be a percentage >= 0");
    }
    const bool has_baseline = command.app->count("--baseline") > 0, has_history = command.app->count("--history") > 0;
    if (command.app->count("--max-regression") && !has_baseline && !has_history) {
      throw GateInputError("--max-regression requires --baseline or --history");
    }
    if (!(command.min_change_us >= 0) || !std::isfinite(command.min_change_us)) {
      throw GateInputError("--min-change-us must be a number of microseconds >= 0");
    }
    if (command.app->count("--min-change-us") && !has_baseline && !has_history) {
      throw GateInputError("--min-change-us requires --baseline or --history");
    }
    if (command.allow_device_mismatch && !has_baseline) throw GateInputError("--allow-device-mismatch requires --baseline");
    if (command.history_depth < 1) throw GateInputError("--history-depth must be >= 1");
    const RunResults results = read_results_file(command.results);
    const Thresholds thresholds = load_thresholds(command.thresholds.empty() ? default_thresholds_path() : command.thresholds);
    RunResults baseline;
    std::optional<HistoryBaseline> rolling;
    if (!command.baseline.empty()) baseline = read_results_file(command.baseline);
    if (!command.history.empty()) {
      rolling = read_history(command.history, command.results, results, static_cast<std::size_t>(command.history_depth));
      baseline = rolling->baseline;
    }
    const bool judged_against = !command.baseline.empty() || rolling.has_value();
    check_threshold_names(thresholds, command.registered_ops,
                          std::vector<const RunResults*>{&results, judged_against ? &baseline : nullptr});
    GateOptions options;
    options.max_regression = command.max_regression_pct / 100;
    options.judging.min_change_us_per_launch = command.min_change_us;
    // A history holds the same device by construction; a file of another was skipped, not compared.
    options.allow_device_mismatch = command.allow_device_mismatch;
    const GateResult result = [&] {
      try {
        return evaluate_gate(results, thresholds, judged_against ? &baseline : nullptr, options);
      } catch (const GateInputError& e) {
        throw GateInputError(command.results + ": " + e.what());  // which file held nothing to check
      }
    }();
    std::cout << "kbench gate: " << printable(command.results) << " against " << printable(thresholds.file);
    if (!command.baseline.empty()) std::cout << " and the baseline run " << printable(command.baseline);
    if (rolling) {
      std::cout << " and the rolling baseline of " << rolling->used.size() << " run" << (rolling->used.size() == 1 ? "" : "s")
                << " in " << printable(command.history) << '\n';
      for (const std::string& path : rolling->used) std::cout << "history: pooled " << printable(path) << '\n';
      for (const std::string& line : rolling->skipped) std::cout << "history: skipped " << printable(line) << '\n';
      for (const std::string& line : rolling->trends) std::cout << "trend " << printable(line) << '\n';
    } else {
      std::cout << '\n';
    }
    print_gate_result(std::cout, result);
    flush_standard_output();
    return result.passed() ? exit_code::ok : exit_code::gate_failed;
  } catch (const std::exception& e) {
    return fail("gate", e);
  }
}

}  // namespace kbench::cli
