#pragma once
/// From a sweep config (and the command line's filters) to a plan. Host-only: never touches the
/// GPU, so `--config ... --dry-run` validates a config anywhere.

#include "harness/plan/plan.hpp"
#include "harness/ops/registry.hpp"
#include "harness/config/sweep_config.hpp"

#include <string>
#include <vector>

namespace kbench {

/// Command-line filters that narrow a config (--op, --size, --dtype, --variant); empty: no filter.
struct ConfigFilters {
  std::vector<std::string> ops;       ///< op names or op families ("sum" for sum_full, sum_inner, ...)
  std::vector<std::string> size_classes;
  std::vector<std::string> dtypes;    ///< names or aliases; "all" means no filter
  std::vector<std::string> variants;  ///< narrows each sweep's variants (as --variant does)
  bool with_references = true;        ///< also run the baseline and the copy roof
  std::size_t max_cases = kDefaultMaxCases;  ///< --max-cases: planning more cases than this is an error
};

/// The plan of the config's sweeps that pass the filters; cases and rows the config's "skip" list
/// matches go to plan.skipped with their reason. Throws InputError naming the file and JSON path
/// of an unknown op or variant, of a shape or dtype the op rejects, of a skip that names nothing
/// the sweeps hold, or of a case planned twice, and when the cases that pass the filters exceed
/// filters.max_cases; throws std::invalid_argument when a filter names something the config does
/// not hold.
Plan make_config_plan(const Registry& registry, const SweepConfig& config, const ConfigFilters& filters);

}  // namespace kbench
