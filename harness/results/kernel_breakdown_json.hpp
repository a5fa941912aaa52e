#pragma once
/// The JSON form of a KernelBreakdown (results/SCHEMA.md: cases[i].kernel_breakdown).

#include "harness/results/kernel_breakdown.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace kbench {

/// null when there is no breakdown.
nlohmann::json breakdown_to_json(const std::optional<KernelBreakdown>& breakdown);

/// Reads what breakdown_to_json wrote; `path` names the field in errors. null gives nothing.
std::optional<KernelBreakdown> breakdown_from_json(const nlohmann::json& value, const std::string& path);

}  // namespace kbench
