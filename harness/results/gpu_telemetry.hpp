#pragma once
/// What NVML saw while one mode of a row was sampled (harness/measure/gpu_telemetry_sampler.hpp):
/// energy, power, temperature, clock-event (throttle) reasons and other processes on the GPU.
/// Host-only; every figure is optional, as NVML may not offer it on a device.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kbench {

struct ModeTelemetry {
  int samples = 0;                          ///< NVML readings taken while the mode was sampled
  std::optional<double> energy_j_per_call;  ///< energy counter delta over the sampling / calls timed, joules
  std::optional<double> mean_power_w;       ///< mean of the power readings, watts
  std::optional<double> max_temperature_c;  ///< hottest GPU temperature read, degrees Celsius
  /// Clock-event reasons seen in any reading ("sw_power_cap", "hw_thermal_slowdown", ...); GPU
  /// idle and application-clock settings are not listed.
  std::vector<std::string> clock_event_reasons;
  /// Compute processes other than kbench seen on the GPU in any reading (their pids).
  std::vector<std::int64_t> other_processes;

  /// Another process used the GPU: the timing may include its work.
  bool contended() const { return !other_processes.empty(); }
};

/// The telemetry of one mode pooled over several samplings of it (--repeat's processes, a
/// history's runs); null entries (no NVML there) are left out, and none at all gives none.
/// Readings and pids are joined (one contended sampling makes the pool contended), temperatures
/// by their maximum, power by the readings' mean, energy per call by the samplings' mean.
std::optional<ModeTelemetry> pooled_telemetry(const std::vector<const ModeTelemetry*>& each);

/// The warning a contended mode carries in its row ("another process ... pids 1234, 5678").
std::string contention_warning(const ModeTelemetry& telemetry);

}  // namespace kbench
