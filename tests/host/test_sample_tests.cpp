#include "harness/judge/sample_tests.hpp"
#include "support/catch.hpp"

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

using namespace kbench;

namespace {

constexpr double kPi = 3.14159265358979323846;

/// Timing-like samples: `median_ms` times a log-normal factor of spread `sigma`. Box-Muller on the
/// raw output of mt19937_64 (fully specified), so the draws are the same on every library.
std::vector<double> timing_samples(std::mt19937_64& random, std::size_t n, double median_ms, double sigma) {
  const auto uniform = [&] { return (static_cast<double>(random() >> 11) + 0.5) / 9007199254740992.0; };
  std::vector<double> out;
  while (out.size() < n) {
    const double r = std::sqrt(-2 * std::log(uniform()));
    const double angle = 2 * kPi * uniform();
    out.push_back(median_ms * std::exp(sigma * r * std::cos(angle)));
    if (out.size() < n) out.push_back(median_ms * std::exp(sigma * r * std::sin(angle)));
  }
  return out;
}

}  // namespace

TEST_CASE("Mann-Whitney U, z and p of small samples computed by hand", "[sample_tests]") {
  // Every `after` value beats every `before` value: U = 3 x 3 = 9, mean 4.5, variance 3*3*7/12 = 5.25,
  // z = (9 - 4.5 - 0.5) / sqrt(5.25) = 1.7457, two-sided p = 0.0809.
  const MannWhitney separated = mann_whitney_u({1, 2, 3}, {4, 5, 6});
  CHECK(separated.u == 9);
  CHECK(separated.z == Approx(1.745743).epsilon(1e-5));
  CHECK(separated.p == Approx(0.080856).epsilon(1e-4));

  // Ties: pairs with a > b count 1, equal ones 1/2: U = 13. Tie groups {2,2,2} and {3,3,3} take
  // 2 x (27 - 3) = 48 off the variance: 4*4/12 * (9 - 48 / 56) = 10.857; z = (13 - 8 - 0.5) / 3.295 = 1.3657.
  const MannWhitney tied = mann_whitney_u({1, 2, 2, 3}, {2, 3, 3, 4});
  CHECK(tied.u == 13);
  CHECK(tied.z == Approx(1.365698).epsilon(1e-5));
  CHECK(tied.p == Approx(0.172034).epsilon(1e-4));

  // Unequal sizes with a tie group: U = 25.5, p = 0.0660; swapping the sides mirrors z, keeps p.
  const MannWhitney uneven = mann_whitney_u({1, 2, 3, 4, 5}, {3, 4, 5, 6, 7, 8});
  CHECK(uneven.u == 25.5);
  CHECK(uneven.p == Approx(0.066015).epsilon(1e-4));
  const MannWhitney mirrored = mann_whitney_u({3, 4, 5, 6, 7, 8}, {1, 2, 3, 4, 5});
  CHECK(mirrored.z == Approx(-uneven.z));
  CHECK(mirrored.p == Approx(uneven.p));
}

TEST_CASE("Mann-Whitney U finds nothing in empty or all-tied samples", "[sample_tests]") {
  CHECK(mann_whitney_u({}, {1, 2}).p == 1);
  const MannWhitney tied = mann_whitney_u({5, 5, 5}, {5, 5});
  CHECK(tied.p == 1);
  CHECK(tied.u == 3);  // every pair ties: 6 pairs x 1/2
}

TEST_CASE("identical distributions: Mann-Whitney rejects at about its nominal rate", "[sample_tests]") {
  std::mt19937_64 random(21);
  int rejected = 0;
  const int draws = 400;
  for (int i = 0; i < draws; ++i) {
    const auto before = timing_samples(random, 60, 0.080, 0.01);
    const auto after = timing_samples(random, 60, 0.080, 0.01);
    if (mann_whitney_u(before, after).p < 0.05) ++rejected;
  }
  // Nominal 5 %: 20 of 400 expected; the binomial's 99.9 % range is about 6 to 38.
  CHECK(rejected >= 6);
  CHECK(rejected <= 38);
}

TEST_CASE("a 3% slowdown at 1% noise is significant, and its bootstrap interval excludes 1", "[sample_tests]") {
  std::mt19937_64 random(3);
  const auto before = timing_samples(random, 100, 0.050, 0.01);
  const auto after = timing_samples(random, 100, 0.050 * 1.03, 0.01);
  const MannWhitney test = mann_whitney_u(before, after);
  CHECK(test.z > 0);
  CHECK(test.p < 1e-6);
  const RatioInterval interval = bootstrap_median_ratio(before, after);
  CHECK(interval.low > 1.01);  // one draw: near 1.03, well clear of 1
  CHECK(interval.high < 1.05);
  CHECK(interval.low <= interval.ratio);
  CHECK(interval.ratio <= interval.high);
}

TEST_CASE("the bootstrap interval of the ratio of medians covers the true ratio at about its confidence", "[sample_tests]") {
  std::mt19937_64 random(7);
  int covered = 0;
  const int draws = 200;
  for (int i = 0; i < draws; ++i) {
    const auto before = timing_samples(random, 51, 1.0, 0.02);
    const auto after = timing_samples(random, 51, 1.02, 0.02);
    const RatioInterval interval = bootstrap_median_ratio(before, after, {500, 0.95, static_cast<std::uint64_t>(i)});
    if (interval.low <= 1.02 && 1.02 <= interval.high) ++covered;
  }
  // Nominal 95 %: the percentile bootstrap of a median runs a little under or over at n = 51.
  CHECK(covered >= 176);  // 88 %
  CHECK(covered <= 198);
}

TEST_CASE("the bootstrap is deterministic for a seed and refuses unusable samples", "[sample_tests]") {
  std::mt19937_64 random(11);
  const auto before = timing_samples(random, 40, 0.2, 0.05);
  const auto after = timing_samples(random, 40, 0.2, 0.05);
  const RatioInterval a = bootstrap_median_ratio(before, after);
  const RatioInterval b = bootstrap_median_ratio(before, after);
  CHECK(a.low == b.low);
  CHECK(a.high == b.high);
  CHECK(bootstrap_median_ratio({1, 2, 3}, {2, 4, 6}).ratio == 2);
  CHECK_THROWS_AS(bootstrap_median_ratio({}, {1.0}), std::invalid_argument);
  CHECK_THROWS_AS(bootstrap_median_ratio({0, 0, 0}, {1.0}), std::invalid_argument);
}
