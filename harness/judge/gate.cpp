#include "harness/judge/gate.hpp"

#include "harness/common/printable_text.hpp"
#include "harness/report/report_format.hpp"
#include "harness/results/result_queries.hpp"
#include "harness/judge/run_comparison.hpp"

#include <fmt/format.h>

namespace kbench {

namespace {

std::string where(const CaseResult& row) { return printable(row_label(row) + " (" + row.size_class + ")"); }

void check_thresholds(const RunResults& results, const Thresholds& thresholds, GateResult& out) {
  for (const CaseResult& row : results.cases) {
    if (row.role != VariantRole::own) continue;
    if (row.status == CaseStatus::incorrect || row.status == CaseStatus::error) {
      out.violations.push_back(fmt::format("{}: {}: {}", where(row), status_name(row.status), printable(row.message)));
    } else if (row.status == CaseStatus::skipped) {
      out.notes.push_back(fmt::format("skipped, not checked: {}: {}", where(row), printable(row.message)));
    } else if (row.status == CaseStatus::passed && headline_ms(row) <= 0) {
      // A passed row is one the gate must judge; without a median it cannot, and that never passes.
      const ModeTiming* timing = row.headline();
      out.violations.push_back(fmt::format(
          "{}: passed but cannot be judged: {}", where(row),
          !timing ? "it has no timing" : timing->stats.count == 0 ? "its headline timing has no samples" : "its median time is 0"));
    }
  }
  for (const CaseResult* best : headline_rows(results)) {
    ++out.cases_checked;
    const Threshold& t = thresholds.lookup(*best);
    if (best->efficiency < t.min_efficiency) {
      out.violations.push_back(fmt::format("{}: efficiency {} < minimum {} [{}]", where(*best), format_percent(best->efficiency),
                                           format_percent(t.min_efficiency), t.origin));
    }
    if (!t.min_speed_ratio) continue;
    if (!best->speed_ratio) {
      out.violations.push_back(fmt::format("{}: no speed ratio (the baseline was not timed) but a minimum of {} is set [{}]",
                                           where(*best), format_ratio(*t.min_speed_ratio), t.origin));
    } else if (*best->speed_ratio < *t.min_speed_ratio) {
      out.violations.push_back(fmt::format("{}: speed ratio {} < minimum {} [{}]", where(*best), format_ratio(*best->speed_ratio),
                                           format_ratio(*t.min_speed_ratio), t.origin));
    }
  }
}

/// The evidence behind a verdict: the interval and p of the samples rule, or the noise of the other.
std::string evidence(const RowComparison& c, const GateOptions& options) {
  const double tolerance = c.tolerance;
  std::string text = fmt::format("{} -> {} ({}) in {} mode; ", format_ms(c.old_ms), format_ms(c.new_ms), format_change(c.change),
                                 mode_name(c.mode));
  if (c.rule == JudgeRule::samples) {
    text += fmt::format("new/old median {:.4f}, {:g}% interval [{:.4f}, {:.4f}], Mann-Whitney p {:.2g}; tolerance {} [rule: samples]",
                        c.interval->ratio, 100 * options.judging.bootstrap.confidence, c.interval->low, c.interval->high, c.test->p,
                        format_percent(tolerance));
  } else {
    text += fmt::format("tolerance {}, noise {} + {} [rule: noise]", format_percent(tolerance), format_percent(c.old_noise),
                        format_percent(c.new_noise));
  }
  if (c.change_at_equal_clocks) {
    text += fmt::format("; SM clock {:.0f} -> {:.0f} MHz, {} at equal clocks", c.old_clock_mhz, c.new_clock_mhz,
                        format_change(*c.change_at_equal_clocks));
  }
  return text;
}

void check_regressions(const RunResults& baseline, const RunResults& results, const GateOptions& options, GateResult& out) {
  const RunComparison comparison = compare_runs(baseline, results, options.max_regression, {VariantRole::own}, options.judging);
  if (!comparison.device_note.empty()) {
    if (!options.allow_device_mismatch) {
      throw GateInputError("the results and the baseline come from different devices (" + comparison.device_note +
                           "); pass --allow-device-mismatch to compare them anyway");
    }
    out.notes.push_back("comparing across devices: " + comparison.device_note);
  }
  for (const RowComparison& c : comparison.rows) {
    ++out.rows_compared;
    if (c.rule == JudgeRule::samples) ++out.rows_by_samples;
    const std::string numbers = evidence(c, options);
    const bool judged_change = c.verdict == Verdict::slower || c.verdict == Verdict::faster || c.verdict == Verdict::lower_clocks;
    if (judged_change && (c.new_row->contended() || c.old_row->contended())) {
      out.notes.push_back(fmt::format("not judged: {}: another process used the GPU during the {} run's row: {}", where(*c.new_row),
                                      c.new_row->contended() ? "new" : "baseline", numbers));
      continue;
    }
    if (c.verdict == Verdict::slower) out.violations.push_back(fmt::format("{}: regression: {}", where(*c.new_row), numbers));
    if (c.verdict == Verdict::faster) out.notes.push_back(fmt::format("improvement: {}: {}", where(*c.new_row), numbers));
    if (c.verdict == Verdict::lower_clocks) {
      out.notes.push_back(fmt::format("lower clocks, not a regression of the code: {}: {}", where(*c.new_row), numbers));
    }
  }
  for (const CaseResult* row : comparison.only_old) out.notes.push_back("missing from the results (in the baseline run only): " + where(*row));
  for (const CaseResult* row : comparison.only_new) out.notes.push_back("missing from the baseline run (new in the results): " + where(*row));
  for (const std::string& line : comparison.not_compared) out.notes.push_back("not compared with the baseline run: " + line);
}

}  // namespace

GateResult evaluate_gate(const RunResults& results, const Thresholds& thresholds, const RunResults* baseline,
                         const GateOptions& options) {
  GateResult out;
  if (results.run_state != RunState::complete) {
    out.violations.push_back("the run did not complete (run_state " + std::string(enum_name(results.run_state)) +
                             "): rows it never ran cannot pass");
  }
  check_thresholds(results, thresholds, out);
  if (baseline) check_regressions(*baseline, results, options, out);
  if (out.cases_checked == 0 && out.violations.empty()) {
    throw GateInputError("nothing to check: the results hold no timed kbench (own) row");
  }
  return out;
}

void print_gate_result(std::ostream& out, const GateResult& result) {
  // Lines quote the results (names, messages, device names): escaped once more here, where they are printed.
  for (const std::string& line : result.violations) out << "FAIL " << printable(line) << '\n';
  for (const std::string& line : result.notes) out << "note " << printable(line) << '\n';
  out << fmt::format("gate: {}: {} violation{}; {} cases checked against thresholds", result.passed() ? "PASS" : "FAIL",
                     result.violations.size(), result.violations.size() == 1 ? "" : "s", result.cases_checked);
  if (result.rows_compared) {
    out << fmt::format(", {} rows compared with the baseline run ({} by samples, {} by noise)", result.rows_compared,
                       result.rows_by_samples, result.rows_compared - result.rows_by_samples);
  }
  out << '\n';
}

}  // namespace kbench
