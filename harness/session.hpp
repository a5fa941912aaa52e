#pragma once
/// A whole run on one device: select and describe the device, run the plan, derive the figures,
/// and return a self-describing results document.

#include "harness/device_info.hpp"
#include "harness/measure_settings.hpp"
#include "harness/metrics.hpp"
#include "harness/plan.hpp"
#include "harness/results.hpp"
#include "harness/runner.hpp"

#include <cstdint>
#include <string>

namespace kbench {

struct SessionOptions {
  int device = 0;
  PeakOverrides peaks;
  MeasureSettings settings;
  std::uint64_t seed = 0;
  std::string command_line;
  BandPolicy band_policy;  ///< the status band of each row (from the thresholds); required
};

/// Selects the device (throws NoDeviceError / UnsupportedArchitectureError) and describes it.
/// `warning` receives a non-fatal note about the binary's code for this device.
DeviceInfo open_device(int index, const PeakOverrides& peaks, std::string& warning);

/// Runs `plan` on `device` (already opened); the plan's skipped rows are appended with status
/// skipped and their reason. `context_lost` is set when a sticky CUDA error cut the run short.
/// Throws std::invalid_argument when options.band_policy is empty.
RunResults run_session(const Plan& plan, const DeviceInfo& device, const SessionOptions& options,
                       const ProblemDoneFn& on_problem_done, bool& context_lost);

}  // namespace kbench
