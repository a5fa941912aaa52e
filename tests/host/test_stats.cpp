#include "harness/results/stats.hpp"
#include "support/catch.hpp"

using namespace kbench;

TEST_CASE("median, quartiles and spread of samples", "[stats]") {
  const SampleStats odd = summarize({5, 1, 3});
  CHECK(odd.count == 3);
  CHECK(odd.median == 3);
  CHECK(odd.min == 1);
  CHECK(odd.max == 5);
  CHECK(odd.mean == Approx(3));
  CHECK(odd.stddev == Approx(2));  // sample standard deviation

  const SampleStats even = summarize({4, 1, 3, 2});
  CHECK(even.median == Approx(2.5));
  CHECK(even.q1 == Approx(1.75));
  CHECK(even.q3 == Approx(3.25));
  CHECK(even.relative_iqr() == Approx(1.5 / 2.5));
}

TEST_CASE("an outlier moves the mean but not the median", "[stats]") {
  std::vector<double> samples(99, 1.0);
  samples.push_back(1000.0);
  const SampleStats stats = summarize(samples);
  CHECK(stats.median == 1.0);
  CHECK(stats.mean > 10.0);
  CHECK(stats.relative_iqr() == 0);
}

TEST_CASE("empty and single samples", "[stats]") {
  CHECK(summarize({}).count == 0);
  const SampleStats one = summarize({2.5});
  CHECK(one.median == 2.5);
  CHECK(one.stddev == 0);
  CHECK(quantile_sorted({1, 2, 3, 4, 5}, 0.0) == 1);
  CHECK(quantile_sorted({1, 2, 3, 4, 5}, 1.0) == 5);
}
