#include "harness/measure/measure.hpp"

#include "harness/device/cuda_check.hpp"
#include "harness/device/cuda_resources.hpp"
#include "harness/device/nvtx_range.hpp"
#include "harness/measure/long_calls.hpp"
#include "harness/measure/gpu_telemetry_sampler.hpp"
#include "harness/measure/stopping_rule.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <stdexcept>

namespace kbench {

namespace {

constexpr int kBatch = 32;  ///< samples queued between synchronisations
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

struct WarmUp {
  int calls = 0;
  double call_ms = 0;  ///< wall time per warm-up call, host-timed: an estimate of one call's length
};

/// Calls `launch` until both the warm-up count and the warm-up time are reached, or for a long
/// call (long_calls.hpp) the time alone. The first call is synchronised and timed on its own.
WarmUp warm_up(const LaunchFn& launch, cudaStream_t stream, const MeasureSettings& settings, const Heartbeat& heartbeat) {
  const auto start = Clock::now();
  WarmUp warm;
  if (settings.warmup_calls == 0 && settings.warmup_time_s == 0) return warm;  // no warm-up, no estimate
  double first_call_ms = 0;
  do {
    heartbeat.calls_enqueued(1);
    launch(stream);
    ++warm.calls;
    if (warm.calls == 1 || warm.calls % 8 == 0 || warm.calls >= settings.warmup_calls) {
      KBENCH_CUDA_CALL(cudaStreamSynchronize(stream));
      heartbeat.calls_completed();
      if (warm.calls == 1) first_call_ms = seconds_since(start) * 1e3;
    }
    if (warm.calls >= 1000000) break;  // a call so short that the time goal would take forever
  } while (!warmup_done(warm.calls, seconds_since(start), first_call_ms, settings));
  KBENCH_CUDA_CALL(cudaStreamSynchronize(stream));
  heartbeat.calls_completed();
  warm.call_ms = seconds_since(start) * 1e3 / warm.calls;
  return warm;
}

/// Median time of a few single calls, each synchronised: a first estimate for sizing graphs.
double estimate_call_ms(const LaunchFn& launch, cudaStream_t stream, const Heartbeat& heartbeat) {
  CudaEvent start, stop;
  std::vector<double> times;
  for (int i = 0; i < 3; ++i) {
    heartbeat.calls_enqueued(1);
    KBENCH_CUDA_CALL(cudaEventRecord(start.get(), stream));
    launch(stream);
    KBENCH_CUDA_CALL(cudaEventRecord(stop.get(), stream));
    KBENCH_CUDA_CALL(cudaEventSynchronize(stop.get()));
    heartbeat.calls_completed();
    float ms = 0;
    KBENCH_CUDA_CALL(cudaEventElapsedTime(&ms, start.get(), stop.get()));
    times.push_back(ms);
  }
  return summarize(times).median;
}

/// Enqueues sample `i` of a batch between events starts[i] and stops[i].
using EnqueueSample = std::function<void(int i, cudaEvent_t start, cudaEvent_t stop)>;

/// Runs batches of samples until the stopping rule ends sampling, probing the SM clock around each.
/// `sample_ms` (an estimate of one sample's length) sizes the batches and, for long calls, the
/// minimum sample count (long_calls.hpp).
void run_batches(Measurement& result, const MeasureContext& context, const MeasureSettings& settings, double sample_ms,
                 bool use_blocker, const EnqueueSample& enqueue) {
  cudaStream_t stream = context.stream;
  std::vector<CudaEvent> starts(kBatch), stops(kBatch);
  StoppingRule rule(sampling_settings(settings, sample_ms / result.calls_per_sample));
  std::vector<double> clocks;
  double measured_s = 0;
  bool blocker_timed_out = false;
  const auto start = Clock::now();
  if (context.telemetry != nullptr) context.telemetry->begin();
  do {
    const int batch = batch_samples(sample_ms, kBatch, settings.max_samples - static_cast<int>(result.samples_ms.size()));
    context.heartbeat.calls_enqueued(static_cast<std::int64_t>(batch) * result.calls_per_sample);  // before any window
    if (use_blocker) context.blocker->block(stream);
    context.clock_probe->record(0, stream);
    for (int i = 0; i < batch; ++i) enqueue(i, starts[i].get(), stops[i].get());
    context.clock_probe->record(1, stream);
    if (use_blocker) context.blocker->release();
    KBENCH_CUDA_CALL(cudaStreamSynchronize(stream));
    context.heartbeat.calls_completed();
    blocker_timed_out = blocker_timed_out || (use_blocker && context.blocker->timed_out());

    for (int i = 0; i < batch; ++i) {
      float ms = 0;
      KBENCH_CUDA_CALL(cudaEventElapsedTime(&ms, starts[i].get(), stops[i].get()));
      result.samples_ms.push_back(ms / result.calls_per_sample);
      measured_s += ms * 1e-3;
    }
    const double batch_clock = std::min(context.clock_probe->mhz(0), context.clock_probe->mhz(1));
    clocks.push_back(batch_clock);
    if (context.peak_sm_clock_mhz > 0 && batch_clock < settings.clock_floor * context.peak_sm_clock_mhz) {
      result.low_clock_samples += batch;
    }
  } while (!rule.should_stop(result.samples_ms, measured_s, seconds_since(start)));

  if (context.telemetry != nullptr && context.telemetry->available()) {
    result.telemetry = context.telemetry->end(static_cast<std::int64_t>(result.samples_ms.size()) * result.calls_per_sample);
  }
  result.stop_reason = rule.reason();
  result.timed_out = rule.timed_out();
  result.stats = summarize(result.samples_ms);
  if (!clocks.empty()) {
    result.sm_clock_mhz = summarize(clocks).median;
    result.min_sm_clock_mhz = *std::min_element(clocks.begin(), clocks.end());
  }
  if (result.low_clock_samples > 0) {
    result.warnings.push_back(fmt::format(
        "{} of {} samples ran with the SM clock below {:.0f}% of its {:.0f} MHz peak (lowest {:.0f} MHz)",
        result.low_clock_samples, result.stats.count, 100 * settings.clock_floor, context.peak_sm_clock_mhz,
        result.min_sm_clock_mhz));
  }
  if (blocker_timed_out) {
    result.warnings.push_back("the host took longer to queue a batch than the blocking kernel waits: "
                              "some event windows may include host time");
  }
  if (result.timed_out) {
    result.warnings.push_back(fmt::format("only {} samples before the {:g} s timeout", result.stats.count, settings.timeout_s));
  }
}

}  // namespace

MeasureResources::MeasureResources(cudaStream_t stream, std::int64_t l2_bytes, int peak_sm_clock_khz, bool flush_l2) {
  if (flush_l2) flusher_ = std::make_unique<L2Flusher>(l2_bytes);
  context_.stream = stream;
  context_.flusher = flusher_.get();
  context_.blocker = &blocker_;
  context_.clock_probe = &clock_probe_;
  context_.peak_sm_clock_mhz = peak_sm_clock_khz / 1000.0;
  context_.l2_bytes = static_cast<double>(l2_bytes);
  // Load every helper kernel now, outside any blocked batch.
  blocker_.block(stream);
  blocker_.release();
  clock_probe_.record(0, stream);
  if (flusher_) flusher_->flush(stream);
  KBENCH_CUDA_CALL(cudaStreamSynchronize(stream));
}

int hot_calls_per_graph(double call_ms, double target_ms) {
  if (!(call_ms > 0)) return 1000;
  // Two at least, so a replay overlaps one call's drain with the next; a long call needs no such help.
  const double fewest = is_long_call(call_ms) ? 1.0 : 2.0;
  return static_cast<int>(std::clamp(std::ceil(target_ms / call_ms), fewest, 1000.0));
}

Measurement measure(MeasureMode mode, const LaunchFn& launch, const MeasureContext& context,
                    const MeasureSettings& settings, double working_set_bytes) {
  cudaStream_t stream = context.stream;
  Measurement result;
  result.mode = mode;
  const auto start = Clock::now();
  WarmUp warm;
  {
    const NvtxRange range("warmup " + std::string(mode_name(mode)));
    warm = warm_up(launch, stream, settings, context.heartbeat);
    result.warmup_calls = warm.calls;
    result.warmup_s = seconds_since(start);
  }
  const NvtxRange range("measure " + std::string(mode_name(mode)));

  if (mode == MeasureMode::cold) {
    const bool flush = settings.flush_l2 != 0;
    if (flush && context.flusher == nullptr) throw std::logic_error("measure: flush_l2 set but no L2Flusher given");
    run_batches(result, context, settings, warm.call_ms, true, [&](int, cudaEvent_t begin, cudaEvent_t end) {
      if (flush) context.flusher->flush(stream);
      KBENCH_CUDA_CALL(cudaEventRecord(begin, stream));
      launch(stream);
      KBENCH_CUDA_CALL(cudaEventRecord(end, stream));
    });
  } else if (mode == MeasureMode::hot) {
    // A long call's warm-up already says how long it is; a short one's host-timed figure is mostly overhead.
    const double call_ms = is_long_call(warm.call_ms) ? warm.call_ms : estimate_call_ms(launch, stream, context.heartbeat);
    result.calls_per_sample = hot_calls_per_graph(call_ms);
    result.l2_resident = working_set_bytes <= context.l2_bytes;
    const CapturedGraph graph(stream, [&](cudaStream_t s) {
      for (int i = 0; i < result.calls_per_sample; ++i) launch(s);
    });
    context.heartbeat.calls_enqueued(result.calls_per_sample);
    graph.launch(stream);  // the first replay uploads the graph
    KBENCH_CUDA_CALL(cudaStreamSynchronize(stream));
    context.heartbeat.calls_completed();
    run_batches(result, context, settings, call_ms * result.calls_per_sample, true, [&](int, cudaEvent_t begin, cudaEvent_t end) {
      KBENCH_CUDA_CALL(cudaEventRecord(begin, stream));
      graph.launch(stream);
      KBENCH_CUDA_CALL(cudaEventRecord(end, stream));
    });
  } else if (mode == MeasureMode::eager) {
    run_batches(result, context, settings, warm.call_ms, false, [&](int, cudaEvent_t begin, cudaEvent_t end) {
      KBENCH_CUDA_CALL(cudaEventRecord(begin, stream));
      launch(stream);
      KBENCH_CUDA_CALL(cudaEventRecord(end, stream));
    });
  } else {
    throw std::invalid_argument("measure: unknown mode " + std::to_string(static_cast<int>(mode)));
  }
  result.wall_time_s = seconds_since(start);
  return result;
}

}  // namespace kbench
