#pragma once
/// `kbench compare OLD NEW`: a table of the matching rows (old and new median, change, noise of
/// each, verdict) and a geometric-mean summary. Reads results only.

#include "harness/judge/run_comparison.hpp"

#include <ostream>

namespace kbench {

/// Prints the comparison table, the rows that could not be matched, and the summary.
void print_comparison(std::ostream& out, const RunComparison& comparison, double tolerance);

}  // namespace kbench
