#pragma once
/// From what the user selected to the list of problems to run. Host-only: building a plan never
/// touches the GPU, so selections are validated (and listed by --dry-run) without one.

#include "harness/common/split_list.hpp"
#include "harness/ops/registry.hpp"

#include <string>
#include <vector>

namespace kbench {

/// Default of --max-cases: the most cases (op x shape x dtype) one run may plan, a guard against
/// a selection or config that asks for far more than meant (configs/all.json plans 212).
constexpr std::size_t kDefaultMaxCases = 1000;

/// What to run, from the command line: with --op, empty lists mean every op, size class large,
/// dtype fp32 and every own variant; with --config (make_config_plan), the same fields filter the
/// config, and an empty list filters nothing.
struct Selection {
  std::vector<std::string> ops;          ///< op names; empty: every op
  std::vector<std::string> size_classes; ///< class names or "all"; ignored when shapes is not empty
  std::vector<Shape> shapes;             ///< explicit shapes (--shape)
  std::vector<std::string> dtypes;       ///< dtype names or "all"; empty: fp32
  std::vector<std::string> variants;     ///< own variants to run; empty: all
  bool with_references = true;           ///< also run the baseline and the copy roof
  std::size_t max_cases = kDefaultMaxCases;  ///< --max-cases: planning more cases than this is an error
};

/// One problem of one op, with the variants to run on it.
struct PlanEntry {
  const Op* op = nullptr;
  Problem problem;
  std::vector<std::size_t> variants;  ///< indices into op->variants()
  bool copy_roof = false;             ///< also run the device-to-device copy row
};

/// Rows a config skips on purpose: reported as SKIPPED with the reason, never run.
struct SkippedEntry {
  PlanEntry entry;     ///< the problem and the variants (and roof row) skipped
  std::string reason;
};

struct Plan {
  std::vector<PlanEntry> entries;
  std::vector<SkippedEntry> skipped;  ///< from a config's "skip" list
  /// Rows the plan will run (variants plus roof rows).
  std::size_t row_count() const;
  /// Rows the plan reports as skipped without running them.
  std::size_t skipped_row_count() const;
};

/// One problem of `op` with the variants a selection picks: those named in `variants` (all own
/// variants when empty), plus the baseline and the copy roof when `with_references`. Throws
/// std::invalid_argument when the op rejects the shape or the dtype.
PlanEntry make_plan_entry(const Op& op, const Problem& problem, const std::vector<std::string>& variants,
                          bool with_references);

/// Builds the plan; throws std::invalid_argument naming the unknown op, size class, dtype or
/// variant and listing the valid ones, or when the plan has more than selection.max_cases cases.
Plan make_plan(const Registry& registry, const Selection& selection);

}  // namespace kbench
