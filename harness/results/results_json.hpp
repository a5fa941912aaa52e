#pragma once
/// JSON (de)serialisation of the results document. Host-only.

#include "harness/common/input_error.hpp"
#include "harness/common/json_fields.hpp"
#include "harness/results/results.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace kbench {

nlohmann::json to_json(const RunResults& results);

/// A device block as results files write it (the same keys as $.device).
nlohmann::json to_json(const DeviceInfo& device);
// Blocks of the results document that other documents (plans: harness/plan/plan_json.hpp) write
// in the same form.

/// The "traffic" object of a row: bytes_read, bytes_written, flops, math.
const JsonFields<Traffic>& traffic_fields();
/// The "kbench" object: the build's version, commit and settings.
const JsonFields<BuildInfo>& build_fields();
/// The "settings" object; it follows measure_settings_table(), which also drives the CLI and configs.
nlohmann::json settings_to_json(const MeasureSettings& settings);

/// A plan's identity as results files and plan documents record it: {fingerprint, cases, shard:
/// {index (1-based), count, source} or null}.
nlohmann::json plan_identity_to_json(const PlanIdentity& plan);

/// Parses a results document; throws InputError naming the JSON path of a missing, mistyped or
/// out-of-range field (a negative or null time, a shape whose byte counts overflow), or an
/// unsupported schema_version.
RunResults results_from_json(const nlohmann::json& document);

/// Writes `results` to `path` (temporary file, then rename). Throws OutputError naming the file.
void write_results_file(const RunResults& results, const std::string& path);

/// Reads and parses `path`; throws InputError naming the file (and the line and column of text
/// that is not JSON).
RunResults read_results_file(const std::string& path);

}  // namespace kbench
