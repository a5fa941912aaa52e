#pragma once
/// The kbench command line: options, subcommands and their --help text.

#include "harness/device/device_info.hpp"
#include "harness/config/measure_settings.hpp"
#include "harness/isolate/timeout_policy.hpp"
#include "harness/plan/config_plan.hpp"
#include "harness/plan/plan.hpp"
#include "harness/config/sweep_config.hpp"

#include <CLI/CLI.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kbench::cli {

struct Options {
  // What to run.
  std::string config_path;  ///< --config: a sweep config; --op/--size/--dtype/--variant then filter it
  std::string ops;
  std::string sizes = "large";
  std::vector<std::string> shapes;
  std::string dtypes = "fp32";
  std::string variants;
  bool no_references = false;
  bool dry_run = false;
  std::int64_t max_cases = static_cast<std::int64_t>(kDefaultMaxCases);  ///< --max-cases (checked by check_options)
  std::vector<std::string> plugins;  ///< --plugin: shared libraries declaring more ops and variants
  std::vector<std::string> kernel_files;  ///< --kernel-file: .cu files compiled and loaded as plugins
  // Where and how.
  int device = 0;
  PeakOverrides peaks;
  MeasureSettings settings;
  std::optional<std::uint64_t> seed;
  std::string json_path;
  bool force = false;
  std::string thresholds_path;  ///< --thresholds; empty: the source tree's configs/thresholds.json
  // Profilers.
  bool no_kernel_breakdown = false;  ///< --no-kernel-breakdown: skip the CUPTI pass after each row's samples
  bool show_kernels = false;         ///< --kernels: print each row's kernel breakdown under the table
  bool profile = false;              ///< --profile: verify, then launch each row once; no timing
  int profile_calls = 1;             ///< --profile-calls: calls per profiled launch (> 1: one graph replay)
  // Isolation (harness/isolate/).
  bool isolate = false;     ///< --isolate: each case in a worker process
  int repeat = 1;           ///< --repeat: each case measured in this many worker processes, pooled
  bool no_isolate = false;  ///< --no-isolate: never, even for plugin or kernel-file variants
  double kernel_timeout_s = kDefaultKernelTimeoutS;  ///< --kernel-timeout: seconds one call may take, isolated
  // Many GPUs and machines (harness/plan/plan_shard.hpp, harness/isolate/device_pool.hpp).
  std::string shard;    ///< --shard I/N (1-based); empty: from a scheduler's environment, else none
  std::string devices;  ///< --devices: "all" or GPU indices; empty: --device alone
  // Hidden: set by an isolated run's parent on its worker processes (worker_command_line.hpp).
  std::optional<std::size_t> worker_case;  ///< the case this process runs as a worker
  std::size_t worker_first_row = 0;
  std::string worker_rows;
  std::string worker_heartbeat;
};

/// Builds the CLI11 app around `options`. Subcommands are returned through the pointers.
void configure(CLI::App& app, Options& options, CLI::App*& device_command, CLI::App*& list_command);

/// The checks of the options themselves, before any file is read or device touched: ranges
/// (--device -1, --peak-bw 0, --max-cases 0) and, when `running` (the main command, not
/// `device` or `list`), options that need or exclude another and a selection with nothing to run.
/// Throws std::invalid_argument naming the option, the value found and what was expected. The
/// measurement settings are checked once merged with a config's (validate(), measure_settings.hpp).
void check_options(const CLI::App& app, const Options& options, bool running);

/// The checks every given value passes, for every command: not empty (--json "" would silently
/// write nothing, --thresholds "" fall back to the default), and a list option (--op, --size,
/// --shape, --dtype, --variant, --modes) names at least one item ("--op ,," selects nothing, and
/// would otherwise mean every op). Throws std::invalid_argument naming the option.
void check_option_values(const CLI::App& app);

/// What --op, --size, --shape, --dtype and --variant select. --size and --dtype count only when
/// given: a config is then filtered by them, and an --op run falls back to large and fp32.
/// Throws std::invalid_argument on a bad --shape.
Selection make_selection(const CLI::App& app, const Options& options);

/// The measurement settings of a config run: defaults, then the config's "settings", then the
/// options given on the command line.
MeasureSettings merged_settings(const CLI::App& app, const Options& options, const SweepConfig& config);

}  // namespace kbench::cli
