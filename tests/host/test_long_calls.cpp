// Long calls must not stall a sweep (harness/measure/long_calls.hpp): warm-up by time, fewer
// minimum samples, batches sized by time, on numbers alone.
#include "harness/measure/long_calls.hpp"
#include "harness/measure/measure.hpp"
#include "harness/measure/stopping_rule.hpp"
#include "support/catch.hpp"

#include <vector>

using namespace kbench;

TEST_CASE("a call is long from kLongCallMs", "[long_calls]") {
  CHECK_FALSE(is_long_call(0));
  CHECK_FALSE(is_long_call(4.99));
  CHECK(is_long_call(kLongCallMs));
  CHECK(is_long_call(500));
}

TEST_CASE("warm-up of a short call needs both the count and the time; of a long call the time alone", "[long_calls]") {
  MeasureSettings s;  // 10 calls and 0.01 s
  CHECK_FALSE(warmup_done(0, 1.0, 0, s));        // never before one call
  CHECK_FALSE(warmup_done(9, 1.0, 0.1, s));      // short: the count is not met
  CHECK_FALSE(warmup_done(10, 0.001, 0.1, s));   // short: the time is not met
  CHECK(warmup_done(10, 0.01, 0.1, s));
  CHECK(warmup_done(1, 0.5, 500, s));            // a 0.5 s call: one call covers 0.01 s
  CHECK(warmup_done(1, 0.006, 6, s) == false);   // 6 ms: the 0.01 s goal is not yet met
  CHECK(warmup_done(2, 0.012, 6, s));            // ... after two calls it is, far short of ten
  s.warmup_time_s = 2;
  CHECK_FALSE(warmup_done(3, 1.5, 500, s));      // time still rules a long call's warm-up
  CHECK(warmup_done(5, 2.5, 500, s));
}

TEST_CASE("a long call needs at most kLongCallMinSamples samples; a short call keeps min_samples", "[long_calls]") {
  MeasureSettings s;  // 20 samples
  CHECK(sampling_settings(s, 0.1).min_samples == 20);
  CHECK(sampling_settings(s, 4.9).min_samples == 20);
  CHECK(sampling_settings(s, 5.0).min_samples == kLongCallMinSamples);
  s.min_samples = 3;
  CHECK(sampling_settings(s, 500).min_samples == 3);  // never raised
  // Everything else is left as given.
  s.min_samples = 20;
  const MeasureSettings long_call = sampling_settings(s, 500);
  CHECK(long_call.max_samples == s.max_samples);
  CHECK(long_call.min_time_s == s.min_time_s);
  CHECK(long_call.timeout_s == s.timeout_s);
  CHECK(long_call.max_noise == s.max_noise);
}

TEST_CASE("batches last about kBatchTargetSeconds: 32 short samples, one sample of a long call", "[long_calls]") {
  CHECK(batch_samples(0.01, 32, 2000) == 32);
  CHECK(batch_samples(0, 32, 2000) == 32);      // no estimate: the full batch
  CHECK(batch_samples(10, 32, 2000) == 25);     // 25 x 10 ms = 0.25 s
  CHECK(batch_samples(100, 32, 2000) == 2);
  CHECK(batch_samples(500, 32, 2000) == 1);     // never fewer than one
  CHECK(batch_samples(0.01, 32, 5) == 5);       // never more than remain
  CHECK(batch_samples(0.01, 32, 0) == 1);
}

TEST_CASE("a 0.5 s call stops after kLongCallMinSamples samples of settled noise", "[long_calls]") {
  // The stopping rule under the long-call settings: 5 samples of 0.5 s (2.5 s of GPU time, past
  // min_time_s) at a noise of 0 stop at once, well inside the 10 s timeout.
  const MeasureSettings s = sampling_settings(MeasureSettings{}, 500);
  StoppingRule rule(s);
  std::vector<double> samples;
  double measured_s = 0;
  while (true) {
    samples.push_back(500);
    measured_s += 0.5;
    if (rule.should_stop(samples, measured_s, measured_s)) break;
  }
  CHECK(samples.size() == kLongCallMinSamples);
  CHECK(rule.reason() == "noise_target");
  CHECK_FALSE(rule.timed_out());
}

TEST_CASE("hot mode replays one long call per graph, at least two short ones", "[long_calls]") {
  CHECK(hot_calls_per_graph(0.001) == 1000);
  CHECK(hot_calls_per_graph(0.3) == 4);
  CHECK(hot_calls_per_graph(1.0) == 2);
  CHECK(hot_calls_per_graph(4.0) == 2);
  CHECK(hot_calls_per_graph(5.0) == 1);
  CHECK(hot_calls_per_graph(500) == 1);
}

TEST_CASE("--help states the long-call rules with their numbers", "[long_calls]") {
  const std::string warmup = find_measure_setting("warmup_calls")->description;
  const std::string samples = find_measure_setting("min_samples")->description;
  const std::string long_call = std::to_string(static_cast<int>(kLongCallMs)) + " ms or more";
  CHECK(contains(warmup, long_call));
  CHECK(contains(samples, long_call));
  CHECK(contains(samples, "needs at most " + std::to_string(kLongCallMinSamples)));
  CHECK(contains(samples, "about 0.25 s"));
  CHECK(kBatchTargetSeconds == 0.25);
}
