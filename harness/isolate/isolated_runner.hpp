#pragma once
/// An isolated run (--isolate): each case (plan entry) runs in worker processes, so that a call
/// that faults or hangs costs its own row only. The parent never runs a kernel: it hands a case
/// to a worker, folds in the rows the worker reports (harness/isolate/worker_report.hpp), and
/// starts a fresh worker after the row that ended the last one, until every row has its status.

#include "harness/isolate/worker_report.hpp"
#include "harness/measure/runner.hpp"
#include "harness/plan/plan.hpp"

#include <atomic>
#include <functional>

namespace kbench {

/// Runs rows first_row.. of case `case_index` in one worker and reports what it got.
using RunWorkerFn = std::function<WorkerReport(std::size_t case_index, std::size_t first_row)>;

/// --repeat: each case measured from start to end in `processes` workers in turn, its rows then
/// pooled (harness/results/pooled_rows.hpp) and their samples kept as `keep_samples` says. The
/// workers must keep every mode's samples.
struct RepeatOptions {
  int processes = 1;
  int keep_samples = 2;
};

/// Runs every entry of `plan` through `run_worker`; the outcome is what run_plan would return,
/// rows in plan order, metrics not derived. `timeout_s` words the ERROR of a timed-out row. Once
/// *stop_requested is set (may be null) the rows not yet run are skipped and the outcome says
/// interrupted. A worker's fault never loses the run's context: context_lost stays false.
RunOutcome run_plan_isolated(const Plan& plan, const RunWorkerFn& run_worker, double timeout_s,
                             const ProblemDoneFn& on_problem_done = {},
                             const std::atomic<bool>* stop_requested = nullptr, const RepeatOptions& repeat = {});

}  // namespace kbench
