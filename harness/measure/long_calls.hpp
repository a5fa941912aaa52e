#pragma once
/// Long calls must not stall a sweep. A call of 0.5 s under the count-based defaults (10 warm-up
/// calls and batches of 32 samples per mode) costs over a minute per variant; these rules bound
/// it. Host-only and pure, so they are tested on numbers alone.
///
/// - A call is long at kLongCallMs or more, judged from the first warm-up call (synchronised and
///   timed on the host; verification has already run the call twice, so it is warm).
/// - Warm-up of a long call goes by time, not count: it ends once warmup_time_s has passed, after
///   one call at least; warmup_calls is not required. With warm-up turned off (no calls, no time)
///   there is no estimate, and none of these rules applies.
/// - Sampling a long call needs at most kLongCallMinSamples samples before the stopping rule may
///   end it (min_samples when that is fewer); min_time_s, max_noise, max_samples and timeout_s
///   apply as ever.
/// - Every batch of samples (between two stopping-rule checks) is sized to last about
///   kBatchTargetSeconds, 1 to 32 samples, so timeout_s holds to within one sample.
/// - Hot mode may replay a graph of one long call (otherwise at least two).

#include "harness/config/measure_settings.hpp"

namespace kbench {

/// A call that lasts this long or longer (ms) is a long call.
inline constexpr double kLongCallMs = 5.0;
/// The most timed samples a long call needs before the stopping rule may end sampling.
inline constexpr int kLongCallMinSamples = 5;
/// About how long one batch of samples should last (s).
inline constexpr double kBatchTargetSeconds = 0.25;

/// True for a call of `call_ms` or more than kLongCallMs.
bool is_long_call(double call_ms);

/// True when warm-up may stop after `calls` calls over `elapsed_s`, the first of them timed at
/// `first_call_ms`: the count and the time goals are met, or, for a long call, the time goal.
bool warmup_done(int calls, double elapsed_s, double first_call_ms, const MeasureSettings& settings);

/// The settings sampling runs under for a call of `call_ms`: `settings`, with min_samples at most
/// kLongCallMinSamples for a long call.
MeasureSettings sampling_settings(const MeasureSettings& settings, double call_ms);

/// Samples in the next batch: enough to last about kBatchTargetSeconds at `sample_ms` each, from 1
/// to `max_batch`, and no more than `remaining` (at least 1).
int batch_samples(double sample_ms, int max_batch, int remaining);

}  // namespace kbench
