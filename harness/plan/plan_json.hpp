#pragma once
/// The expanded plan of a run as a JSON document (results/PLAN_SCHEMA.md, version 1): every case
/// with the rows kbench would run on it, the rows and cases a config skips, and what the run
/// would be measured and judged with. Tools that run kbench's cases elsewhere (kbenchpy) or
/// schedule them read it instead of re-reading configs. Host-only: a plan touches no GPU.

#include "harness/config/measure_settings.hpp"
#include "harness/device/build_info.hpp"
#include "harness/plan/plan.hpp"
#include "harness/results/results.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace kbench {

/// The plan_schema_version written (results/PLAN_SCHEMA.md); a reader refuses any other.
inline constexpr int kPlanSchemaVersion = 1;
/// The "kind" written, which tells a plan from a results file.
inline constexpr const char* kPlanKind = "kbench-plan";

/// What a plan file says besides its cases: where the plan came from and how a run would
/// measure and judge it.
struct PlanHeader {
  BuildInfo build;                    ///< the kbench that planned it
  std::string command_line;           ///< as typed
  std::optional<std::string> config;  ///< the config file as given; none for an --op run
  std::optional<std::uint64_t> seed;  ///< --seed; none: a run draws a fresh one
  MeasureSettings settings;           ///< after the config's settings and the command line
  nlohmann::json thresholds;          ///< the thresholds file's document, as read
  std::optional<PlanIdentity> identity;  ///< the whole plan's fingerprint and cases, and this run's shard
};

/// The plan document. Rows of a config's skips attach to their case's "skipped_rows"; a case
/// none of whose rows runs goes to "skipped_cases" with the skips' reason.
nlohmann::json plan_to_json(const Plan& plan, const PlanHeader& header);

/// Writes the plan document to `path` (temporary file, then rename). Throws OutputError naming
/// the file.
void write_plan_file(const Plan& plan, const PlanHeader& header, const std::string& path);

}  // namespace kbench
