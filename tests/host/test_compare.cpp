#include "harness/report/compare_report.hpp"
#include "harness/results/result_queries.hpp"
#include "harness/results/results_json.hpp"
#include "support/catch.hpp"
#include "support/test_paths.hpp"

#include <sstream>

using namespace kbench;

namespace {
RunResults fixture(const std::string& name) { return read_results_file(test::fixture_path(name)); }
}  // namespace

TEST_CASE("verdicts: within tolerance SAME, within noise UNCERTAIN, else FASTER or SLOWER", "[compare]") {
  CHECK(judge(0.01, 0.0, 0.02) == Verdict::same);
  CHECK(judge(-0.02, 0.5, 0.02) == Verdict::same);
  CHECK(judge(0.10, 0.15, 0.02) == Verdict::uncertain);
  CHECK(judge(-0.10, 0.15, 0.02) == Verdict::uncertain);
  CHECK(judge(0.10, 0.04, 0.02) == Verdict::slower);
  CHECK(judge(-0.10, 0.04, 0.02) == Verdict::faster);
  CHECK(verdict_name(Verdict::uncertain) == "UNCERTAIN");
}

TEST_CASE("compare matches rows by op, variant, shape and dtype", "[compare]") {
  const RunResults old_run = fixture("run-pass.json");
  const RunComparison same = compare_runs(old_run, old_run, 0.02);
  CHECK(same.rows.size() == old_run.cases.size());
  CHECK(same.only_old.empty());
  CHECK(same.device_note.empty());
  std::size_t own = 0;
  CHECK(geometric_mean_ratio(same, own) == Approx(1.0));
  CHECK(own == 12);

  const RunResults missing_run = fixture("run-missing.json");
  const RunComparison missing = compare_runs(old_run, missing_run, 0.02);
  CHECK(missing.only_old.size() == 4);
  REQUIRE(missing.only_new.size() == 1);
  CHECK(row_label(*missing.only_new[0]) == "add vectorized bf16 256x256");

  const RunResults improved_run = fixture("run-improved.json");
  const RunComparison improved = compare_runs(old_run, improved_run, 0.02, {VariantRole::own});
  CHECK(improved.rows.size() == 12);
  std::size_t faster = 0;
  for (const RowComparison& c : improved.rows) faster += c.verdict == Verdict::faster;
  CHECK(faster == 1);
  CHECK(geometric_mean_ratio(improved, own) < 1.0);
}

TEST_CASE("the compare table shows medians, change, noise and verdict", "[compare]") {
  const RunResults old_run = fixture("run-pass.json"), new_run = fixture("run-slower-noisy.json");
  const RunComparison comparison = compare_runs(old_run, new_run, 0.02);
  std::ostringstream out;
  print_comparison(out, comparison, 0.02);
  const std::string text = out.str();
  CHECK(contains(text, "| Case"));
  CHECK(contains(text, "| add vectorized fp32 4096x4096 "));
  CHECK(contains(text, "| 119.84 µs | 143.80 µs | +20.0% | 2.0%      | 25.0%     | UNCERTAIN |"));
  CHECK(contains(text, "24 rows compared: 23 SAME, 0 FASTER, 0 SLOWER, 1 UNCERTAIN"));
  CHECK(contains(text, "geometric mean of new/old time over 12 kbench rows: 1.015 (1.5% slower)"));

  const RunResults other_run = fixture("run-other-device.json");
  const RunComparison devices = compare_runs(old_run, other_run, 0.02);
  std::ostringstream noted;
  print_comparison(noted, devices, 0.02);
  CHECK(contains(noted.str(), "note: devices differ"));
}

TEST_CASE("rows not timed on either side are listed, not compared", "[compare]") {
  const RunResults old_run = fixture("run-pass.json"), new_run = fixture("run-fail.json");
  const RunComparison comparison = compare_runs(old_run, new_run, 0.02);
  std::string lines;
  for (const std::string& line : comparison.not_compared) lines += line + "\n";
  CHECK(contains(lines, "add naive fp16 256x256: passed in the old run, incorrect in the new run"));
  CHECK(contains(lines, "add naive fp32 16x1024x1024: passed in the old run, skipped in the new run"));
}
