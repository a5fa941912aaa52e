#pragma once
/// `kbench merge A.json B.json ... --json ALL.json`: the results files of one sweep's shards
/// (harness/results/merge_results.hpp) as one results file. No GPU needed.

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace kbench::cli {

struct MergeCommand {
  CLI::App* app = nullptr;          ///< the subcommand, once added
  std::vector<std::string> inputs;  ///< the shards' results files
  std::string json_path;            ///< the merged results file
  bool force = false;               ///< let json_path replace an existing file
};

/// Adds the subcommand to `parent`; `command` receives its options.
void add_merge_command(CLI::App& parent, MergeCommand& command);

/// Runs it: 0 when every case of the plan is in the merged file, 1 when some are missing (the
/// file is written and the missing cases listed), 2 for unusable input, 5 when it cannot write.
int run_merge_command(const MergeCommand& command);

}  // namespace kbench::cli
