// first_call_ms: the optional results key round-trips, old files without it still read, and the
// report lists the first calls that cost far more than the steady state.
#include "harness/report/csv_report.hpp"
#include "harness/report/first_call_report.hpp"
#include "harness/report/markdown_report.hpp"
#include "harness/results/result_queries.hpp"
#include "harness/results/results_json.hpp"
#include "support/catch.hpp"
#include "support/results_errors.hpp"
#include "support/test_paths.hpp"

#include <sstream>

using namespace kbench;
using nlohmann::json;

namespace {

RunResults pass_run() { return read_results_file(test::fixture_path("run-pass.json")); }

/// A timed row with headline median `median_ms` and first call `first_ms`.
CaseResult timed_row(double median_ms, std::optional<double> first_ms) {
  CaseResult row;
  row.op = "add";
  row.variant = "naive";
  row.dtype = "fp32";
  row.shape = {256, 256};
  row.status = CaseStatus::passed;
  ModeTiming cold;
  cold.mode = MeasureMode::cold;
  cold.stats.count = 20;
  cold.stats.median = median_ms;
  row.timings.push_back(cold);
  row.first_call_ms = first_ms;
  return row;
}

using test::parse_error;

std::string markdown(const RunResults& results, const Thresholds& thresholds) {
  std::ostringstream out;
  write_markdown_report(out, ReportInput{&results, &thresholds, "run.json", nullptr, ""});
  return out.str();
}

}  // namespace

TEST_CASE("first_call_ms is written when recorded, left out when not, and reads back", "[first_call][results_json]") {
  RunResults run = pass_run();
  REQUIRE(run.cases.size() >= 2);
  for (const CaseResult& row : run.cases) CHECK_FALSE(row.first_call_ms);  // a file from before the key
  run.cases[0].first_call_ms = 12.5;
  const json document = to_json(run);
  CHECK(document.at("cases").at(0).at("first_call_ms") == 12.5);
  CHECK_FALSE(document.at("cases").at(1).contains("first_call_ms"));
  const RunResults back = results_from_json(document);
  REQUIRE(back.cases[0].first_call_ms);
  CHECK(*back.cases[0].first_call_ms == 12.5);
  CHECK_FALSE(back.cases[1].first_call_ms);
  CHECK(to_json(back) == document);
}

TEST_CASE("a negative or mistyped first_call_ms is refused with its JSON path", "[first_call][results_json]") {
  json document = to_json(pass_run());
  document["cases"][1]["first_call_ms"] = -1.0;
  CHECK(contains(parse_error(document), "$.cases[1].first_call_ms: found -1"));
  document["cases"][1]["first_call_ms"] = "fast";
  CHECK(contains(parse_error(document), "$.cases[1].first_call_ms: found \"fast\""));
}

TEST_CASE("a first call is slow at 10x the median and 1 ms more, both needed", "[first_call][report]") {
  CHECK_FALSE(slow_first_call(timed_row(0.01, 0.5)));   // 50x, but only 0.49 ms more: a round trip
  CHECK_FALSE(slow_first_call(timed_row(1.0, 9.0)));    // 8 ms more, but 9x
  CHECK_FALSE(slow_first_call(timed_row(1.0, std::nullopt)));
  REQUIRE(slow_first_call(timed_row(1.0, 10.0)));       // both limits met exactly
  CHECK(*slow_first_call(timed_row(1.0, 10.0)) == Approx(10.0));
  REQUIRE(slow_first_call(timed_row(0.005, 40.0)));     // lazy loading or JIT on a 5 µs kernel
  CHECK(*slow_first_call(timed_row(0.005, 40.0)) == Approx(8000.0));
  CaseResult incorrect = timed_row(0.005, 40.0);
  incorrect.status = CaseStatus::incorrect;
  CHECK_FALSE(slow_first_call(incorrect));  // not timed: no steady state to compare with
}

TEST_CASE("the report lists slow first calls, says when there are none, and is silent without the key",
          "[first_call][report]") {
  const Thresholds thresholds = load_thresholds(test::fixture_path("thresholds.json"));
  RunResults run = pass_run();
  CHECK(markdown(run, thresholds).find("## First calls") == std::string::npos);  // old files: no section

  for (CaseResult& row : run.cases) row.first_call_ms = 2 * headline_ms(row);
  std::string report = markdown(run, thresholds);
  REQUIRE(report.find("## First calls") != std::string::npos);
  CHECK(report.find("## First calls\n\nRows whose first call") != std::string::npos);
  CHECK(report.find("\nNone.\n") != std::string::npos);

  run.cases[1].first_call_ms = 25.0;  // add vectorized fp32 256x256, median 6.34 µs
  report = markdown(run, thresholds);
  const std::size_t section = report.find("## First calls");
  REQUIRE(section != std::string::npos);
  const std::string rest = report.substr(section, report.find("\n## ", section + 1) - section);
  CHECK(rest.find("add vectorized fp32 256x256") != std::string::npos);
  CHECK(rest.find("25.000 ms") != std::string::npos);
  CHECK(rest.find("add naive fp32 256x256") == std::string::npos);
  CHECK(rest.find("None.") == std::string::npos);
}

TEST_CASE("the CSV has every row's first_call_ms, empty where none was recorded", "[first_call][csv]") {
  const Thresholds thresholds = load_thresholds(test::fixture_path("thresholds.json"));
  RunResults run = pass_run();
  run.cases[0].first_call_ms = 0.25;
  std::ostringstream out;
  write_csv_report(out, ReportInput{&run, &thresholds, "run.json", nullptr, ""});
  std::istringstream lines(out.str());
  std::string header, first, second;
  std::getline(lines, header);
  std::getline(lines, first);
  std::getline(lines, second);
  CHECK(header.size() > 14);
  CHECK(header.substr(header.size() - 14) == ",first_call_ms");
  CHECK(first.substr(first.size() - 5) == ",0.25");
  CHECK(second.back() == ',');  // the last field is empty
}
