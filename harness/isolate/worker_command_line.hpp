#pragma once
/// The command line of a worker process: the parent's own options, minus those only the parent
/// acts on, plus the hidden options that pick one case. Host-only; the CLI (apps/kbench) declares
/// the hidden options under these names.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace kbench {

/// Hidden options of a worker (not in --help).
inline constexpr const char* kWorkerCaseOption = "--worker-case";          ///< index of the case in the plan
inline constexpr const char* kWorkerFirstRowOption = "--worker-first-row";  ///< its first row to run
inline constexpr const char* kWorkerRowsOption = "--worker-rows";          ///< the results file it writes
inline constexpr const char* kWorkerHeartbeatOption = "--worker-heartbeat";  ///< the heartbeat file it maps

/// What one worker runs and where it reports.
struct WorkerTask {
  std::size_t case_index = 0;  ///< the plan entry (op x shape x dtype)
  std::size_t first_row = 0;   ///< rows before it are done
  std::string rows_path;       ///< the results file the worker writes after every row
  std::string heartbeat_path;  ///< harness/isolate/shared_heartbeat.hpp
  std::uint64_t seed = 0;      ///< the parent's seed, so the case gets the inputs it would get there
};

/// `program` followed by `parent_args` (the parent's arguments, without its argv[0]) less --json,
/// --force, --seed, --isolate and --no-isolate (with their values, as "--opt value" or
/// "--opt=value"), then --seed and the worker options of `task`.
std::vector<std::string> worker_arguments(const std::string& program, const std::vector<std::string>& parent_args,
                                          const WorkerTask& task);

}  // namespace kbench
