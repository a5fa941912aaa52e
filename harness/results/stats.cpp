#include "harness/results/stats.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace kbench {

double quantile_sorted(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return 0;
  const double position = q * static_cast<double>(sorted.size() - 1);
  const auto lower = static_cast<std::size_t>(std::floor(position));
  const std::size_t upper = std::min(lower + 1, sorted.size() - 1);
  const double fraction = position - static_cast<double>(lower);
  return sorted[lower] + fraction * (sorted[upper] - sorted[lower]);
}

SampleStats summarize(std::vector<double> samples) {
  SampleStats stats;
  if (samples.empty()) return stats;
  std::sort(samples.begin(), samples.end());
  stats.count = samples.size();
  stats.min = samples.front();
  stats.max = samples.back();
  stats.median = quantile_sorted(samples, 0.5);
  stats.q1 = quantile_sorted(samples, 0.25);
  stats.q3 = quantile_sorted(samples, 0.75);
  stats.mean = std::accumulate(samples.begin(), samples.end(), 0.0) / static_cast<double>(samples.size());
  if (samples.size() > 1) {
    double sum_sq = 0;
    for (double s : samples) sum_sq += (s - stats.mean) * (s - stats.mean);
    stats.stddev = std::sqrt(sum_sq / static_cast<double>(samples.size() - 1));
  }
  return stats;
}

}  // namespace kbench
