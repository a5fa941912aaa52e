#include "harness/isolate/device_pool.hpp"

#include <algorithm>
#include <deque>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <thread>

namespace kbench {

RunOutcome run_plan_on_devices(const Plan& plan, const std::vector<std::size_t>& order, std::size_t slots,
                               const DeviceWorkerFn& run_worker, double timeout_s, const ProblemDoneFn& on_problem_done,
                               const std::atomic<bool>* stop_requested) {
  const std::size_t cases = plan.entries.size();
  std::vector<std::size_t> sorted = order;
  std::sort(sorted.begin(), sorted.end());
  for (std::size_t i = 0; i < sorted.size(); ++i) {
    if (sorted[i] != i || sorted.size() != cases) throw std::invalid_argument("run_plan_on_devices: order is not a permutation of the plan's cases");
  }
  if (slots == 0) throw std::invalid_argument("run_plan_on_devices: no device slots");

  std::vector<std::vector<CaseResult>> rows(cases);
  for (std::size_t p = 0; p < cases; ++p) rows[p] = planned_rows(plan.entries[p]);
  std::vector<std::size_t> next(cases, 0);
  std::deque<std::size_t> queue(order.begin(), order.end());
  RunOutcome outcome;
  std::mutex lock;
  std::exception_ptr failure;
  const auto stopping = [&] {  // with `lock` held
    if (stop_requested != nullptr && stop_requested->load()) outcome.interrupted = true;
    return outcome.interrupted || failure != nullptr;
  };

  const auto serve = [&](std::size_t slot) {
    for (;;) {
      std::size_t p = 0, first = 0;
      {
        const std::lock_guard<std::mutex> held(lock);
        if (stopping() || queue.empty()) return;
        p = queue.front();
        queue.pop_front();
        first = next[p];
      }
      WorkerReport report;
      try {
        report = run_worker(p, first, slot);
      } catch (...) {
        const std::lock_guard<std::mutex> held(lock);
        if (!failure) failure = std::current_exception();
        return;
      }
      const std::lock_guard<std::mutex> held(lock);
      const bool stop = stopping();
      // As run_plan_isolated: a worker ended by the run's interrupt leaves its rows skipped; one
      // interrupted from outside loses its row in flight, like a worker that died.
      if (stop && report.end != WorkerEnd::finished) report.end = WorkerEnd::interrupted;
      if (!stop && report.end == WorkerEnd::interrupted) report.end = WorkerEnd::died;
      for (const std::string& note : report.notes) {
        if (std::find(outcome.notes.begin(), outcome.notes.end(), note) == outcome.notes.end()) outcome.notes.push_back(note);
      }
      const std::size_t done = merge_worker_report(rows[p], first, report, timeout_s);
      for (std::size_t r = first; r < done; ++r) rows[p][r].device = slot;
      next[p] = done;
      if (done == rows[p].size()) {
        if (on_problem_done) on_problem_done(rows[p]);
      } else if (!stop) {
        queue.push_front(p);  // the rest of the case, to whichever slot is free next
      }
    }
  };
  std::vector<std::thread> threads;
  for (std::size_t slot = 0; slot < slots; ++slot) threads.emplace_back(serve, slot);
  for (std::thread& thread : threads) thread.join();
  if (failure) std::rethrow_exception(failure);

  for (std::size_t p = 0; p < cases; ++p) {
    if (next[p] == rows[p].size()) continue;
    for (std::size_t r = next[p]; r < rows[p].size(); ++r) {
      rows[p][r].message = "skipped: the run was interrupted (SIGINT or SIGTERM) before this row";
    }
    if (next[p] > 0 && on_problem_done) on_problem_done(rows[p]);
  }
  for (std::vector<CaseResult>& each : rows) outcome.rows.insert(outcome.rows.end(), each.begin(), each.end());
  return outcome;
}

}  // namespace kbench
