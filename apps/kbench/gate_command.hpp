#pragma once
/// `kbench gate RESULTS.json [--thresholds FILE] [--baseline OLD.json | --history DIR] [--max-regression PCT]`:
/// exit 0 when every case meets its thresholds and nothing regressed, 1 otherwise, 2 on unusable
/// input. No GPU needed.

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace kbench::cli {

struct GateCommand {
  CLI::App* app = nullptr;             ///< the subcommand, once added
  std::string results;                 ///< the results file judged
  std::string thresholds;              ///< thresholds file (default: the source tree's)
  std::string baseline;                ///< an earlier results file to check for regressions
  std::vector<std::string> registered_ops;  ///< kbench's ops: the thresholds may name them (and the rows' ops)
  std::string history;                 ///< a folder of earlier results files: the rolling baseline
  int history_depth = 5;               ///< how many of its newest matching files to pool
  double max_regression_pct = 2;       ///< tolerated slowdown against the baseline, percent
  double min_change_us = 0.5;  ///< --min-change-us: the per-launch floor of a change (JudgeOptions)
  bool allow_device_mismatch = false;  ///< compare with a baseline from another device
};

/// Adds the subcommand to `parent`; `command` receives its options.
void add_gate_command(CLI::App& parent, GateCommand& command);

/// Runs it and returns the exit code (exit_codes.hpp: ok, gate_failed, usage).
int run_gate_command(const GateCommand& command);

}  // namespace kbench::cli
