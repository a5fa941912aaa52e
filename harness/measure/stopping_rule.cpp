#include "harness/measure/stopping_rule.hpp"

#include "harness/results/stats.hpp"

#include <algorithm>
#include <cmath>

namespace kbench {

namespace {
constexpr std::size_t kSettledWindow = 3;     ///< batch-end estimates that must agree
constexpr double kSettledTolerance = 0.10;    ///< relative spread allowed among them
constexpr double kSettledAbsolute = 0.01;     ///< or this absolute spread (one point of relative IQR)
}  // namespace

bool StoppingRule::should_stop(const std::vector<double>& samples_ms, double measured_s, double wall_s) {
  const auto count = static_cast<int>(samples_ms.size());
  if (count >= settings_.max_samples) {
    reason_ = "max_samples";
    return true;
  }
  if (wall_s >= settings_.timeout_s) {
    reason_ = "timeout";
    timed_out_ = count < settings_.min_samples;
    return true;
  }
  if (count < settings_.min_samples || measured_s < settings_.min_time_s) return false;
  if (settings_.max_noise <= 0) {
    reason_ = "min_time";
    return true;
  }
  const double noise = summarize(samples_ms).relative_iqr();
  if (noise <= settings_.max_noise) {
    reason_ = "noise_target";
    return true;
  }
  noise_history_.push_back(noise);
  if (noise_history_.size() >= kSettledWindow) {
    const auto first = noise_history_.end() - kSettledWindow;
    const auto [low, high] = std::minmax_element(first, noise_history_.end());
    // Relative IQRs of short kernels move in steps of the event timer's resolution (~0.5 µs),
    // so a spread of one point of noise also counts as settled.
    if (*high - *low <= std::max(kSettledTolerance * *high, kSettledAbsolute)) {
      reason_ = "noise_settled";
      return true;
    }
  }
  return false;
}

}  // namespace kbench
