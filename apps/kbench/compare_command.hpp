#pragma once
/// `kbench compare OLD.json NEW.json`: the matching rows of two runs, their medians, change, noise
/// and verdict, and a geometric-mean summary. No GPU needed.

#include <CLI/CLI.hpp>

#include <string>

namespace kbench::cli {

struct CompareCommand {
  CLI::App* app = nullptr;   ///< the subcommand, once added
  std::string old_results;   ///< the earlier run
  std::string new_results;   ///< the later run
  double tolerance_pct = 2;  ///< changes within this are SAME, percent
};

/// Adds the subcommand to `parent`; `command` receives its options.
void add_compare_command(CLI::App& parent, CompareCommand& command);

/// Runs it: 0, or 2 for unusable input.
int run_compare_command(const CompareCommand& command);

}  // namespace kbench::cli
