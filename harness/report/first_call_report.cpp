#include "harness/report/first_call_report.hpp"

#include "harness/report/report_format.hpp"
#include "harness/report/text_table.hpp"
#include "harness/results/result_queries.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace kbench {

std::optional<double> slow_first_call(const CaseResult& row) {
  const double median = row.status == CaseStatus::passed ? headline_ms(row) : 0;
  if (!row.first_call_ms || !(median > 0)) return std::nullopt;
  const double first = *row.first_call_ms;
  if (first < kSlowFirstCallFactor * median || first - median < kSlowFirstCallExtraMs) return std::nullopt;
  return first / median;
}

void print_first_calls(std::ostream& out, const RunResults& results) {
  const bool recorded = std::any_of(results.cases.begin(), results.cases.end(),
                                    [](const CaseResult& row) { return row.first_call_ms.has_value(); });
  if (!recorded) return;
  std::vector<TableRow> rows;
  for (const CaseResult& row : results.cases) {
    if (const auto ratio = slow_first_call(row)) {
      rows.push_back({row_label(row), format_ms(*row.first_call_ms), format_ms(headline_ms(row)), fmt::format("{:.0f}x", *ratio)});
    }
  }
  out << fmt::format(
      "\n## First calls\n\nRows whose first call on their inputs (launch to stream drained, before any warm-up: lazy "
      "module loading, JIT, first touch) took at least {:g}x their median and at least {:g} ms more; the CSV has "
      "every row's `first_call_ms`.\n\n",
      kSlowFirstCallFactor, kSlowFirstCallExtraMs);
  if (rows.empty()) {
    out << "None.\n";
    return;
  }
  print_pipe_table(out, {"Case", "First call", "Median", "First / median"}, rows);
}

}  // namespace kbench
