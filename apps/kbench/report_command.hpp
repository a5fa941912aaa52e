#pragma once
/// `kbench report RESULTS.json [--against OTHER.json] [--md FILE] [--csv FILE]`: the Markdown
/// status report and the CSV from a results file. No GPU needed.

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace kbench::cli {

struct ReportCommand {
  CLI::App* app = nullptr;     ///< the subcommand, once added
  std::string results;         ///< the results file reported on
  std::vector<std::string> other_devices;  ///< more results files: a cross-device report of them all
  std::string against;         ///< another results file compared column by column
  std::string against_label;   ///< its column heading (default: its file name without .json)
  std::string markdown_path;   ///< write the Markdown report here (default: stdout when no --csv)
  std::string csv_path;        ///< write the CSV here
  std::string thresholds;      ///< thresholds file (default: the source tree's configs/thresholds.json)
  std::vector<std::string> registered_ops;  ///< kbench's ops: the thresholds may name them (and the rows' ops)
};

/// Adds the subcommand to `parent`; `command` receives its options.
void add_report_command(CLI::App& parent, ReportCommand& command);

/// Runs it: 0, or 2 for unusable input (a message on stderr).
int run_report_command(const ReportCommand& command);

}  // namespace kbench::cli
