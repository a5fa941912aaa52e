#include "harness/isolate/process_workers.hpp"

#include "harness/isolate/child_process.hpp"
#include "harness/isolate/shared_heartbeat.hpp"
#include "harness/isolate/timeout_policy.hpp"
#include "harness/isolate/worker_command_line.hpp"
#include "harness/results/results_json.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>

namespace kbench {

namespace {

/// A temporary folder, removed with everything in it at destruction.
struct ScratchFolder {
  std::string path;
  ScratchFolder() {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/kbench-isolate-XXXXXX";
    if (::mkdtemp(pattern.data()) == nullptr) {
      throw std::runtime_error("--isolate: cannot make a folder like '" + pattern + "': " + std::strerror(errno));
    }
    path = pattern;
  }
  ~ScratchFolder() {
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }
  ScratchFolder(const ScratchFolder&) = delete;
  ScratchFolder& operator=(const ScratchFolder&) = delete;
};

std::string this_binary() {
  std::error_code error;
  const std::filesystem::path path = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) throw std::runtime_error("--isolate: cannot find this binary (/proc/self/exe): " + error.message());
  return path.string();
}

WorkerEnd end_from_state(RunState state) {
  switch (state) {
    case RunState::complete: return WorkerEnd::finished;
    case RunState::context_lost: return WorkerEnd::context_lost;
    case RunState::interrupted: return WorkerEnd::interrupted;
    case RunState::in_progress: break;
  }
  return WorkerEnd::died;
}

WorkerReport run_one(const ProcessWorkerOptions& options, const std::string& program, const ScratchFolder& scratch,
                     std::size_t case_index, std::size_t first_row, std::optional<int> device) {
  WorkerTask task;
  task.case_index = case_index;
  task.first_row = first_row;
  task.seed = options.seed;
  task.device = device;
  const std::string stem = scratch.path + "/case-" + std::to_string(case_index) + "-from-" + std::to_string(first_row) +
                           (device ? "-gpu-" + std::to_string(*device) : std::string());
  task.rows_path = stem + ".json";
  task.heartbeat_path = stem + ".heartbeat";
  std::error_code stale;
  std::filesystem::remove(task.rows_path, stale);  // --repeat runs a case again: never read the last worker's rows
  const SharedHeartbeat heartbeat = SharedHeartbeat::create(task.heartbeat_path);
  HeartbeatSlot* slot = heartbeat.slot();
  const auto overdue = [&] {
    const std::int64_t pending = slot->pending_calls.load();
    return calls_overdue(monotonic_ns(), slot->since_ns.load(), pending, options.timeout_s);
  };
  const ChildEnd end = run_child(worker_arguments(program, options.parent_args, task), overdue, options.stop_requested);

  WorkerReport report;
  RunState state = RunState::in_progress;
  if (std::filesystem::exists(task.rows_path)) {
    try {
      RunResults rows = read_results_file(task.rows_path);
      report.rows = std::move(rows.cases);
      report.notes = std::move(rows.notes);
      state = rows.run_state;
    } catch (const std::exception& error) {
      report.reason = std::string("left an unreadable rows file: ") + error.what();
    }
  }
  report.end = end.timed_out ? WorkerEnd::timed_out : end_from_state(state);
  if (report.end == WorkerEnd::died && report.reason.empty()) {
    report.reason = worker_death_reason(end.exit_code, end.signal, end.stderr_text);
  }
  if (report.end == WorkerEnd::context_lost) report.reason = last_error_line(end.stderr_text);
  return report;
}

}  // namespace

RunWorkerFn process_workers(const ProcessWorkerOptions& options) {
  auto scratch = std::make_shared<ScratchFolder>();
  return [options, scratch, program = options.program.empty() ? this_binary() : options.program](std::size_t case_index, std::size_t first_row) {
    return run_one(options, program, *scratch, case_index, first_row, std::nullopt);
  };
}

DeviceWorkerFn device_process_workers(const ProcessWorkerOptions& options, const std::vector<int>& gpus) {
  auto scratch = std::make_shared<ScratchFolder>();
  return [options, scratch, gpus, program = options.program.empty() ? this_binary() : options.program](
             std::size_t case_index, std::size_t first_row, std::size_t slot) {
    return run_one(options, program, *scratch, case_index, first_row, gpus.at(slot));
  };
}

}  // namespace kbench
