#pragma once
/// Timing one variant: warm up, then sample with CUDA events until the settings are satisfied.
/// Measurement never prints; it returns samples and statistics.
///
/// Each sample is [L2 flush] [start event] [call] [stop event] on one stream. The flush runs
/// before the start event, and the host enqueues the call while the flush is still running, so
/// the event window holds the call's GPU work and no host time. Samples are enqueued in batches
/// and read back after one synchronisation per batch.

#include "harness/l2_flush.hpp"
#include "harness/measure_settings.hpp"
#include "harness/stats.hpp"

#include <cuda_runtime_api.h>

#include <functional>
#include <vector>

namespace kbench {

struct Measurement {
  std::vector<double> samples_ms;  ///< per-sample event time, in enqueue order
  SampleStats stats;               ///< of samples_ms
  int warmup_calls = 0;
  bool timed_out = false;          ///< sampling stopped at timeout_s before min_samples
  double wall_time_s = 0;          ///< warmup and sampling, host clock
};

/// Enqueues one call on the stream it is given.
using LaunchFn = std::function<void(cudaStream_t)>;

/// Measures `launch` on `stream`. `flusher` may be null only when settings.flush_l2 == 0.
Measurement measure(const LaunchFn& launch, cudaStream_t stream, const MeasureSettings& settings,
                    L2Flusher* flusher);

}  // namespace kbench
