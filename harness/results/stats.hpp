#pragma once
/// Robust summary statistics of timing samples. Host-only.

#include <cstddef>
#include <vector>

namespace kbench {

struct SampleStats {
  std::size_t count = 0;
  double median = 0;  ///< the headline figure
  double min = 0;
  double max = 0;
  double mean = 0;
  double stddev = 0;  ///< sample standard deviation (n - 1)
  double q1 = 0;      ///< 25th percentile
  double q3 = 0;      ///< 75th percentile

  /// (q3 - q1) / median: kbench's noise figure, robust to a few outliers.
  double relative_iqr() const { return median > 0 ? (q3 - q1) / median : 0; }
};

/// Quantile `q` in [0, 1] of sorted values, interpolating linearly between order statistics.
double quantile_sorted(const std::vector<double>& sorted, double q);

/// Summarises `samples` (any order). All zeros when `samples` is empty.
SampleStats summarize(std::vector<double> samples);

}  // namespace kbench
