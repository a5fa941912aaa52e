#pragma once
/// Timing one variant in one mode. Measurement never prints; it returns samples, statistics and
/// what it noticed (clocks, timeouts).
///
/// cold   each sample is [L2 flush] [start event] [one call] [stop event]. A batch of samples is
///        queued behind a blocking kernel and released at once, so host enqueue time never falls
///        inside an event window and the flush keeps the call's inputs out of L2.
/// hot    N back-to-back calls captured in a CUDA graph; each sample is one replay between two
///        events, divided by N: the kernel's own cost without launch gaps. Caches stay warm:
///        inputs that fit in L2 are served from it (the result says so).
/// eager  each sample is [start event] [one call] [stop event] with nothing to hide the host's
///        enqueue time, as a framework calling kernels one by one sees it.
/// Between batches a clock probe measures the SM clock; samples of batches that ran below
/// clock_floor x the peak clock are counted and reported.

#include "harness/common/heartbeat.hpp"
#include "harness/measure/gpu_timers.hpp"
#include "harness/measure/l2_flush.hpp"
#include "harness/config/measure_settings.hpp"
#include "harness/results/gpu_telemetry.hpp"
#include "harness/results/stats.hpp"

#include <cuda_runtime_api.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kbench {

/// Enqueues one call on the stream it is given.
using LaunchFn = std::function<void(cudaStream_t)>;

class GpuTelemetrySampler;

/// The GPU resources measurement shares across cases (allocated once per run).
struct MeasureContext {
  cudaStream_t stream = nullptr;
  L2Flusher* flusher = nullptr;    ///< may be null when settings.flush_l2 == 0
  BlockingKernel* blocker = nullptr;
  ClockProbe* clock_probe = nullptr;  ///< needs 2 slots
  double peak_sm_clock_mhz = 0;
  double l2_bytes = 0;
  /// Reads NVML while samples are taken (may be null: no telemetry).
  GpuTelemetrySampler* telemetry = nullptr;
  /// Told of the calls enqueued and completed, for an isolated run's watchdog; never inside a
  /// timed window (harness/common/heartbeat.hpp). A no-op by default.
  Heartbeat heartbeat;
};

/// Owns the shared measurement resources of one device and hands out a MeasureContext. Loads
/// every helper kernel at construction: with lazy module loading, a first launch while the
/// blocking kernel spins would wait for it, and every sample of that batch would include the wait.
class MeasureResources {
 public:
  MeasureResources(cudaStream_t stream, std::int64_t l2_bytes, int peak_sm_clock_khz, bool flush_l2);
  const MeasureContext& context() const { return context_; }

 private:
  std::unique_ptr<L2Flusher> flusher_;
  BlockingKernel blocker_;
  ClockProbe clock_probe_{2};
  MeasureContext context_;
};

struct Measurement {
  MeasureMode mode = MeasureMode::cold;
  std::vector<double> samples_ms;  ///< per call, in enqueue order
  SampleStats stats;               ///< of samples_ms
  int warmup_calls = 0;
  int calls_per_sample = 1;
  bool timed_out = false;          ///< stopped at timeout_s before min_samples
  std::string stop_reason;         ///< StoppingRule::reason()
  bool l2_resident = false;        ///< hot mode: the working set fits in L2
  double sm_clock_mhz = 0;         ///< median of the clock probes
  double min_sm_clock_mhz = 0;     ///< lowest clock probe
  int low_clock_samples = 0;       ///< samples in batches below clock_floor x peak
  std::vector<std::string> warnings;
  std::optional<ModeTelemetry> telemetry;  ///< NVML's readings over the sampling; none without NVML
  double warmup_s = 0;    ///< host wall time of the warm-up
  double wall_time_s = 0;  ///< host wall time of the whole mode: warm-up, graph capture, sampling
};

/// Measures `launch` in `mode`. `working_set_bytes` is the call's
/// traffic, used to tell whether hot-mode inputs sit in L2. Throws CudaError; a call that cannot
/// be captured in a graph makes hot mode throw without disturbing the stream.
Measurement measure(MeasureMode mode, const LaunchFn& launch, const MeasureContext& context,
                    const MeasureSettings& settings, double working_set_bytes);

/// Calls in one hot-mode graph so a replay lasts about `target_ms`: between 2 and 1000.
int hot_calls_per_graph(double call_ms, double target_ms = 1.0);

}  // namespace kbench
