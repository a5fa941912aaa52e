#pragma once
/// Two runs side by side: rows matched by op, variant, shape and dtype; the change of each
/// matched row's median; and a verdict that takes both runs' noise into account. Used by
/// `kbench compare` and by the gate's regression check. Host-only.

#include "harness/results/results.hpp"

#include <string>
#include <vector>

namespace kbench {

enum class Verdict {
  same,       ///< the change is within the tolerance
  faster,     ///< faster by more than the tolerance and more than the noise
  slower,     ///< slower by more than the tolerance and more than the noise
  uncertain,  ///< beyond the tolerance but within the two runs' noise
};

std::string_view verdict_name(Verdict verdict);  ///< "SAME", "FASTER", "SLOWER", "UNCERTAIN"

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
  double old_noise = 0, new_noise = 0;  ///< relative IQRs in `mode`
  Verdict verdict = Verdict::same;
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
                           const std::vector<VariantRole>& roles = {});

/// Geometric mean of new/old time over the compared own rows; 0 when there are none.
double geometric_mean_ratio(const RunComparison& comparison, std::size_t& own_rows);

}  // namespace kbench
