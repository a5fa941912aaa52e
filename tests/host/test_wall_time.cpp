// wall_s: a row's host seconds by phase round-trip through the results file, old files without
// them still read, and the run's summary adds them up and names the longest rows.
#include "harness/report/wall_time_report.hpp"
#include "harness/results/results_json.hpp"
#include "support/catch.hpp"
#include "support/results_errors.hpp"
#include "support/test_paths.hpp"

#include <sstream>

using namespace kbench;
using nlohmann::json;

namespace {

RunResults pass_run() { return read_results_file(test::fixture_path("run-pass.json")); }

RowWallTime phases(double prepare, double verify, double timing, double breakdown) {
  RowWallTime wall;
  wall.prepare_s = prepare;
  wall.verify_s = verify;
  wall.timing_s = timing;
  wall.breakdown_s = breakdown;
  return wall;
}

using test::parse_error;

}  // namespace

TEST_CASE("wall_s and the modes' wall times are written when recorded and read back", "[wall_time][results_json]") {
  RunResults run = pass_run();
  REQUIRE(run.cases.size() >= 2);
  REQUIRE_FALSE(run.cases[0].timings.empty());
  for (const CaseResult& row : run.cases) CHECK_FALSE(row.wall);  // a file from before the key
  run.cases[0].wall = phases(1.5, 0.25, 2.0, 0.125);
  run.cases[0].timings[0].warmup_s = 0.011;
  run.cases[0].timings[0].wall_s = 0.5;
  const json document = to_json(run);
  CHECK(document.at("cases").at(0).at("wall_s").at("prepare") == 1.5);
  CHECK(document.at("cases").at(0).at("wall_s").at("breakdown") == 0.125);
  CHECK(document.at("cases").at(0).at("timings").at(0).at("warmup_s") == 0.011);
  CHECK_FALSE(document.at("cases").at(1).contains("wall_s"));
  CHECK_FALSE(document.at("cases").at(1).at("timings").at(0).contains("wall_s"));
  const RunResults back = results_from_json(document);
  REQUIRE(back.cases[0].wall);
  CHECK(back.cases[0].wall->total_s() == Approx(3.875));
  CHECK(back.cases[0].timings[0].wall_s == 0.5);
  CHECK_FALSE(back.cases[1].wall);
  CHECK(to_json(back) == document);
}

TEST_CASE("a negative or missing phase of wall_s is refused with its JSON path", "[wall_time][results_json]") {
  RunResults run = pass_run();
  run.cases[1].wall = phases(1, 1, 1, 1);
  json document = to_json(run);
  document["cases"][1]["wall_s"]["verify"] = -0.5;
  CHECK(parse_error(document).find("$.cases[1].wall_s.verify: found -0.5") != std::string::npos);
  document["cases"][1]["wall_s"].erase("verify");
  CHECK(parse_error(document).find("$.cases[1].wall_s") != std::string::npos);
}

TEST_CASE("the wall-time summary adds the phases and lists the longest rows first", "[wall_time][report]") {
  RunResults run = pass_run();
  REQUIRE(run.cases.size() >= 3);
  std::ostringstream silent;
  print_wall_time(silent, run);
  CHECK(silent.str().empty());  // nothing recorded: no line

  run.cases[0].wall = phases(2, 0.5, 1, 0.5);  // 4 s
  run.cases[1].wall = phases(0, 0.25, 9, 0.75);  // 10 s
  run.cases[2].wall = phases(0, 0.25, 0.5, 0.25);  // 1 s
  const RowWallTime total = total_wall_time(run);
  CHECK(total.prepare_s == Approx(2));
  CHECK(total.timing_s == Approx(10.5));
  CHECK(total.total_s() == Approx(15));

  const std::vector<std::string> longest = longest_rows(run, 2);
  REQUIRE(longest.size() == 2);
  CHECK(longest[0].find(run.cases[1].variant) != std::string::npos);
  CHECK(longest[0].find("10.0 s") != std::string::npos);
  CHECK(longest[1].find(run.cases[0].variant) != std::string::npos);

  std::ostringstream out;
  print_wall_time(out, run);
  CHECK(out.str().find("Wall time of the rows: 15.0 s: inputs and references 2.0 s") != std::string::npos);
  CHECK(out.str().find("timing 10.5 s") != std::string::npos);
  CHECK(out.str().find("Longest rows: ") != std::string::npos);
}
