// The gate's samples rule, clock rule, rolling baseline and --repeat pooling on synthetic samples
// with known answers (harness/judge/run_comparison, history_baseline; harness/results/pooled_rows).
#include "harness/judge/history_baseline.hpp"
#include "harness/judge/run_comparison.hpp"
#include "harness/results/pooled_rows.hpp"
#include "harness/results/results_json.hpp"
#include "harness/results/stats.hpp"
#include "support/catch.hpp"
#include "support/test_paths.hpp"

#include <cmath>
#include <random>
#include <string>
#include <vector>

using namespace kbench;

namespace {

constexpr double kPi = 3.14159265358979323846;

/// Log-normal timing samples around `median_ms` with spread `sigma` (Box-Muller on mt19937_64).
std::vector<double> timing_samples(std::mt19937_64& random, std::size_t n, double median_ms, double sigma) {
  const auto uniform = [&] { return (static_cast<double>(random() >> 11) + 0.5) / 9007199254740992.0; };
  std::vector<double> out;
  while (out.size() < n) {
    const double r = std::sqrt(-2 * std::log(uniform()));
    out.push_back(median_ms * std::exp(sigma * r * std::cos(2 * kPi * uniform())));
  }
  return out;
}

ModeTiming timing_of(std::vector<double> samples, double clock_mhz = 1980) {
  ModeTiming t;
  t.stats = summarize(samples);
  t.samples_ms = std::move(samples);
  t.sm_clock_mhz = clock_mhz;
  t.min_sm_clock_mhz = clock_mhz - 20;
  return t;
}

/// Judges `now` against `before` as the gate does at its defaults (tolerance 2 %).
RowComparison judged(const ModeTiming& before, const ModeTiming& now, double tolerance = 0.02) {
  RowComparison c;
  c.old_ms = before.stats.median;
  c.new_ms = now.stats.median;
  c.change = c.new_ms / c.old_ms - 1;
  c.old_noise = before.stats.relative_iqr();
  c.new_noise = now.stats.relative_iqr();
  judge_timings(c, before, now, tolerance, JudgeOptions{});
  return c;
}

RunResults fixture(const std::string& name) { return read_results_file(test::fixture_path(name)); }

/// The message `f` throws, or "no error".
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("same build, same distribution: the gate's rule flags no row in 1000 seeded draws", "[gate_statistics]") {
  // 1 % log-normal noise, 200 samples a side (a 65 us row sampled for 13 ms): the false-positive
  // rate of the rule (p < 0.01 and more than 2 % slower) is far below 1/1000.
  std::mt19937_64 random(2026);
  int flagged = 0, significant = 0;
  for (int i = 0; i < 1000; ++i) {
    const ModeTiming before = timing_of(timing_samples(random, 200, 0.065, 0.01));
    const ModeTiming now = timing_of(timing_samples(random, 200, 0.065, 0.01));
    const RowComparison c = judged(before, now);
    CHECK(c.rule == JudgeRule::samples);
    flagged += c.verdict == Verdict::slower;
    significant += c.test->p < 0.01;
  }
  CHECK(flagged == 0);
  CHECK(significant <= 25);  // the test alone: about 1 % (10 of 1000); the tolerance removes the rest
}

TEST_CASE("a 3% slowdown at 1% noise is flagged in every one of 200 seeded draws; 1% never is", "[gate_statistics]") {
  std::mt19937_64 random(3);
  int flagged_3 = 0, flagged_1 = 0;
  for (int i = 0; i < 200; ++i) {
    const ModeTiming before = timing_of(timing_samples(random, 200, 0.065, 0.01));
    flagged_3 += judged(before, timing_of(timing_samples(random, 200, 0.065 * 1.03, 0.01))).verdict == Verdict::slower;
    flagged_1 += judged(before, timing_of(timing_samples(random, 200, 0.065 * 1.01, 0.01))).verdict == Verdict::slower;
  }
  CHECK(flagged_3 == 200);
  CHECK(flagged_1 == 0);  // below the 2 % tolerance: significant, but SAME
}

TEST_CASE("a slowdown beyond the tolerance that the test cannot tell from noise is UNCERTAIN", "[gate_statistics]") {
  // 5 % slower medians from 8 samples at 20 % noise: p is far from 0.01.
  std::mt19937_64 random(5);
  const ModeTiming before = timing_of(timing_samples(random, 8, 0.1, 0.2));
  std::vector<double> after = before.samples_ms;
  for (double& v : after) v *= 1.05;
  const RowComparison c = judged(before, timing_of(after));
  CHECK(c.rule == JudgeRule::samples);
  CHECK(c.change == Approx(0.05));
  CHECK(c.test->p > 0.01);
  CHECK(c.verdict == Verdict::uncertain);
  CHECK(c.interval->low < 1.05);
  CHECK(c.interval->high > 1.05);
}

TEST_CASE("without samples on both sides the noise rule judges, as before", "[gate_statistics]") {
  std::mt19937_64 random(8);
  const ModeTiming before = timing_of(timing_samples(random, 100, 0.1, 0.01));
  ModeTiming now = timing_of(timing_samples(random, 100, 0.11, 0.01));
  now.samples_ms.clear();  // kept no samples (--keep-samples 0)
  const RowComparison c = judged(before, now);
  CHECK(c.rule == JudgeRule::noise);
  CHECK_FALSE(c.test.has_value());
  CHECK(c.verdict == Verdict::slower);
  ModeTiming few = timing_of({0.11, 0.11, 0.11});  // fewer than kMinSamplesForTest
  CHECK(judged(before, few).rule == JudgeRule::noise);
}

TEST_CASE("a slowdown explained by lower SM clocks is LOWER_CLOCKS; one beyond them is still SLOWER", "[gate_statistics]") {
  std::mt19937_64 random(13);
  const ModeTiming before = timing_of(timing_samples(random, 100, 0.1, 0.005), 1980);
  // 5 % slower at 5 % lower clocks: at equal clocks, no change.
  const ModeTiming throttled = timing_of(timing_samples(random, 100, 0.105, 0.005), 1881);
  const RowComparison excused = judged(before, throttled);
  CHECK(excused.verdict == Verdict::lower_clocks);
  REQUIRE(excused.change_at_equal_clocks.has_value());
  CHECK(std::abs(*excused.change_at_equal_clocks) < 0.01);
  // 10 % slower at 5 % lower clocks: still about 4.5 % slower at equal clocks.
  const RowComparison blamed = judged(before, timing_of(timing_samples(random, 100, 0.110, 0.005), 1881));
  CHECK(blamed.verdict == Verdict::slower);
  CHECK(*blamed.change_at_equal_clocks > 0.04);
  // Clocks within 2 % count as equal: no rescaling.
  const RowComparison equal = judged(before, timing_of(timing_samples(random, 100, 0.105, 0.005), 1960));
  CHECK(equal.verdict == Verdict::slower);
  CHECK_FALSE(equal.change_at_equal_clocks.has_value());
  // A run without clocks (0) is judged as it is.
  CHECK(judged(timing_of(before.samples_ms, 0), throttled).verdict == Verdict::slower);
  CHECK(verdict_name(Verdict::lower_clocks) == "LOWER_CLOCKS");
}

TEST_CASE("a rolling baseline pools the last K runs of the same device and plan", "[gate_statistics]") {
  const RunResults run = fixture("samples/run-slower-3pct.json");
  std::vector<HistoryFile> files;
  for (const char* name : {"history/run-3.json", "history/other-device.json", "history/run-1.json", "history/other-plan.json",
                           "history/run-2.json"}) {
    files.push_back({name, fixture(name)});
  }
  const HistoryBaseline all = history_baseline(run, files, 5, "history");
  CHECK(all.used == std::vector<std::string>{"history/run-1.json", "history/run-2.json", "history/run-3.json"});  // oldest first
  REQUIRE(all.skipped.size() == 2);
  CHECK(contains(all.skipped[0], "other-device.json: another device"));
  CHECK(contains(all.skipped[1], "other-plan.json: another plan"));
  const CaseResult& pooled = all.baseline.cases.front();
  REQUIRE(pooled.headline() != nullptr);
  CHECK(pooled.headline()->samples_ms.size() == 3 * 60);
  CHECK(pooled.headline()->processes == 3);
  CHECK(pooled.headline()->stats.count == 3 * 60);
  CHECK(all.trends.size() == 12);  // the own rows
  CHECK(contains(all.trends.front(), "(last 3 runs, oldest first) -> "));

  CHECK_FALSE(pooled.contended());
  // An older run that shared the GPU taints the pooled baseline's row, not only the newest's.
  std::vector<HistoryFile> shared = files;
  for (HistoryFile& file : shared) {
    if (file.path != "history/run-1.json") continue;
    ModeTiming& headline = const_cast<ModeTiming&>(*file.results.cases.front().headline());
    headline.telemetry = ModeTelemetry{};
    headline.telemetry->other_processes = {4242};
  }
  CHECK(history_baseline(run, shared, 5, "history").baseline.cases.front().contended());

  const HistoryBaseline last = history_baseline(run, files, 1, "history");
  CHECK(last.used == std::vector<std::string>{"history/run-3.json"});
  CHECK(last.baseline.cases.front().headline()->samples_ms.size() == 60);

  // The run itself, kept in its own history, is not its own baseline.
  const std::vector<HistoryFile> itself{{"history/run-3.json", fixture("history/run-3.json")}};
  const std::string refused = error_of([&] { history_baseline(fixture("history/run-3.json"), itself, 5, "history"); });
  CHECK(contains(refused, "no results file in 'history' matches"));
  CHECK(contains(refused, "the run being gated"));
}

TEST_CASE("--repeat pools each row's samples over its processes", "[gate_statistics]") {
  CaseResult row;
  row.variant = "v";
  row.status = CaseStatus::passed;
  ModeTiming cold = timing_of({1, 2, 3}, 1980);
  ModeTiming hot = timing_of({0.5, 0.5}, 1980);
  hot.mode = MeasureMode::hot;
  cold.warnings = {"w"};
  row.timings = {cold, hot};
  CaseResult second = row;
  second.timings[0] = timing_of({4, 5, 6}, 1900);
  second.timings[0].warnings = {"w", "x"};
  CaseResult third = row;
  third.timings[0] = timing_of({7, 8, 9}, 1950);

  const std::vector<CaseResult> pooled = pool_repeated_rows({{row}, {second}, {third}}, 2);
  REQUIRE(pooled.size() == 1);
  const ModeTiming& c = pooled[0].timings[0];
  CHECK(c.processes == 3);
  CHECK(c.samples_ms == std::vector<double>{1, 2, 3, 4, 5, 6, 7, 8, 9});
  CHECK(c.stats.median == 5);
  CHECK(c.sm_clock_mhz == 1950);  // the median of the processes' medians
  CHECK(c.min_sm_clock_mhz == 1880);
  CHECK(c.warnings == std::vector<std::string>{"w", "x"});
  CHECK(pooled[0].timings[1].samples_ms.empty());  // --keep-samples 2: the headline (cold) mode's only
  CHECK(pooled[0].timings[1].stats.count == 6);
  CHECK(pool_repeated_rows({{row}, {second}}, 1)[0].timings[1].samples_ms.size() == 4);
  CHECK(pool_repeated_rows({{row}, {second}}, 0)[0].timings[0].samples_ms.empty());

  // A failure in any process stands, saying which.
  CaseResult failed = row;
  failed.status = CaseStatus::error;
  failed.message = "cudaErrorIllegalAddress";
  const CaseResult worst = pool_repeated_rows({{row}, {failed}, {third}}, 2)[0];
  CHECK(worst.status == CaseStatus::error);
  CHECK(worst.message == "process 2 of 3: cudaErrorIllegalAddress");

  // Another process on the GPU during any one process's sampling makes the pooled row contended
  // (the gate then does not judge it), not only during the first's.
  CHECK_FALSE(pooled[0].contended());
  CaseResult shared = second;
  shared.timings[0].telemetry = ModeTelemetry{};
  shared.timings[0].telemetry->samples = 4;
  shared.timings[0].telemetry->other_processes = {4242};
  CaseResult quiet = row;
  quiet.timings[0].telemetry = ModeTelemetry{};
  quiet.timings[0].telemetry->samples = 3;
  const CaseResult tainted = pool_repeated_rows({{quiet}, {shared}, {third}}, 2)[0];
  CHECK(tainted.contended());
  REQUIRE(tainted.timings[0].telemetry.has_value());
  CHECK(tainted.timings[0].telemetry->samples == 7);
  CHECK(tainted.timings[0].telemetry->other_processes == std::vector<std::int64_t>{4242});

  // A process that kept no samples cannot be pooled.
  CaseResult bare = row;
  bare.timings[0].samples_ms.clear();
  CHECK(contains(error_of([&] { pool_repeated_rows({{row}, {bare}}, 2); }), "kept no samples"));
}

TEST_CASE("samples are kept for the headline mode by default, and round-trip with their process count", "[gate_statistics]") {
  CHECK(MeasureSettings{}.keep_samples == 2);
  CHECK(keeps_samples(2, MeasureMode::cold, MeasureMode::cold));
  CHECK_FALSE(keeps_samples(2, MeasureMode::hot, MeasureMode::cold));
  CHECK(keeps_samples(1, MeasureMode::hot, MeasureMode::cold));
  CHECK_FALSE(keeps_samples(0, MeasureMode::cold, MeasureMode::cold));
  CHECK(planned_headline_mode({MeasureMode::hot, MeasureMode::eager}) == MeasureMode::hot);
  CHECK(planned_headline_mode({MeasureMode::cold, MeasureMode::hot}) == MeasureMode::cold);

  RunResults run = fixture("samples/run-a.json");
  run.cases.front().timings.front().processes = 3;
  run.cases.front().timings.front().samples_ms.front() = 0.0123456789;
  const RunResults back = results_from_json(nlohmann::json::parse(to_json(run).dump()));
  CHECK(back.cases.front().timings.front().processes == 3);
  CHECK(back.cases.front().timings.front().samples_ms.front() == 0.012346);  // rounded to the ns
  CHECK(back.cases[1].timings.front().processes == 1);  // absent: 1
}
