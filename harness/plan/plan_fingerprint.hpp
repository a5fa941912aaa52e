#pragma once
/// What identifies a plan across processes and machines: a fingerprint of the whole expanded
/// plan (every case and row, the config's skips) and the measurement settings, and the names of
/// its cases. Shards of one plan share both, so `kbench merge` can tell shards of one sweep
/// from results of another. Host-only.

#include "harness/config/measure_settings.hpp"
#include "harness/plan/plan.hpp"

#include <string>
#include <vector>

namespace kbench {

/// "fnv1a64:" and 16 hex digits: FNV-1a (64-bit) of a canonical text of the plan's cases in
/// order (op, dtype, shape, size class, each row's variant and source, the copy roof), its skipped
/// rows with their reasons, and every measurement setting. Not cryptographic: it tells plans
/// apart, it does not authenticate them.
std::string plan_fingerprint(const Plan& plan, const MeasureSettings& settings);

/// "op dtype shape" of each case the plan holds (run or skipped whole by the config), in plan
/// order, each once: the names results rows are matched by (case_name below).
std::vector<std::string> plan_case_names(const Plan& plan);

/// "add fp32 4096x4096".
std::string case_name(const std::string& op, const std::string& dtype, const Shape& shape);

}  // namespace kbench
