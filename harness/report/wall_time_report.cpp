#include "harness/report/wall_time_report.hpp"

#include "harness/ops/problem.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace kbench {

namespace {

constexpr std::size_t kLongestRowsShown = 5;

double row_seconds(const CaseResult& row) { return row.wall ? row.wall->total_s() : 0; }

double warmup_seconds(const RunResults& results) {
  double seconds = 0;
  for (const CaseResult& row : results.cases)
    for (const ModeTiming& timing : row.timings) seconds += timing.warmup_s;
  return seconds;
}

}  // namespace

RowWallTime total_wall_time(const RunResults& results) {
  RowWallTime total;
  for (const CaseResult& row : results.cases) {
    if (!row.wall) continue;
    total.prepare_s += row.wall->prepare_s;
    total.verify_s += row.wall->verify_s;
    total.timing_s += row.wall->timing_s;
    total.breakdown_s += row.wall->breakdown_s;
    total.counters_s += row.wall->counters_s;
  }
  return total;
}

std::vector<std::string> longest_rows(const RunResults& results, std::size_t count) {
  std::vector<const CaseResult*> rows;
  for (const CaseResult& row : results.cases)
    if (row_seconds(row) > 0) rows.push_back(&row);
  std::stable_sort(rows.begin(), rows.end(), [](const CaseResult* a, const CaseResult* b) { return row_seconds(*a) > row_seconds(*b); });
  rows.resize(std::min(rows.size(), count));
  std::vector<std::string> lines;
  for (const CaseResult* row : rows) {
    lines.push_back(fmt::format("{} {} {} {}: {:.1f} s", row->op, row->variant, row->dtype, format_shape(row->shape),
                                row_seconds(*row)));
  }
  return lines;
}

void print_wall_time(std::ostream& out, const RunResults& results) {
  const RowWallTime total = total_wall_time(results);
  if (!(total.total_s() > 0)) return;
  out << fmt::format(
      "Wall time of the rows: {:.1f} s: inputs and references {:.1f} s, verification {:.1f} s, timing {:.1f} s "
      "(warm-ups {:.1f} s), kernel breakdowns {:.1f} s, hardware counters {:.1f} s\n",
      total.total_s(), total.prepare_s, total.verify_s, total.timing_s, warmup_seconds(results), total.breakdown_s,
      total.counters_s);
  const std::vector<std::string> longest = longest_rows(results, kLongestRowsShown);
  out << "Longest rows: ";
  for (std::size_t i = 0; i < longest.size(); ++i) out << (i == 0 ? "" : "; ") << longest[i];
  out << '\n';
}

}  // namespace kbench
