// Golden tests: the Markdown report and the CSV generated from the fixture results files must
// match tests/fixtures/golden/ byte for byte. After an intended change of the output, regenerate
// the golden files with KBENCH_UPDATE_GOLDEN=1 (tests/fixtures/README.md) and review the diff.
#include "harness/report/csv_report.hpp"
#include "harness/report/markdown_report.hpp"
#include "harness/results/results_json.hpp"
#include "support/catch.hpp"
#include "support/test_paths.hpp"

#include <cstdlib>
#include <fstream>
#include <sstream>

using namespace kbench;

namespace {

/// Compares `actual` with the golden file, or rewrites it when KBENCH_UPDATE_GOLDEN is set.
void check_golden(const std::string& actual, const std::string& name) {
  const std::string path = test::fixture_path("golden/" + name);
  if (std::getenv("KBENCH_UPDATE_GOLDEN")) {
    std::ofstream(path, std::ios::binary) << actual;
    WARN("rewrote " << path);
    return;
  }
  const std::string expected = test::read_file(path);
  REQUIRE_FALSE(expected.empty());
  if (actual == expected) {
    SUCCEED(name);
    return;
  }
  std::istringstream a(actual), e(expected);
  std::string line_a, line_e;
  int line = 0;
  while (true) {
    ++line;
    const bool more_a = static_cast<bool>(std::getline(a, line_a));
    const bool more_e = static_cast<bool>(std::getline(e, line_e));
    if (!more_a && !more_e) break;
    if (line_a != line_e || more_a != more_e) {
      INFO(name << " differs at line " << line << "\n  expected: " << line_e << "\n  actual:   " << line_a);
      CHECK(false);
      return;
    }
  }
  CHECK(actual == expected);  // same lines, different bytes (line endings)
}

struct Inputs {
  RunResults results = read_results_file(test::fixture_path("run-fail.json"));
  RunResults pass = read_results_file(test::fixture_path("run-pass.json"));
  RunResults torch = read_results_file(test::fixture_path("torch.json"));
  Thresholds thresholds = load_thresholds(test::fixture_path("thresholds.json"));
};

}  // namespace

TEST_CASE("golden: the Markdown report with a comparison run", "[report][golden]") {
  const Inputs in;
  const ReportInput input{&in.results, &in.thresholds, "run-fail.json", &in.torch, "torch"};
  std::ostringstream out;
  write_markdown_report(out, input);
  check_golden(out.str(), "report-fail-against-torch.md");
}

TEST_CASE("golden: the Markdown report of a passing run", "[report][golden]") {
  const Inputs in;
  const ReportInput input{&in.pass, &in.thresholds, "run-pass.json", nullptr, {}};
  std::ostringstream out;
  write_markdown_report(out, input);
  check_golden(out.str(), "report-pass.md");
}

TEST_CASE("golden: the CSV with a comparison run", "[report][golden]") {
  const Inputs in;
  const ReportInput input{&in.results, &in.thresholds, "run-fail.json", &in.torch, "torch"};
  std::ostringstream out;
  write_csv_report(out, input);
  check_golden(out.str(), "report-fail-against-torch.csv");
}

TEST_CASE("reports list every row that was not timed, and the CSV has one line per row", "[report]") {
  const Inputs in;
  const ReportInput input{&in.results, &in.thresholds, "run-fail.json", nullptr, {}};
  std::ostringstream md, csv;
  write_markdown_report(md, input);
  write_csv_report(csv, input);
  CHECK(contains(md.str(), "| add naive fp16 256x256      | Small    | own  | incorrect |"));
  CHECK(contains(md.str(), "| error     | CUDA error: an illegal memory access"));
  CHECK(contains(md.str(), "skipped by the config: naive, pipe \\| and \"quotes\", test"));  // '|' escaped in a cell
  CHECK(contains(md.str(), "Date                  | 2026-01-15T09:30:00Z"));           // from the file, not the clock
  std::size_t lines = 0;
  for (char c : csv.str()) lines += c == '\n';
  CHECK(lines == 1 + in.results.cases.size());
  CHECK(contains(csv.str(), "\"skipped by the config: naive, pipe | and \"\"quotes\"\", test\""));  // RFC 4180 quoting
}

TEST_CASE("CSV fields are quoted only when they must be", "[report]") {
  CHECK(csv_field("plain") == "plain");
  CHECK(csv_field("a,b") == "\"a,b\"");
  CHECK(csv_field("say \"hi\"") == "\"say \"\"hi\"\"\"");
  CHECK(csv_field("two\nlines") == "\"two\nlines\"");
}

TEST_CASE("the Markdown report links the plots it is given, roofline as an image", "[report]") {
  const Inputs in;
  ReportInput input{&in.pass, &in.thresholds, "run-pass.json", nullptr, {}};
  std::ostringstream without;
  write_markdown_report(without, input);
  CHECK(without.str().find("## Plots") == std::string::npos);
  input.plots = {"plots/roofline.png", "plots/efficiency_add.png"};
  std::ostringstream with;
  write_markdown_report(with, input);
  CHECK(with.str().find("## Plots") != std::string::npos);
  CHECK(with.str().find("![roofline](plots/roofline.png)") != std::string::npos);
  CHECK(with.str().find("- [efficiency_add](plots/efficiency_add.png)") != std::string::npos);
}
