#pragma once
/// The main command (no subcommand): build the plan from the options or from a config, then list
/// it (--dry-run) or run it on the GPU, print the table and write the results file.

#include "cli_options.hpp"

#include "harness/ops/registry.hpp"

#include <ostream>
#include <string>

namespace kbench::cli {

/// Returns the exit code (exit_codes.hpp); device errors propagate as exceptions.
int run_main_command(const CLI::App& app, const Options& options, const Registry& registry,
                     const std::string& command_line);

/// Prints a warning when this binary was built unfit to time kernels.
void print_build_warnings(std::ostream& out);

}  // namespace kbench::cli
