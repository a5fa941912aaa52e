#pragma once
/// `kbench compare OLD NEW`: a table of the matching rows (old and new median, change, noise of
/// each, verdict, the interval of new/old and the p of the samples rule, SM clocks, the rule that
/// judged the row) and a geometric-mean summary. Reads results only.

#include "harness/judge/run_comparison.hpp"

#include <ostream>

namespace kbench {

/// Prints the comparison table, the rows that could not be matched, and the summary.
void print_comparison(std::ostream& out, const RunComparison& comparison, double tolerance,
                      const JudgeOptions& judging = {});

}  // namespace kbench
