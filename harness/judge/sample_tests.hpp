#pragma once
/// Two-sample statistics on timing samples, for judging whether a row got slower: the
/// Mann-Whitney U test and a bootstrap confidence interval of the ratio of medians. Host-only and
/// deterministic: the same samples and seed give the same answer on every machine.

#include <cstdint>
#include <vector>

namespace kbench {

/// The Mann-Whitney U test of `before` against `after`.
struct MannWhitney {
  double u = 0;   ///< U of `after`: pairs (b, a) with a > b, ties counted 1/2; n_before * n_after / 2 when nothing differs
  double z = 0;   ///< standardised U (tie- and continuity-corrected); positive: `after` tends to be larger
  double p = 1;   ///< two-sided p-value from the normal approximation
};

/// Tests whether `after` and `before` come from distributions of the same location. Normal
/// approximation of U with the tie correction of its variance and a continuity correction of 1/2;
/// it is accurate for the sample counts kbench takes (at least 20 per side by default), and errs
/// towards larger p for tiny ones. p is 1 when either side is empty or every value ties.
MannWhitney mann_whitney_u(const std::vector<double>& before, const std::vector<double>& after);

/// A bootstrap confidence interval of median(after) / median(before).
struct RatioInterval {
  double ratio = 0;  ///< the point estimate: median(after) / median(before)
  double low = 0;    ///< lower end of the interval
  double high = 0;   ///< upper end
};

struct BootstrapOptions {
  int resamples = 1000;        ///< resamples of each side
  double confidence = 0.95;    ///< two-sided coverage, percentile method
  std::uint64_t seed = 0x6b62656e6368ull;  ///< fixed: a gate gives the same answer twice
};

/// Percentile bootstrap of the ratio of medians: each resample draws both sides with replacement,
/// independently. Throws std::invalid_argument when a side is empty or its median is not > 0.
RatioInterval bootstrap_median_ratio(const std::vector<double>& before, const std::vector<double>& after,
                                     const BootstrapOptions& options = {});

/// The standard normal upper tail, P(Z > z).
double normal_upper_tail(double z);

}  // namespace kbench
