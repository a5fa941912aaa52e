#pragma once
/// Running one worker process to its end under watch: its standard error is captured, a hung
/// worker is killed (SIGKILL), and a stop request is passed on. POSIX; no CUDA.

#include <atomic>
#include <functional>
#include <string>
#include <vector>

namespace kbench {

/// How a child process ended.
struct ChildEnd {
  bool timed_out = false;    ///< killed by the parent because `overdue` said so
  int exit_code = -1;        ///< its exit status when it exited; -1 otherwise
  int signal = 0;            ///< the signal that ended it (SIGKILL after a time-out), or 0
  std::string stderr_text;   ///< what it wrote to standard error (the last 64 KiB)
};

/// Runs `args` (args[0]: the program's path) in a process group of its own, with standard input
/// and output on /dev/null and standard error captured, polling about every 50 ms: when
/// `overdue()` returns true its group is killed with SIGKILL; once *stop is set (may be null) it
/// gets one SIGTERM to stop as an interrupted run.
/// Throws std::runtime_error when the process cannot be started.
ChildEnd run_child(const std::vector<std::string>& args, const std::function<bool()>& overdue,
                   const std::atomic<bool>* stop);

}  // namespace kbench
