#pragma once
/// From what the user selected to the list of problems to run. Host-only: building a plan never
/// touches the GPU, so selections are validated (and listed by --dry-run) without one.

#include "harness/registry.hpp"

#include <string>
#include <vector>

namespace kbench {

/// What to run; empty lists mean "all" (ops, dtypes: fp32 only, see below).
struct Selection {
  std::vector<std::string> ops;          ///< op names; empty: every op
  std::vector<std::string> size_classes; ///< class names or "all"; ignored when shapes is not empty
  std::vector<Shape> shapes;             ///< explicit shapes (--shape)
  std::vector<std::string> dtypes;       ///< dtype names or "all"; empty: fp32
  std::vector<std::string> variants;     ///< own variants to run; empty: all
  bool with_references = true;           ///< also run the baseline and the copy roof
};

/// One problem of one op, with the variants to run on it.
struct PlanEntry {
  const Op* op = nullptr;
  Problem problem;
  std::vector<std::size_t> variants;  ///< indices into op->variants()
  bool copy_roof = false;             ///< also run the device-to-device copy row
};

struct Plan {
  std::vector<PlanEntry> entries;
  /// Rows the plan will produce (variants plus roof rows).
  std::size_t row_count() const;
};

/// Splits "a,b, c" into {"a","b","c"}, dropping empty items.
std::vector<std::string> split_list(const std::string& text);

/// Builds the plan; throws std::invalid_argument naming the unknown op, size class, dtype or
/// variant and listing the valid ones.
Plan make_plan(const Registry& registry, const Selection& selection);

}  // namespace kbench
