#pragma once
/// The main command (no subcommand): build the plan from the options or from a config, then list
/// it (--dry-run) or run it on the GPU, print the table and write the results file.

#include "cli_options.hpp"

#include "harness/config/thresholds.hpp"
#include "harness/ops/registry.hpp"
#include "harness/plan/plan_shard.hpp"
#include "harness/results/results.hpp"

#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace kbench::cli {

/// A run that passed every check: what to run, how, and the thresholds that judge it.
struct PreparedRun {
  Plan plan;                 ///< this run's part of the plan: the whole plan, or one shard of it
  PlanIdentity identity;     ///< the whole plan's fingerprint and cases, and the shard run
  std::optional<ShardChoice> shard;  ///< --shard, or a scheduler's; none: the whole plan
  MeasureSettings settings;  ///< defaults, then a config's settings, then the command line's
  Thresholds thresholds;
};

/// Every check of the main command, in one place and before any device work, for --op and
/// --config runs alike (and so for --dry-run as for a real run): the options, the selection or
/// config, the merged measurement settings, the thresholds file and the --json target. Throws
/// std::invalid_argument or InputError with one line naming the option, file or value.
PreparedRun prepare_run(const CLI::App& app, const Options& options, const Registry& registry);

/// Returns the exit code (exit_codes.hpp); input, device and output errors propagate as
/// exceptions (command_errors.hpp maps them to exit codes).
/// `args` are the process's arguments without argv[0]: an isolated run gives them to its workers.
int run_main_command(const CLI::App& app, const Options& options, const Registry& registry,
                     const std::string& command_line, const std::vector<std::string>& args);

/// Whether to run each case in a worker process: --isolate, --no-isolate, else when any row's
/// variant comes from a plugin or kernel file (VariantInfo::source other than "kbench").
bool isolation_wanted(const Options& options, const Plan& plan);

/// Prints a warning when this binary was built unfit to time kernels.
void print_build_warnings(std::ostream& out);

}  // namespace kbench::cli
