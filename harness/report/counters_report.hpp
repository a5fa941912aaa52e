#pragma once
/// The hardware-counter and GPU-telemetry tables: per row and kernel, what CUPTI's range profiler
/// counted for one call (`--counters`); per row and mode, what NVML read while it was sampled.
/// Host-only; reads results.

#include "harness/results/results.hpp"

#include <ostream>
#include <string>

namespace kbench {

/// One pipe table per op with a row per (case row, kernel launch); nothing when no row has
/// counters. `heading` is printed before the first table ("" for none).
void print_hardware_counters(std::ostream& out, const RunResults& results, const std::string& heading = "");

/// One pipe table with a row per (case row, mode) that has telemetry; nothing when none has.
void print_gpu_telemetry(std::ostream& out, const RunResults& results, const std::string& heading = "");

}  // namespace kbench
