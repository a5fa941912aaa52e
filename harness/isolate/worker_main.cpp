#include "harness/isolate/worker_main.hpp"

#include "harness/device/build_info.hpp"
#include "harness/device/provenance.hpp"
#include "harness/isolate/shared_heartbeat.hpp"
#include "harness/results/results_json.hpp"

#include <stdexcept>

namespace kbench {

PlanEntry entry_from_row(const Plan& plan, std::size_t case_index, std::size_t first_row) {
  if (case_index >= plan.entries.size()) {
    throw std::invalid_argument(std::string(kWorkerCaseOption) + " " + std::to_string(case_index) + ": the plan has " +
                                std::to_string(plan.entries.size()) + " cases");
  }
  PlanEntry entry = plan.entries[case_index];
  const std::size_t rows = entry.variants.size() + (entry.copy_roof ? 1 : 0);
  if (first_row >= rows) {
    throw std::invalid_argument(std::string(kWorkerFirstRowOption) + " " + std::to_string(first_row) + ": case " +
                                std::to_string(case_index) + " has " + std::to_string(rows) + " rows");
  }
  const std::size_t dropped = std::min(first_row, entry.variants.size());
  entry.variants.erase(entry.variants.begin(), entry.variants.begin() + static_cast<std::ptrdiff_t>(dropped));
  return entry;
}

void run_worker_task(const WorkerRun& run, const WorkerTask& task) {
  Plan one;
  one.entries.push_back(entry_from_row(*run.plan, task.case_index, task.first_row));
  const SharedHeartbeat heartbeat = SharedHeartbeat::open(task.heartbeat_path);

  RunResults done;
  done.build = build_info();
  done.device = run.device;
  done.settings = run.settings;
  done.command_line = run.command_line;
  done.utc_time = utc_now_iso8601();
  done.host = host_name();
  done.seed = task.seed;
  done.run_state = RunState::in_progress;

  RunExtras extras = run.extras;
  extras.heartbeat = heartbeat.slot();
  extras.on_row_done = [&](std::size_t, std::size_t, const CaseResult& row) {
    done.cases.push_back(row);
    write_results_file(done, task.rows_path);  // after every row: a crash loses only the next
  };
  RunOutcome outcome = run_plan(one, run.device, run.settings, task.seed, {}, run.stop_requested, extras);
  done.notes = std::move(outcome.notes);
  done.run_state = outcome.context_lost ? RunState::context_lost
                   : outcome.interrupted  ? RunState::interrupted
                                          : RunState::complete;
  write_results_file(done, task.rows_path);
}

}  // namespace kbench
