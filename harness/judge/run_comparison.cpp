#include "harness/judge/run_comparison.hpp"

#include "harness/results/result_queries.hpp"

#include <algorithm>
#include <cmath>

namespace kbench {

std::string_view verdict_name(Verdict verdict) {
  switch (verdict) {
    case Verdict::same: return "SAME";
    case Verdict::faster: return "FASTER";
    case Verdict::slower: return "SLOWER";
    case Verdict::uncertain: return "UNCERTAIN";
    case Verdict::lower_clocks: return "LOWER_CLOCKS";
  }
  return "?";
}

std::string_view rule_name(JudgeRule rule) { return rule == JudgeRule::samples ? "samples" : "noise"; }

Verdict judge(double change, double noise, double tolerance) {
  const double size = std::abs(change);
  if (size <= tolerance) return Verdict::same;
  if (size <= noise) return Verdict::uncertain;
  return change < 0 ? Verdict::faster : Verdict::slower;
}

namespace {

bool role_wanted(const std::vector<VariantRole>& roles, const CaseResult& row) {
  return roles.empty() || std::find(roles.begin(), roles.end(), row.role) != roles.end();
}

const CaseResult* find_row(const RunResults& run, const CaseResult& row) {
  for (const CaseResult& candidate : run.cases)
    if (same_row(candidate, row)) return &candidate;
  return nullptr;
}

}  // namespace

double row_tolerance(const CaseResult& row, double old_ms, double tolerance, const JudgeOptions& judging) {
  double launches = std::max(1, row.kernels_per_call);
  if (row.breakdown) launches = std::max(launches, row.breakdown->kernels_per_call);
  const double floor_ms = judging.min_change_us_per_launch * 1e-3 * launches;
  return old_ms > 0 ? std::max(tolerance, floor_ms / old_ms) : tolerance;
}

void judge_timings(RowComparison& c, const ModeTiming& before, const ModeTiming& now, double tolerance,
                   const JudgeOptions& judging) {
  const bool samples = before.samples_ms.size() >= kMinSamplesForTest && now.samples_ms.size() >= kMinSamplesForTest;
  if (samples) {
    c.rule = JudgeRule::samples;
    c.test = mann_whitney_u(before.samples_ms, now.samples_ms);
    c.interval = bootstrap_median_ratio(before.samples_ms, now.samples_ms, judging.bootstrap);
    const double size = std::abs(c.change);
    c.verdict = size <= tolerance        ? Verdict::same
                : c.test->p >= judging.alpha ? Verdict::uncertain
                : c.change < 0           ? Verdict::faster
                                         : Verdict::slower;
  } else {
    c.rule = JudgeRule::noise;
    c.verdict = judge(c.change, c.old_noise + c.new_noise, tolerance);
  }
  c.old_clock_mhz = before.sm_clock_mhz;
  c.new_clock_mhz = now.sm_clock_mhz;
  if (c.old_clock_mhz > 0 && c.new_clock_mhz > 0 && c.new_clock_mhz < c.old_clock_mhz * (1 - judging.clock_tolerance)) {
    c.change_at_equal_clocks = (c.new_ms * c.new_clock_mhz / c.old_clock_mhz) / c.old_ms - 1;
    if (c.verdict == Verdict::slower && *c.change_at_equal_clocks <= tolerance) c.verdict = Verdict::lower_clocks;
  }
}

RunComparison compare_runs(const RunResults& old_run, const RunResults& new_run, double tolerance,
                           const std::vector<VariantRole>& roles, const JudgeOptions& judging) {
  RunComparison out;
  out.device_note = device_mismatch(old_run, new_run);
  for (const CaseResult& row : new_run.cases) {
    if (!role_wanted(roles, row)) continue;
    const CaseResult* old_row = find_row(old_run, row);
    if (!old_row) {
      out.only_new.push_back(&row);
      continue;
    }
    if (headline_ms(row) <= 0 || headline_ms(*old_row) <= 0) {
      out.not_compared.push_back(row_label(row) + ": " + std::string(status_name(old_row->status)) + " in the old run, " +
                                 std::string(status_name(row.status)) + " in the new run");
      continue;
    }
    const ModeTiming* now = row.headline();
    const ModeTiming* before = old_row->timing(now->mode);
    if (!before || before->stats.count == 0 || before->stats.median <= 0) {
      out.not_compared.push_back(row_label(row) + ": the old run has no " + std::string(mode_name(now->mode)) + "-mode timing");
      continue;
    }
    RowComparison c;
    c.old_row = old_row;
    c.new_row = &row;
    c.mode = now->mode;
    c.old_ms = before->stats.median;
    c.new_ms = now->stats.median;
    c.change = c.new_ms / c.old_ms - 1;
    c.old_noise = before->stats.relative_iqr();
    c.new_noise = now->stats.relative_iqr();
    c.tolerance = row_tolerance(*old_row, c.old_ms, tolerance, judging);
    judge_timings(c, *before, *now, c.tolerance, judging);
    out.rows.push_back(c);
  }
  for (const CaseResult& row : old_run.cases) {
    if (role_wanted(roles, row) && !find_row(new_run, row)) out.only_old.push_back(&row);
  }
  return out;
}

double geometric_mean_ratio(const RunComparison& comparison, std::size_t& own_rows) {
  double log_sum = 0;
  own_rows = 0;
  for (const RowComparison& c : comparison.rows) {
    if (c.new_row->role != VariantRole::own) continue;
    log_sum += std::log(c.new_ms / c.old_ms);
    ++own_rows;
  }
  return own_rows ? std::exp(log_sum / static_cast<double>(own_rows)) : 0;
}

}  // namespace kbench
