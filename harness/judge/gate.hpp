#pragma once
/// The CI gate (`kbench gate`): does a run meet its thresholds, and did it regress against a
/// stored baseline run? Reads results only. Host-only.
///
/// Thresholds: the headline row of each case (op x shape x dtype: its `auto` row where the op has
/// one, otherwise its best own row; result_queries.hpp) must reach the minimum efficiency of its op x size category, and the minimum speed ratio when one is set; every own
/// row must be correct (INCORRECT or ERROR fails). Baseline and roof rows are not gated.
/// Regression: an own row regresses when it is slower than in the baseline run by more than the
/// tolerance and significantly so: by the Mann-Whitney test when both rows kept samples, else by
/// more than the two runs' summed noise (relative IQR); a slowdown explained by lower SM clocks is
/// a note (harness/judge/run_comparison.hpp). Improvements never fail; rows missing from either
/// side are listed. A row whose telemetry saw another process on the
/// GPU (in either run) is called neither a regression nor an improvement: a note says why.

#include "harness/common/input_error.hpp"
#include "harness/judge/run_comparison.hpp"
#include "harness/results/results.hpp"
#include "harness/config/thresholds.hpp"

#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

namespace kbench {

/// Input the gate cannot judge (devices differ, nothing to check): exit code 2, not 1.
class GateInputError : public InputError {
 public:
  using InputError::InputError;
};

struct GateOptions {
  double max_regression = 0.02;        ///< tolerated slowdown against the baseline run, a fraction
  JudgeOptions judging;                ///< significance level, clock tolerance, bootstrap
  bool allow_device_mismatch = false;  ///< compare with a baseline run from another device
};

struct GateResult {
  std::vector<std::string> violations;  ///< one line each, with the numbers; any fails the gate
  std::vector<std::string> notes;       ///< listed but not failing: skipped rows, missing rows, improvements
  std::size_t cases_checked = 0;        ///< cases whose headline row met or missed its thresholds
  std::size_t rows_compared = 0;        ///< own rows compared with the baseline run
  std::size_t rows_by_samples = 0;      ///< of those, judged by the samples rule
  bool passed() const { return violations.empty(); }
};

/// Judges `results` against `thresholds` and, when `baseline` is given, against that earlier run.
/// Throws GateInputError when the devices differ (unless allowed) or when nothing could be checked.
GateResult evaluate_gate(const RunResults& results, const Thresholds& thresholds, const RunResults* baseline,
                         const GateOptions& options);

/// Prints one line per violation and note, then a verdict line.
void print_gate_result(std::ostream& out, const GateResult& result);

}  // namespace kbench
