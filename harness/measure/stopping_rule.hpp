#pragma once
/// When to stop sampling one variant in one mode. Host-only and pure, so it is tested on
/// synthetic sample streams.
///
/// Sampling goes on until min_samples are taken and min_time_s of GPU time is measured. Then it
/// stops as soon as the noise (relative IQR) is at or below max_noise, or once the noise estimate
/// has settled above it: the last three batch-end estimates within 10% of each other (or within
/// one point, since short kernels' noise moves in timer-resolution steps), so more
/// samples would not make the figure cleaner. max_samples and the wall-clock timeout end it
/// regardless.

#include "harness/config/measure_settings.hpp"

#include <string>
#include <vector>

namespace kbench {

class StoppingRule {
 public:
  explicit StoppingRule(const MeasureSettings& settings) : settings_(settings) {}

  /// Call after each batch with every sample so far (ms, per call), the GPU time they cover
  /// (s) and the wall time since sampling began (s). True when sampling should stop; reason()
  /// then says why.
  bool should_stop(const std::vector<double>& samples_ms, double measured_s, double wall_s);

  /// "max_samples", "timeout", "min_time" (no noise target), "noise_target", "noise_settled"; empty until then.
  const std::string& reason() const { return reason_; }
  /// True when stopped by the timeout before min_samples.
  bool timed_out() const { return timed_out_; }

 private:
  MeasureSettings settings_;
  std::vector<double> noise_history_;
  std::string reason_;
  bool timed_out_ = false;
};

}  // namespace kbench
