#pragma once
/// The JSON forms of HardwareCounters (results/SCHEMA.md: cases[i].hardware_counters) and
/// ModeTelemetry (cases[i].timings[j].telemetry). Both keys are left out when there is nothing.

#include "harness/results/gpu_telemetry.hpp"
#include "harness/results/hardware_counters.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace kbench {

/// A discarded value (the key left out) when there are no counters.
nlohmann::json counters_to_json(const std::optional<HardwareCounters>& counters);
/// Reads what counters_to_json wrote; `path` names the field in errors.
HardwareCounters counters_from_json(const nlohmann::json& value, const std::string& path);

/// A discarded value when there is no telemetry.
nlohmann::json telemetry_to_json(const std::optional<ModeTelemetry>& telemetry);
ModeTelemetry telemetry_from_json(const nlohmann::json& value, const std::string& path);

}  // namespace kbench
