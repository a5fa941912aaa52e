#include "harness/judge/sample_tests.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

namespace kbench {

double normal_upper_tail(double z) { return 0.5 * std::erfc(z / std::sqrt(2.0)); }

MannWhitney mann_whitney_u(const std::vector<double>& before, const std::vector<double>& after) {
  MannWhitney out;
  const double n1 = static_cast<double>(before.size());
  const double n2 = static_cast<double>(after.size());
  if (before.empty() || after.empty()) return out;
  // Rank the pooled samples (average ranks for ties), remembering which side each came from.
  std::vector<std::pair<double, bool>> pooled;  // (value, from `after`)
  pooled.reserve(before.size() + after.size());
  for (double v : before) pooled.emplace_back(v, false);
  for (double v : after) pooled.emplace_back(v, true);
  std::sort(pooled.begin(), pooled.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  const double n = n1 + n2;
  double rank_sum_after = 0;
  double tie_term = 0;  // sum over tie groups of t^3 - t
  for (std::size_t i = 0; i < pooled.size();) {
    std::size_t j = i;
    while (j < pooled.size() && pooled[j].first == pooled[i].first) ++j;
    const double t = static_cast<double>(j - i);
    const double average_rank = (static_cast<double>(i + 1) + static_cast<double>(j)) / 2;
    for (std::size_t k = i; k < j; ++k)
      if (pooled[k].second) rank_sum_after += average_rank;
    tie_term += t * t * t - t;
    i = j;
  }
  out.u = rank_sum_after - n2 * (n2 + 1) / 2;
  const double mean = n1 * n2 / 2;
  const double variance = n1 * n2 / 12 * ((n + 1) - tie_term / (n * (n - 1)));
  if (!(variance > 0)) return out;  // every value ties: no evidence either way
  const double distance = std::max(0.0, std::abs(out.u - mean) - 0.5);
  out.z = std::copysign(distance / std::sqrt(variance), out.u - mean);
  out.p = std::min(1.0, 2 * normal_upper_tail(std::abs(out.z)));
  return out;
}

namespace {

/// splitmix64: a small, fully specified generator (std::uniform_int_distribution is not the same
/// on every standard library, and a gate must answer alike everywhere).
class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  /// Uniform in [0, n) up to a bias of n / 2^64, far below anything a bootstrap can show.
  std::size_t below(std::size_t n) { return static_cast<std::size_t>(next() % n); }

 private:
  std::uint64_t state_;
};

double median_in_place(std::vector<double>& values) {
  const std::size_t half = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(half), values.end());
  const double upper = values[half];
  if (values.size() % 2 == 1) return upper;
  const double lower = *std::max_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(half));
  return (lower + upper) / 2;
}

double resampled_median(const std::vector<double>& sample, SplitMix64& random, std::vector<double>& scratch) {
  scratch.resize(sample.size());
  for (double& v : scratch) v = sample[random.below(sample.size())];
  return median_in_place(scratch);
}

}  // namespace

RatioInterval bootstrap_median_ratio(const std::vector<double>& before, const std::vector<double>& after,
                                     const BootstrapOptions& options) {
  if (before.empty() || after.empty()) throw std::invalid_argument("bootstrap of a ratio of medians needs samples on both sides");
  if (options.resamples < 1 || !(options.confidence > 0 && options.confidence < 1)) {
    throw std::invalid_argument("bootstrap: resamples must be >= 1 and confidence in (0, 1)");
  }
  std::vector<double> scratch = before;
  const double median_before = median_in_place(scratch);
  scratch = after;
  const double median_after = median_in_place(scratch);
  if (!(median_before > 0)) throw std::invalid_argument("bootstrap of a ratio of medians: the first median is not > 0");
  RatioInterval out;
  out.ratio = median_after / median_before;
  SplitMix64 random(options.seed);
  std::vector<double> ratios;
  ratios.reserve(static_cast<std::size_t>(options.resamples));
  for (int r = 0; r < options.resamples; ++r) {
    const double b = resampled_median(before, random, scratch);
    const double a = resampled_median(after, random, scratch);
    ratios.push_back(b > 0 ? a / b : INFINITY);
  }
  std::sort(ratios.begin(), ratios.end());
  const double tail = (1 - options.confidence) / 2;
  const auto at = [&](double q) {  // the order statistic at quantile q (nearest rank)
    const double position = q * static_cast<double>(ratios.size() - 1);
    return ratios[static_cast<std::size_t>(std::lround(position))];
  };
  out.low = at(tail);
  out.high = at(1 - tail);
  return out;
}

}  // namespace kbench
