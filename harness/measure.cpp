#include "harness/measure.hpp"

#include "harness/cuda_check.hpp"
#include "harness/cuda_resources.hpp"

#include <algorithm>
#include <chrono>

namespace kbench {

namespace {
constexpr int kBatch = 32;  ///< samples enqueued between synchronisations
using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}
}  // namespace

Measurement measure(const LaunchFn& launch, cudaStream_t stream, const MeasureSettings& settings,
                    L2Flusher* flusher) {
  const bool flush = settings.flush_l2 != 0;
  if (flush && flusher == nullptr) throw std::logic_error("measure: flush_l2 set but no L2Flusher given");

  Measurement result;
  const auto start = Clock::now();
  for (int i = 0; i < settings.warmup_calls; ++i) launch(stream);
  KBENCH_CUDA_CALL(cudaStreamSynchronize(stream));
  result.warmup_calls = settings.warmup_calls;

  std::vector<CudaEvent> starts(kBatch), stops(kBatch);
  double measured_s = 0;
  const auto done = [&] {
    const auto n = static_cast<int>(result.samples_ms.size());
    if (n >= settings.max_samples) return true;
    return n >= settings.min_samples && measured_s >= settings.min_time_s;
  };
  while (!done()) {
    if (seconds_since(start) > settings.timeout_s) {
      result.timed_out = static_cast<int>(result.samples_ms.size()) < settings.min_samples;
      break;
    }
    const int remaining = settings.max_samples - static_cast<int>(result.samples_ms.size());
    const int batch = std::min(kBatch, remaining);
    for (int i = 0; i < batch; ++i) {
      if (flush) flusher->flush(stream);
      KBENCH_CUDA_CALL(cudaEventRecord(starts[i].get(), stream));
      launch(stream);
      KBENCH_CUDA_CALL(cudaEventRecord(stops[i].get(), stream));
    }
    KBENCH_CUDA_CALL(cudaEventSynchronize(stops[batch - 1].get()));
    for (int i = 0; i < batch; ++i) {
      float ms = 0;
      KBENCH_CUDA_CALL(cudaEventElapsedTime(&ms, starts[i].get(), stops[i].get()));
      result.samples_ms.push_back(ms);
      measured_s += ms * 1e-3;
    }
  }
  result.stats = summarize(result.samples_ms);
  result.wall_time_s = seconds_since(start);
  return result;
}

}  // namespace kbench
