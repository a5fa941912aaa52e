#pragma once
/// The worker's side of an isolated run: one case of the plan, from a given row on, its rows
/// written to a results file after every row (so that a crash loses only the row in flight),
/// its calls published on the shared heartbeat.

#include "harness/device/device_info.hpp"
#include "harness/isolate/worker_command_line.hpp"
#include "harness/measure/runner.hpp"
#include "harness/plan/plan.hpp"

#include <atomic>
#include <string>

namespace kbench {

/// What a worker was given on its command line, beside its task.
struct WorkerRun {
  const Plan* plan = nullptr;           ///< the whole plan, as the parent built it
  DeviceInfo device;                    ///< opened by the worker
  MeasureSettings settings;
  RunExtras extras;                     ///< kernel breakdown, profile launches
  std::string command_line;
  const std::atomic<bool>* stop_requested = nullptr;
};

/// Runs `task`'s rows and writes them (a results document whose cases are the rows finished,
/// from task.first_row on, and whose run_state says how the worker ended). Throws
/// std::invalid_argument when the task names no such case or row.
void run_worker_task(const WorkerRun& run, const WorkerTask& task);

/// The entry of `plan` at `case_index` with the rows before `first_row` removed.
PlanEntry entry_from_row(const Plan& plan, std::size_t case_index, std::size_t first_row);

}  // namespace kbench
