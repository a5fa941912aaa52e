#pragma once
/// Two runs side by side: rows matched by op, variant, shape and dtype; the change of each
/// matched row's median; and a verdict that takes both runs' noise into account. Used by
/// `kbench compare` and by the gate's regression check. Host-only.
///
/// Two rules, one per row, named in RowComparison::rule:
/// - samples (both rows kept at least kMinSamplesForTest samples in the compared mode): the change
///   is significant when the Mann-Whitney U test's two-sided p is below `alpha`; the change is
///   printed with a bootstrap confidence interval of the ratio of medians.
/// - noise (either row kept no samples): significant when |change| exceeds the two runs' summed
///   relative IQRs.
/// Either way a change within the tolerance is SAME, and a significant one beyond it FASTER or
/// SLOWER. Clocks: when both timings recorded their SM clock and the new one ran slower by more
/// than `clock_tolerance`, a SLOWER row is judged again at equal clocks (its time scaled by the
/// clock ratio, as if time ran with 1 / SM clock); within the tolerance there it is LOWER_CLOCKS,
/// not SLOWER: the run, not the code, got slower.

#include "harness/judge/sample_tests.hpp"
#include "harness/results/results.hpp"

#include <optional>

#include <string>
#include <vector>

namespace kbench {

enum class Verdict {
  same,       ///< the change is within the tolerance
  faster,     ///< faster by more than the tolerance and more than the noise
  slower,     ///< slower by more than the tolerance and more than the noise
  uncertain,  ///< beyond the tolerance but within the two runs' noise
  lower_clocks,  ///< slower, but not at equal SM clocks: the new run's GPU clocked lower
};

std::string_view verdict_name(Verdict verdict);  ///< "SAME", "FASTER", "SLOWER", "UNCERTAIN", "LOWER_CLOCKS"

/// Which rule judged a row (see the top of this file).
enum class JudgeRule {
  noise,    ///< summed relative IQRs: either side kept no samples
  samples,  ///< Mann-Whitney U on the kept samples
};

std::string_view rule_name(JudgeRule rule);  ///< "noise", "samples"

/// Fewest samples on each side for the samples rule.
constexpr std::size_t kMinSamplesForTest = 8;

/// How rows are judged beyond the tolerance.
struct JudgeOptions {
  double alpha = 0.01;             ///< significance level of the two-sided Mann-Whitney test
  double clock_tolerance = 0.02;   ///< SM clocks closer than this fraction count as equal
  /// A change smaller than this many microseconds per kernel launch of the call is SAME whatever
  /// its percentage: between two processes of one build the H100 moved cold medians of short rows
  /// by up to 0.26 us per launch (README, "How the gate decides"), twice that is the default.
  double min_change_us_per_launch = 0.5;
  BootstrapOptions bootstrap;      ///< the printed interval of the ratio of medians
};

/// The verdict for a relative change (new / old - 1) given the runs' summed noise and a tolerance
/// (both fractions): SAME when |change| <= tolerance, UNCERTAIN when |change| <= noise, else
/// FASTER or SLOWER.
Verdict judge(double change, double noise, double tolerance);

/// One row present and timed in both runs, compared in the new row's headline mode.
struct RowComparison {
  const CaseResult* old_row = nullptr;
  const CaseResult* new_row = nullptr;
  MeasureMode mode = MeasureMode::cold;  ///< the new row's headline mode
  double old_ms = 0, new_ms = 0;
  double change = 0;                  ///< new_ms / old_ms - 1: positive is slower
  /// The practical threshold this row was judged with: the tolerance, or the per-launch floor
  /// (JudgeOptions::min_change_us_per_launch) over old_ms when that is larger.
  double tolerance = 0;
  double old_noise = 0, new_noise = 0;  ///< relative IQRs in `mode`
  Verdict verdict = Verdict::same;
  JudgeRule rule = JudgeRule::noise;
  std::optional<MannWhitney> test;          ///< samples rule only
  std::optional<RatioInterval> interval;    ///< samples rule only: new / old median, with its interval
  double old_clock_mhz = 0, new_clock_mhz = 0;  ///< median SM clocks in `mode`; 0 when not recorded
  std::optional<double> change_at_equal_clocks;  ///< when the new run clocked lower: the change scaled by the clock ratio
};

struct RunComparison {
  std::vector<RowComparison> rows;         ///< in the new run's order
  std::vector<const CaseResult*> only_old;  ///< rows of the old run missing from the new one
  std::vector<const CaseResult*> only_new;  ///< rows of the new run missing from the old one
  std::vector<std::string> not_compared;   ///< rows in both that could not be compared, and why
  std::string device_note;                 ///< empty, or what differs between the devices
};

/// Matches the rows of `old_run` and `new_run` whose role is in `roles` (empty: every role) and
/// judges each with `tolerance` (a fraction). The result points into both runs: keep them alive.
RunComparison compare_runs(const RunResults& old_run, const RunResults& new_run, double tolerance,
                           const std::vector<VariantRole>& roles = {}, const JudgeOptions& judging = {});

/// The practical threshold of a row: `tolerance`, or the per-launch floor of `judging` over the
/// old median when that is larger (launches: the larger of the declared and the traced count).
double row_tolerance(const CaseResult& row, double old_ms, double tolerance, const JudgeOptions& judging);

/// Judges one matched pair of timings (exposed for tests): fills verdict, rule, test, interval
/// and the clock fields of `c`, whose old_ms, new_ms and noise are set.
void judge_timings(RowComparison& c, const ModeTiming& before, const ModeTiming& now, double tolerance,
                   const JudgeOptions& judging);

/// Geometric mean of new/old time over the compared own rows; 0 when there are none.
double geometric_mean_ratio(const RunComparison& comparison, std::size_t& own_rows);

}  // namespace kbench
