#pragma once
/// An isolated run over several GPUs at once (--devices): one worker process at a time per GPU,
/// each with its own CUDA context, so no two workers ever share a GPU. Cases are handed out
/// largest estimated cost first; a worker that dies or times out costs its row in flight, and the
/// rest of its case goes back to the head of the queue for whichever GPU is free next.

#include "harness/isolate/worker_report.hpp"
#include "harness/measure/runner.hpp"
#include "harness/plan/plan.hpp"

#include <atomic>
#include <cstddef>
#include <functional>
#include <vector>

namespace kbench {

/// Runs rows first_row.. of case `case_index` in one worker on device slot `slot` and reports
/// what it got. Called from one thread per slot, concurrently.
using DeviceWorkerFn = std::function<WorkerReport(std::size_t case_index, std::size_t first_row, std::size_t slot)>;

/// Runs every entry of `plan` over `slots` device slots, taking cases in `order` (a permutation
/// of the entries' indices); the outcome holds the rows in plan order, each with `device` set to
/// the slot it ran on, metrics not derived. `on_problem_done` is called for each case as it ends
/// (in the order cases end, never two at once). Otherwise as run_plan_isolated
/// (harness/isolate/isolated_runner.hpp). Throws std::invalid_argument when `order` is not a
/// permutation or slots is 0; an exception from `run_worker` stops the others and is rethrown.
RunOutcome run_plan_on_devices(const Plan& plan, const std::vector<std::size_t>& order, std::size_t slots,
                               const DeviceWorkerFn& run_worker, double timeout_s,
                               const ProblemDoneFn& on_problem_done = {},
                               const std::atomic<bool>* stop_requested = nullptr);

}  // namespace kbench
