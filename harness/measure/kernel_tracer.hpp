#pragma once
/// Traces which kernels a call launches, through CUPTI's activity API (concurrent-kernel,
/// memcpy and memset records). libcupti is loaded at run time (dlopen), so kbench runs where it
/// is missing; when CUPTI cannot be used (library missing, another profiler such as ncu or nsys
/// already attached) `trace` returns nothing and `unavailable_reason` says why.

#include "harness/results/kernel_breakdown.hpp"

#include <cuda_runtime_api.h>

#include <functional>
#include <optional>
#include <string>

namespace kbench {

class KernelTracer {
 public:
  /// The process's tracer (CUPTI's activity buffers are per process).
  static KernelTracer& instance();

  /// Runs `calls` calls of `launch` on `stream` with activity recording on, synchronizes, and
  /// groups what ran. Nothing when CUPTI is unavailable; CUDA errors of the calls throw.
  std::optional<KernelBreakdown> trace(const std::function<void(cudaStream_t)>& launch, cudaStream_t stream,
                                       int calls);

  /// Empty while CUPTI works; otherwise why it cannot be used (set by the first failure).
  const std::string& unavailable_reason() const { return unavailable_; }

  KernelTracer(const KernelTracer&) = delete;
  KernelTracer& operator=(const KernelTracer&) = delete;

 private:
  KernelTracer();
  bool load();
  std::string unavailable_;
  bool loaded_ = false;
};

}  // namespace kbench
