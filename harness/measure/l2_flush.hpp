#pragma once
/// Evicting the L2 cache between timed samples, so that a tensor that fits in L2 is not reported
/// as DRAM bandwidth.

#include "harness/device/cuda_resources.hpp"

#include <cstdint>

namespace kbench {

/// Owns a scratch buffer of twice the L2 size (allocated once) and reads all of it on demand.
/// Reading rather than writing (cudaMemset) leaves clean lines behind: a memset would leave L2
/// full of dirty lines whose write-back would be charged to the next timed kernel.
class L2Flusher {
 public:
  explicit L2Flusher(std::int64_t l2_bytes);
  /// Kernels one flush launches (the counter profiler leaves them out of a profiled pass).
  static constexpr int kKernelsPerFlush = 1;
  /// Enqueues the eviction on `stream`.
  void flush(cudaStream_t stream);
  std::size_t bytes() const { return buffer_.bytes(); }

 private:
  DeviceBuffer buffer_;
  DeviceBuffer sink_;  ///< where the read kernel writes if an impossible sum turns up
  int blocks_ = 0;
};

}  // namespace kbench
