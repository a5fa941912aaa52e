// The `auto` variant: where a case has one, the status and the gate judge it instead of the best
// own row, and the report marks it beside the ★ best.
#include "harness/judge/gate.hpp"
#include "harness/report/markdown_report.hpp"
#include "harness/results/result_queries.hpp"
#include "harness/results/results_json.hpp"
#include "support/catch.hpp"
#include "support/test_paths.hpp"

#include <sstream>

using namespace kbench;

namespace {

/// run-pass.json with its `naive` rows renamed `auto`: every case's auto row is slower than its
/// best own row (`vectorized`).
RunResults with_auto_rows(const std::string& only_dtype = {}) {
  RunResults results = read_results_file(test::fixture_path("run-pass.json"));
  for (CaseResult& row : results.cases)
    if (row.variant == "naive" && (only_dtype.empty() || row.dtype == only_dtype)) row.variant = kAutoVariant;
  return results;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines) text += line + "\n";
  return text;
}

}  // namespace

TEST_CASE("auto: the headline row is the case's timed auto row, else its best own row", "[auto]") {
  const RunResults plain = read_results_file(test::fixture_path("run-pass.json"));
  CHECK_FALSE(has_auto_rows(plain));
  const std::vector<const CaseResult*> plain_rows = headline_rows(plain);
  CHECK(plain_rows == best_own_rows(plain));

  const RunResults fp32_auto = with_auto_rows("fp32");
  CHECK(has_auto_rows(fp32_auto));
  const std::vector<const CaseResult*> rows = headline_rows(fp32_auto);
  REQUIRE(rows.size() == 6);
  for (const CaseResult* row : rows) {
    INFO(row_label(*row));
    // fp32 cases have an auto row, which is slower than vectorized and still their headline;
    // fp16 cases have none and keep the best own row.
    CHECK(row->variant == (row->dtype == "fp32" ? "auto" : "vectorized"));
  }
}

TEST_CASE("auto: an auto row that was not timed leaves the case to its best own row", "[auto]") {
  RunResults results = with_auto_rows();
  for (CaseResult& row : results.cases)
    if (is_auto(row) && row.size_class == "large") row.status = CaseStatus::skipped;
  for (const CaseResult* row : headline_rows(results)) {
    INFO(row_label(*row));
    CHECK(row->variant == (row->size_class == "large" ? "vectorized" : "auto"));
  }
}

TEST_CASE("auto: a baseline or roof row called auto is not the auto variant", "[auto]") {
  RunResults results = read_results_file(test::fixture_path("run-pass.json"));
  for (CaseResult& row : results.cases)
    if (row.role == VariantRole::baseline) row.variant = kAutoVariant;
  CHECK_FALSE(has_auto_rows(results));
  for (const CaseResult* row : headline_rows(results)) CHECK(row->role == VariantRole::own);
}

TEST_CASE("auto: the gate holds the auto row to the thresholds, not the faster best own row", "[auto][gate]") {
  const Thresholds thresholds = load_thresholds(test::fixture_path("thresholds.json"));
  const RunResults plain = read_results_file(test::fixture_path("run-pass.json"));
  REQUIRE(evaluate_gate(plain, thresholds, nullptr, {}).passed());
  // naive add fp32 4096x4096 is below the fixture's 0.80x minimum speed ratio; as auto it is gated.
  const GateResult result = evaluate_gate(with_auto_rows(), thresholds, nullptr, {});
  CHECK(result.cases_checked == 6);
  CHECK_FALSE(result.passed());
  CHECK(contains(joined(result.violations), "add auto fp32 4096x4096 (large)"));
  CHECK_FALSE(contains(joined(result.violations), "add vectorized"));
}

TEST_CASE("auto: the report marks auto rows, keeps the best marked, and says what it summarises", "[auto][report]") {
  const Thresholds thresholds = load_thresholds(test::fixture_path("thresholds.json"));
  const RunResults results = with_auto_rows();
  const ReportInput input{&results, &thresholds, "run-pass.json", nullptr, {}};
  std::ostringstream out;
  write_markdown_report(out, input);
  const std::string md = out.str();
  CHECK(contains(md, "auto ◆"));
  CHECK(contains(md, "vectorized ★"));
  CHECK(contains(md, "over the `auto` variant (where its op has one, else the best kbench variant) of each of 6 cases"));
  CHECK(contains(md, "◆ `auto`, the variant a framework would ship (the one summarised and gated)"));

  const RunResults plain = read_results_file(test::fixture_path("run-pass.json"));
  const ReportInput plain_input{&plain, &thresholds, "run-pass.json", nullptr, {}};
  std::ostringstream plain_out;
  write_markdown_report(plain_out, plain_input);
  CHECK_FALSE(contains(plain_out.str(), "◆"));
}
