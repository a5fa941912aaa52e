#pragma once
/// Runs a plan on the current CUDA device: for each problem, verify each variant against the
/// reference, then time it. Every planned row ends up in the results with a status; a failure in
/// one row never loses the others.

#include "harness/common/heartbeat.hpp"
#include "harness/device/device_info.hpp"
#include "harness/config/measure_settings.hpp"
#include "harness/plan/plan.hpp"
#include "harness/results/results.hpp"

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <stdexcept>
#include <vector>

namespace kbench {

/// Called after each problem with its rows (metrics not yet derived).
using ProblemDoneFn = std::function<void(const std::vector<CaseResult>& rows)>;

/// What a run does besides verifying and timing each row.
struct RunExtras {
  /// After a row's timed samples, trace a few more calls with CUPTI (harness/measure/kernel_tracer.hpp).
  bool kernel_breakdown = true;
  /// Verify, then launch each row once inside an NVTX "profile" range for an attached profiler
  /// (ncu, nsys): no warm-up, no flush, no timing; the rows are reported as skipped.
  bool profile = false;
  /// With `profile`: more than 1 captures that many back-to-back calls in a CUDA graph (hot
  /// mode's method) and replays it once inside the range, for `ncu --graph-profiling graph`.
  int profile_calls = 1;
  /// Calls traced for a kernel breakdown.
  int breakdown_calls = 3;
  /// Called after each row that ran to its status (entry index, row index, row); rows left
  /// unrun because the run stopped are not reported.
  std::function<void(std::size_t entry, std::size_t row, const CaseResult& done)> on_row_done;
  /// Shared with a supervising process: told of every call enqueued and completed (may be null).
  HeartbeatSlot* heartbeat = nullptr;
};

struct RunOutcome {
  std::vector<CaseResult> rows;
  std::vector<std::string> notes;  ///< run-level notes, e.g. why CUPTI could not be used
  bool context_lost = false;  ///< a sticky CUDA error ended the run early; later rows are skipped
  bool interrupted = false;   ///< *stop_requested was set; rows not yet run are skipped
};

/// Runs every entry of `plan`. Inputs of each problem are drawn from `seed` mixed with the
/// problem's index, so a run is reproducible with the same seed.
/// `stop_requested` (may be null) is polled before each variant: once set, the rows not yet run
/// are skipped and the outcome says interrupted.
RunOutcome run_plan(const Plan& plan, const DeviceInfo& device, const MeasureSettings& settings, std::uint64_t seed,
                    const ProblemDoneFn& on_problem_done = {}, const std::atomic<bool>* stop_requested = nullptr,
                    const RunExtras& extras = {});

/// The rows a plan entry produces, with identity and traffic filled and status `skipped`.
std::vector<CaseResult> planned_rows(const PlanEntry& entry);

}  // namespace kbench
