#include "harness/measure/stopping_rule.hpp"
#include "support/catch.hpp"

#include <cmath>

using namespace kbench;

namespace {
MeasureSettings rule_settings() {
  MeasureSettings s;
  s.min_samples = 10;
  s.max_samples = 1000;
  s.min_time_s = 0;
  s.max_noise = 0.02;
  s.timeout_s = 100;
  return s;
}

/// Feeds batches of `batch` samples from `next` until the rule stops; returns the sample count.
template <typename Next>
std::size_t feed(StoppingRule& rule, Next next, int batch = 8, double wall_per_batch = 0) {
  std::vector<double> samples;
  double wall = 0;
  do {
    for (int i = 0; i < batch; ++i) samples.push_back(next(samples.size()));
    wall += wall_per_batch;
  } while (!rule.should_stop(samples, 0.001 * samples.size(), wall));
  return samples.size();
}
}  // namespace

TEST_CASE("a quiet stream stops at min_samples on the noise target", "[stopping]") {
  StoppingRule rule(rule_settings());
  const std::size_t n = feed(rule, [](std::size_t) { return 1.0; });
  CHECK(n == 16);  // first batch end with >= 10 samples
  CHECK(rule.reason() == "noise_target");
  CHECK_FALSE(rule.timed_out());
}

TEST_CASE("a stream whose noise settles above the target stops once it has settled", "[stopping]") {
  StoppingRule rule(rule_settings());
  // Alternating 1.0 / 1.2: relative IQR stays near 0.18, far above 2%.
  const std::size_t n = feed(rule, [](std::size_t i) { return i % 2 ? 1.2 : 1.0; });
  CHECK(rule.reason() == "noise_settled");
  CHECK(n < 100);
}

TEST_CASE("a drifting stream keeps sampling until max_samples", "[stopping]") {
  MeasureSettings s = rule_settings();
  s.max_samples = 200;
  StoppingRule rule(s);
  // Noise grows without bound as the times ramp: the estimate never settles.
  const std::size_t n = feed(rule, [](std::size_t i) { return 1.0 + std::pow(1.05, static_cast<double>(i)); });
  CHECK(n == 200);
  CHECK(rule.reason() == "max_samples");
}

TEST_CASE("min_time holds sampling back; no noise target stops at min_time", "[stopping]") {
  MeasureSettings s = rule_settings();
  s.max_noise = 0;
  s.min_time_s = 0.05;  // feed() counts 1 ms of GPU time per sample
  StoppingRule rule(s);
  const std::size_t n = feed(rule, [](std::size_t) { return 1.0; });
  CHECK(n == 56);
  CHECK(rule.reason() == "min_time");
}

TEST_CASE("the timeout ends sampling and is flagged when min_samples was not reached", "[stopping]") {
  MeasureSettings s = rule_settings();
  s.min_samples = 100;
  s.timeout_s = 1;
  StoppingRule rule(s);
  const std::size_t n = feed(rule, [](std::size_t) { return 1.0; }, 8, 0.4);
  CHECK(n == 24);
  CHECK(rule.reason() == "timeout");
  CHECK(rule.timed_out());
}

TEST_CASE("noise that moves in timer-resolution steps still counts as settled", "[stopping]") {
  StoppingRule rule(rule_settings());
  // Samples of 4.0 or 4.5 µs in proportions that drift slightly: IQR / median hops between
  // about 0.11 and 0.12 from batch to batch.
  const std::size_t n = feed(rule, [](std::size_t i) { return (i % 5 == 0 || i % 7 == 0) ? 4.5 : 4.0; });
  CHECK(rule.reason() == "noise_settled");
  CHECK(n < 200);
}
