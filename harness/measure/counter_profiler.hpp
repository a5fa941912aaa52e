#pragma once
/// Collects hardware counters of one call through CUPTI's range profiler (cupti_range_profiler.h,
/// cupti_profiler_host.h): auto ranges, one per kernel launch, and user replay: a metric set
/// needing several passes replays the whole call, after its own L2 flush, as often as it needs. libcupti is loaded at
/// run time (dlopen), as for the kernel tracer. Used after a row's timed samples, never inside a
/// timed window. When counters cannot be had (no libcupti, insufficient privileges, another
/// profiler attached, an unsupported GPU) `profile` returns nothing and `unavailable_reason` says why.

#include "harness/results/hardware_counters.hpp"

#include <cuda_runtime_api.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace kbench {

/// Work enqueued at the start of each profiled pass, before the call (an L2 flush, as cold mode
/// runs it), and how many kernels it launches: their ranges are left out of the result.
struct PassPrologue {
  std::function<void(cudaStream_t)> enqueue;  ///< may be empty: nothing before the call
  int kernels = 0;
};

class CounterProfiler {
 public:
  /// The process's profiler (CUPTI's profiler state is per process).
  static CounterProfiler& instance();

  /// Profiles one call of `launch` on `stream` on the current device, `prologue` running first
  /// inside each pass; its kernels are left out of the result. Nothing when counters are
  /// unavailable; CUDA errors of the call throw.
  std::optional<HardwareCounters> profile(const std::function<void(cudaStream_t)>& launch,
                                          const PassPrologue& prologue, cudaStream_t stream);

  /// Empty while counters work; otherwise why they cannot be had (set by the first failure).
  const std::string& unavailable_reason() const { return unavailable_; }
  /// Metrics this device does not offer, left out of every profile (empty until the first one).
  const std::vector<std::string>& missing_metrics() const { return missing_; }

  CounterProfiler(const CounterProfiler&) = delete;
  CounterProfiler& operator=(const CounterProfiler&) = delete;

 private:
  /// One profiled call; its kernels carry CUPTI's range names (the launch index for auto ranges).
  std::optional<HardwareCounters> profile_ranges(const std::function<void(cudaStream_t)>& launch,
                                                 const PassPrologue& prologue, cudaStream_t stream);
  CounterProfiler() = default;
  bool set_up();  ///< loads libcupti, initializes the profiler and builds the config image, once
  bool tried_ = false;
  std::string unavailable_;
  std::vector<std::string> metrics_;  ///< the metrics the device offers, in counter_metric_names() order
  std::vector<std::string> missing_;
  std::vector<unsigned char> config_image_;
};

}  // namespace kbench
