#include "harness/isolate/isolated_runner.hpp"

#include "harness/results/pooled_rows.hpp"

#include <algorithm>

namespace kbench {

RunOutcome run_plan_isolated(const Plan& plan, const RunWorkerFn& run_worker, double timeout_s,
                             const ProblemDoneFn& on_problem_done, const std::atomic<bool>* stop_requested,
                             const RepeatOptions& repeat) {
  RunOutcome outcome;
  const auto stopping = [&] {
    if (stop_requested != nullptr && stop_requested->load()) outcome.interrupted = true;
    return outcome.interrupted;
  };
  // Runs case p from its first row to its last through as many workers as it takes; `ran` says
  // whether any row was started.
  const auto run_case = [&](std::size_t p, bool& ran) {
    std::vector<CaseResult> rows = planned_rows(plan.entries[p]);
    std::size_t next = 0;
    while (next < rows.size() && !stopping()) {
      WorkerReport report = run_worker(p, next);
      // A worker stopped by the same interrupt (or by a second signal, which ends it at once)
      // leaves its unfinished rows skipped, not ERROR.
      if (stopping() && report.end != WorkerEnd::finished) report.end = WorkerEnd::interrupted;
      // Interrupted from outside (a signal to the worker alone): its row in flight is an error,
      // so the next worker starts after it instead of again at it.
      if (!stopping() && report.end == WorkerEnd::interrupted) report.end = WorkerEnd::died;
      for (const std::string& note : report.notes) {
        if (std::find(outcome.notes.begin(), outcome.notes.end(), note) == outcome.notes.end()) outcome.notes.push_back(note);
      }
      next = merge_worker_report(rows, next, report, timeout_s);
    }
    ran = next > 0;
    for (std::size_t r = next; r < rows.size(); ++r) {
      rows[r].message = "skipped: the run was interrupted (SIGINT or SIGTERM) before this row";
    }
    return rows;
  };
  for (std::size_t p = 0; p < plan.entries.size(); ++p) {
    bool ran = false;
    std::vector<CaseResult> rows = run_case(p, ran);
    if (repeat.processes > 1 && ran) {
      std::vector<std::vector<CaseResult>> copies{std::move(rows)};
      for (int k = 1; k < repeat.processes && !stopping(); ++k) {
        bool ran_again = false;
        copies.push_back(run_case(p, ran_again));
      }
      rows = pool_repeated_rows(copies, repeat.keep_samples);
    }
    if (ran && on_problem_done) on_problem_done(rows);
    outcome.rows.insert(outcome.rows.end(), rows.begin(), rows.end());
  }
  return outcome;
}

}  // namespace kbench
