#pragma once
/// What the markdown and CSV reports are generated from. Reports read results only: no CUDA or
/// measurement headers, no clock (the date comes from the results file), so output is
/// deterministic.

#include "harness/results/results.hpp"
#include "harness/config/thresholds.hpp"

#include <string>
#include <vector>

namespace kbench {

struct ReportInput {
  const RunResults* results = nullptr;   ///< the run reported on
  const Thresholds* thresholds = nullptr;
  std::string results_name;              ///< shown as the source (a file name)
  const RunResults* against = nullptr;   ///< --against: another run compared column by column, or null
  std::string against_label;             ///< its column heading, e.g. "torch"
  /// Plot images to link (paths relative to the report), roofline first; empty: no Plots section.
  std::vector<std::string> plots;
};

}  // namespace kbench
