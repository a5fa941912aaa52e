#pragma once
/// The parent's side of an isolated run: each worker is this kbench binary run again
/// (/proc/self/exe) with the parent's options and the hidden worker options
/// (harness/isolate/worker_command_line.hpp), watched through its heartbeat and its standard error.

#include "harness/isolate/isolated_runner.hpp"

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace kbench {

struct ProcessWorkerOptions {
  std::string program;                   ///< the worker's binary; empty: this one (/proc/self/exe)
  std::vector<std::string> parent_args;  ///< the parent's arguments, without argv[0]
  std::uint64_t seed = 0;                ///< the run's seed
  double timeout_s = 60;                 ///< --kernel-timeout, seconds per call
  const std::atomic<bool>* stop_requested = nullptr;  ///< passed on to a running worker as SIGTERM
};

/// A RunWorkerFn that starts one worker process per call. Its scratch files (rows and heartbeat)
/// live in a fresh temporary folder, removed with the last copy of the function. Throws
/// std::runtime_error when the folder cannot be made or this binary cannot be found.
RunWorkerFn process_workers(const ProcessWorkerOptions& options);

}  // namespace kbench
