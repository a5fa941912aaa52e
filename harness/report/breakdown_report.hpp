#pragma once
/// The kernel breakdown tables: for each traced row, what one call launches (CUPTI), the GPU
/// time of those launches per call against the hot-mode event time (the gap is launch and
/// inter-kernel overhead the events see but no kernel accounts for). Host-only; reads results.

#include "harness/results/results.hpp"

#include <ostream>

namespace kbench {

/// One pipe table per op with a row per (case row, activity); nothing when no row was traced.
/// `heading` is printed before the first table ("" for none).
void print_kernel_breakdowns(std::ostream& out, const RunResults& results, const std::string& heading = "");

}  // namespace kbench
