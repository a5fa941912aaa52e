#pragma once
/// Reads NVML while a mode is sampled: the energy counter at the start and end, and every 10 ms
/// on a background thread (cheap host calls only, nothing enqueued on the GPU) the power, the
/// temperature, the clock-event (throttle) reasons and the compute processes on the GPU.
/// libnvidia-ml is loaded at run time (dlopen); where it is missing, or the device is not found,
/// `available()` is false and `unavailable_reason` says why.

#include "harness/results/gpu_telemetry.hpp"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

namespace kbench {

class GpuTelemetrySampler {
 public:
  /// Opens NVML for the device with this PCI bus id ("0000:65:00.0"). Call it once the CUDA
  /// context exists: kbench's own process is then among the GPU's compute processes.
  explicit GpuTelemetrySampler(const std::string& pci_bus_id);
  ~GpuTelemetrySampler();
  GpuTelemetrySampler(const GpuTelemetrySampler&) = delete;
  GpuTelemetrySampler& operator=(const GpuTelemetrySampler&) = delete;

  bool available() const { return unavailable_.empty(); }
  /// Why there is no telemetry at all; empty when there is.
  const std::string& unavailable_reason() const { return unavailable_; }
  /// Why other processes cannot be told from kbench's own (a PID namespace); empty when they can.
  const std::string& processes_note() const { return processes_note_; }

  /// Starts sampling (the energy counter, then the background readings).
  void begin();
  /// Stops sampling and summarizes it; `calls` is the number of calls timed since begin().
  ModeTelemetry end(std::int64_t calls);

 private:
  void read_once();  ///< one reading of power, temperature, reasons and processes
  std::optional<unsigned long long> energy_mj() const;

  std::string unavailable_;
  std::string processes_note_;
  void* device_ = nullptr;  ///< nvmlDevice_t
  long self_pid_ = -1;      ///< kbench's pid as NVML reports it; -1: unknown
  std::optional<unsigned long long> start_energy_mj_;

  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
  ModeTelemetry current_;
  double power_sum_w_ = 0;
  int power_readings_ = 0;
};

}  // namespace kbench
