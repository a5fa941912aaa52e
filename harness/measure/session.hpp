#pragma once
/// A whole run on one device: select and describe the device, run the plan, derive the figures,
/// and return a self-describing results document.

#include "harness/device/device_info.hpp"
#include "harness/config/measure_settings.hpp"
#include "harness/results/metrics.hpp"
#include "harness/plan/plan.hpp"
#include "harness/results/results.hpp"
#include "harness/measure/runner.hpp"

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>
#include <string>

namespace kbench {

struct SessionOptions {
  int device = 0;
  PeakOverrides peaks;
  MeasureSettings settings;
  std::uint64_t seed = 0;
  std::string command_line;
  BandPolicy band_policy;  ///< the status band of each row (from the thresholds); required
  const std::atomic<bool>* stop_requested = nullptr;  ///< set by a signal handler to end the run early
  RunExtras extras;  ///< kernel breakdown, profile launches
  /// Runs the plan in place of run_plan in this process, e.g. each case in a worker process
  /// (harness/isolate/isolated_runner.hpp); empty: run_plan.
  std::function<RunOutcome(const Plan&, const ProblemDoneFn&)> run_plan_with;
  std::optional<PlanIdentity> plan_identity;  ///< recorded as the results' plan (kbench merge checks it)
  std::vector<DeviceInfo> devices;             ///< --devices over several GPUs: the rows' devices, [0] the run's device
};

/// Receives the results so far (run_state "in_progress", figures derived) after each problem.
using PartialResultsFn = std::function<void(const RunResults& so_far)>;

/// Selects the device (throws NoDeviceError / UnsupportedArchitectureError) and describes it.
/// `warning` receives a non-fatal note about the binary's code for this device.
DeviceInfo open_device(int index, const PeakOverrides& peaks, std::string& warning);

/// Runs `plan` on `device` (already opened); the plan's skipped rows are appended with status
/// skipped and their reason. The returned run_state says whether the run completed, was
/// interrupted or lost its CUDA context. `on_partial` (may be empty) sees the results after
/// every problem, so a caller can keep them on disk as the run goes.
/// Throws std::invalid_argument when options.band_policy is empty.
RunResults run_session(const Plan& plan, const DeviceInfo& device, const SessionOptions& options,
                       const ProblemDoneFn& on_problem_done, const PartialResultsFn& on_partial = {});

}  // namespace kbench
