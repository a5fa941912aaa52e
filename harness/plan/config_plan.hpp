#pragma once
/// From a sweep config (and the command line's filters) to a plan. Host-only: never touches the
/// GPU, so `--config ... --dry-run` validates a config anywhere.

#include "harness/plan/plan.hpp"
#include "harness/ops/registry.hpp"
#include "harness/config/sweep_config.hpp"

#include <string>
#include <vector>

namespace kbench {

/// The plan of the config's sweeps that pass the filters (`filters`: what --op, --size, --dtype
/// and --variant select; an empty list or "all" filters nothing; its shapes are not
/// used: the command line refuses --shape with --config); cases and rows the config's "skip" list
/// matches go to plan.skipped with their reason. Throws InputError naming the file and JSON path
/// of an unknown op or variant, of a shape or dtype the op rejects, of a skip that names nothing
/// the sweeps hold, or of a case planned twice, and when the cases that pass the filters exceed
/// filters.max_cases; throws std::invalid_argument when a filter names something the config does
/// not hold.
Plan make_config_plan(const Registry& registry, const SweepConfig& config, const Selection& filters);

}  // namespace kbench
