#pragma once
/// Device-side helpers for measurement: a kernel that holds a stream until the host has queued
/// a whole batch, and a probe that measures the SM clock without NVML.

#include "harness/device/cuda_resources.hpp"

#include <cuda_runtime_api.h>

#include <cstdint>

namespace kbench {

/// Pinned, device-mapped host memory of `count` values of T. Move-only.
template <typename T>
class MappedHostArray {
 public:
  explicit MappedHostArray(std::size_t count);
  ~MappedHostArray();
  MappedHostArray(const MappedHostArray&) = delete;
  MappedHostArray& operator=(const MappedHostArray&) = delete;
  T* host() const { return host_; }
  T* device() const { return device_; }

 private:
  T* host_ = nullptr;
  T* device_ = nullptr;
};

/// Holds a stream with a spinning kernel until release(): everything queued behind it then
/// runs back to back, so host enqueue time never falls inside an event window. The spin gives
/// up after `timeout_ms` (a safety net: the host may block on a full launch queue), and
/// timed_out() then says so.
class BlockingKernel {
 public:
  explicit BlockingKernel(double timeout_ms = 500.0);
  /// Enqueues the spinning kernel on `stream`.
  void block(cudaStream_t stream);
  /// Lets the spinning kernel finish.
  void release();
  /// True if the last block() ended by its timeout rather than by release(). Read after a sync.
  bool timed_out() const;

 private:
  MappedHostArray<volatile int> flag_;   ///< [0]: release flag, [1]: timed-out flag
  double timeout_ms_;
};

/// Measures the SM clock with one thread that counts clock64() cycles against %globaltimer
/// nanoseconds over about `cycles` cycles. Several probes can be queued; read after a sync.
class ClockProbe {
 public:
  explicit ClockProbe(int slots, long long cycles = 200000);
  /// Enqueues probe number `slot` on `stream`.
  void record(int slot, cudaStream_t stream);
  /// The SM clock probe `slot` saw, in MHz (0 if it has not run).
  double mhz(int slot) const;

 private:
  MappedHostArray<unsigned long long> results_;  ///< per slot: cycles, nanoseconds
  int slots_;
  long long cycles_;
};

}  // namespace kbench
