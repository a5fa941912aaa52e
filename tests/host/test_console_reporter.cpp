#include "harness/report/console_reporter.hpp"
#include "support/catch.hpp"

#include <sstream>

using namespace kbench;

TEST_CASE("durations print in µs below a millisecond", "[console]") {
  CHECK(format_duration_ms(0.0123) == "12.30 µs");
  CHECK(format_duration_ms(2.5) == "2.500 ms");
  CHECK(format_duration_ms(0) == "-");
}

TEST_CASE("display width counts emoji as two columns", "[console]") {
  CHECK(display_width("abc") == 3);
  CHECK(display_width("µs") == 2);
  CHECK(display_width("✅ Good") == 7);
  CHECK(display_width("❌ Critical") == 11);
  CHECK(display_width("🔴 Poor") == 7);
}

TEST_CASE("the table keeps rows that were not timed and explains them", "[console]") {
  RunResults results;
  results.device.peak_bandwidth_bytes_per_s = 3000e9;
  CaseResult ok;
  ok.op = "add";
  ok.variant = "vectorized";
  ok.role = VariantRole::own;
  ok.dtype = "fp32";
  ok.shape = {256, 256};
  ok.elements = 65536;
  ok.status = CaseStatus::passed;
  ModeTiming cold;
  cold.mode = MeasureMode::cold;
  cold.stats = summarize({0.004});
  ModeTiming hot = cold;
  hot.mode = MeasureMode::hot;
  hot.stats = summarize({0.0012});
  hot.l2_resident = true;
  hot.warnings = {"3 of 30 samples ran with the SM clock below 75%"};
  ok.timings = {cold, hot};
  ok.bandwidth_gbps = 196.6;
  ok.efficiency = 0.065;
  ok.band = Band::critical;
  CaseResult bad = ok;
  bad.variant = "naive";
  bad.status = CaseStatus::incorrect;
  bad.message = "3 of 65536 elements outside tolerance";
  bad.band.reset();
  results.cases = {ok, bad};

  std::ostringstream out;
  print_results_table(out, results);
  const std::string text = out.str();
  CHECK(contains(text, "| Shape"));
  CHECK(contains(text, "4.00 µs"));
  CHECK(contains(text, "6.5%"));
  CHECK(contains(text, "❌ Critical"));
  CHECK(contains(text, "1.20 µs (L2)"));
  CHECK(contains(text, "add vectorized fp32 256x256: hot mode: 3 of 30 samples ran with the SM clock below 75%"));
  CHECK(contains(text, "INCORRECT"));
  CHECK(contains(text, "add naive fp32 256x256: incorrect: 3 of 65536 elements outside tolerance"));
}
