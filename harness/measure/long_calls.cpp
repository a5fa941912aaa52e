#include "harness/measure/long_calls.hpp"

#include <algorithm>
#include <cmath>

namespace kbench {

bool is_long_call(double call_ms) { return call_ms >= kLongCallMs; }

bool warmup_done(int calls, double elapsed_s, double first_call_ms, const MeasureSettings& settings) {
  if (calls < 1 || elapsed_s < settings.warmup_time_s) return false;
  return calls >= settings.warmup_calls || is_long_call(first_call_ms);
}

MeasureSettings sampling_settings(const MeasureSettings& settings, double call_ms) {
  MeasureSettings out = settings;
  if (is_long_call(call_ms)) out.min_samples = std::min(settings.min_samples, kLongCallMinSamples);
  return out;
}

int batch_samples(double sample_ms, int max_batch, int remaining) {
  int batch = max_batch;
  if (sample_ms > 0) {
    const double fit = std::floor(kBatchTargetSeconds * 1e3 / sample_ms);
    batch = static_cast<int>(std::clamp(fit, 1.0, static_cast<double>(max_batch)));
  }
  return std::max(1, std::min(batch, remaining));
}

}  // namespace kbench
