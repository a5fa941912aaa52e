#include "harness/report/compare_report.hpp"

#include "harness/report/report_format.hpp"
#include "harness/results/result_queries.hpp"
#include "harness/report/text_table.hpp"

#include <fmt/format.h>

#include <cmath>

namespace kbench {

void print_comparison(std::ostream& out, const RunComparison& comparison, double tolerance, const JudgeOptions& judging) {
  if (!comparison.device_note.empty()) out << "note: " << comparison.device_note << "\n\n";
  std::vector<TableRow> rows;
  std::size_t counts[5] = {0, 0, 0, 0, 0};
  std::size_t by_samples = 0;
  for (const RowComparison& c : comparison.rows) {
    ++counts[static_cast<int>(c.verdict)];
    if (c.rule == JudgeRule::samples) ++by_samples;
    const CaseResult& row = *c.new_row;
    const std::string interval =
        c.interval ? fmt::format("[{:.3f}, {:.3f}]", c.interval->low, c.interval->high) : std::string("-");
    const std::string p = c.test ? fmt::format("{:.2g}", c.test->p) : std::string("-");
    const std::string clocks =
        c.old_clock_mhz > 0 && c.new_clock_mhz > 0 ? fmt::format("{:.0f} -> {:.0f}", c.old_clock_mhz, c.new_clock_mhz) : "-";
    rows.push_back({row_label(row) + (row.role == VariantRole::own ? "" : " (" + std::string(role_name(row.role)) + ")"),
                    std::string(mode_name(c.mode)), format_ms(c.old_ms),
                    format_ms(c.new_ms), format_change(c.change), format_percent(c.old_noise), format_percent(c.new_noise),
                    std::string(verdict_name(c.verdict)), interval, p, clocks, std::string(rule_name(c.rule))});
  }
  print_pipe_table(out, {"Case", "Mode", "Old", "New", "Diff", "Old noise", "New noise", "Verdict", "New/old 95% CI", "p",
                         "SM MHz", "Rule"},
                   rows);
  for (const CaseResult* row : comparison.only_old) out << "only in the old run: " << row_label(*row) << '\n';
  for (const CaseResult* row : comparison.only_new) out << "only in the new run: " << row_label(*row) << '\n';
  for (const std::string& line : comparison.not_compared) out << "not compared: " << line << '\n';

  out << fmt::format("\n{} rows compared: {} SAME, {} FASTER, {} SLOWER, {} UNCERTAIN, {} LOWER_CLOCKS (tolerance {}; {} by "
                     "samples: Mann-Whitney p < {:g}; {} by noise = summed relative IQRs)\n",
                     comparison.rows.size(), counts[0], counts[1], counts[2], counts[3], counts[4], format_percent(tolerance),
                     by_samples, judging.alpha, comparison.rows.size() - by_samples);
  std::size_t own = 0;
  const double ratio = geometric_mean_ratio(comparison, own);
  if (own) {
    const std::string direction = std::abs(1 - ratio) < 5e-4 ? "no change"
                                  : format_percent(std::abs(1 - ratio)) + (ratio < 1 ? " faster" : " slower");
    out << fmt::format("geometric mean of new/old time over {} kbench rows: {:.3f} ({})\n", own, ratio, direction);
  } else {
    out << "no kbench row was timed in both runs\n";
  }
}

}  // namespace kbench
