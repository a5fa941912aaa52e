#include "harness/results/metrics.hpp"
#include "support/catch.hpp"

using namespace kbench;

namespace {
CaseResult timed_row(const std::string& variant, VariantRole role, double median_ms) {
  CaseResult row;
  row.op = "add";
  row.variant = variant;
  row.role = role;
  row.dtype = "fp32";
  row.size_class = "large";
  row.shape = {4096, 4096};
  row.traffic = {2e8, 1e8, 1e6};  // 300 MB
  row.status = CaseStatus::passed;
  ModeTiming cold;
  cold.mode = MeasureMode::cold;
  cold.stats.median = median_ms;
  cold.stats.count = 10;
  row.timings.push_back(cold);
  return row;
}
}  // namespace

TEST_CASE("bandwidth, efficiency, speed ratio and roof fraction", "[metrics]") {
  RunResults results;
  results.device.peak_bandwidth_bytes_per_s = 3000e9;
  results.cases = {timed_row("vectorized", VariantRole::own, 0.125), timed_row("cub_transform", VariantRole::baseline, 0.15),
                   timed_row("d2d_copy", VariantRole::roof, 0.12), timed_row("naive", VariantRole::own, 0.5)};
  results.cases.push_back(timed_row("broken", VariantRole::own, 0));
  results.cases.back().status = CaseStatus::incorrect;
  derive_metrics(results, [](const CaseResult&) { return EfficiencyBand{0.5, 0.7}; });

  const CaseResult& fast = results.cases[0];
  CHECK(fast.bandwidth_gbps == Approx(2400));        // 300 MB / 0.125 ms
  CHECK(fast.efficiency == Approx(0.8));             // 2400 / 3000
  CHECK(fast.bound == Bound::memory);
  CHECK(fast.bandwidth_efficiency == Approx(0.8));
  CHECK(fast.tflops == Approx(1e6 / 0.125e-3 / 1e12));
  REQUIRE(fast.speed_ratio);
  CHECK(*fast.speed_ratio == Approx(1.2));           // baseline 0.15 / 0.125
  REQUIRE(fast.roof_fraction);
  CHECK(*fast.roof_fraction == Approx(0.96));        // 2400 / 2500
  CHECK(fast.band == Band::good);
  CHECK(*results.cases[1].speed_ratio == Approx(1.0));
  CHECK(results.cases[3].band == Band::critical);        // 600 GB/s = 20%
  CHECK_FALSE(results.cases[4].speed_ratio);         // not timed: nothing derived
  CHECK(!results.cases[4].band);
}

TEST_CASE("compute-bound cases are held against peak FLOP/s", "[metrics]") {
  RunResults results;
  results.device.peak_bandwidth_bytes_per_s = 3000e9;
  results.device.peak_fp16_tensor_flops = 1000e12;
  CaseResult gemm = timed_row("tensor_core", VariantRole::own, 1.0);  // 1 ms
  gemm.traffic = {2e6, 1e6, 5e11, "fp16_tensor"};          // floors: 1 µs of bytes, 0.5 ms of FLOPs
  results.cases = {gemm};
  derive_metrics(results, [](const CaseResult&) { return EfficiencyBand{0.1, 0.2}; });
  const CaseResult& row = results.cases[0];
  CHECK(row.bound == Bound::compute);
  CHECK(row.tflops == Approx(500));
  CHECK(row.compute_efficiency == Approx(0.5));
  CHECK(row.efficiency == Approx(0.5));
  CHECK(row.bandwidth_efficiency == Approx(1e-3));
}

TEST_CASE("rows of other shapes or dtypes never share a baseline", "[metrics]") {
  RunResults results;
  results.device.peak_bandwidth_bytes_per_s = 1000e9;
  results.cases = {timed_row("vectorized", VariantRole::own, 1), timed_row("cub_transform", VariantRole::baseline, 2)};
  results.cases[1].dtype = "fp16";
  derive_metrics(results, [](const CaseResult&) { return EfficiencyBand{0.1, 0.2}; });
  CHECK_FALSE(results.cases[0].speed_ratio);
}

TEST_CASE("bands: critical below the minimum, poor below the target, good at or above", "[metrics]") {
  const EfficiencyBand band{0.25, 0.40};
  CHECK(classify(0.10, band) == Band::critical);
  CHECK(classify(0.25, band) == Band::poor);
  CHECK(classify(0.399, band) == Band::poor);
  CHECK(classify(0.40, band) == Band::good);
}

TEST_CASE("launch overhead is eager minus hot; the headline is cold", "[metrics]") {
  RunResults results;
  results.device.peak_bandwidth_bytes_per_s = 3000e9;
  CaseResult row = timed_row("vectorized", VariantRole::own, 0.125);
  ModeTiming hot, eager;
  hot.mode = MeasureMode::hot;
  hot.stats.median = 0.1;
  hot.stats.count = 5;
  eager.mode = MeasureMode::eager;
  eager.stats.median = 0.11;
  eager.stats.count = 5;
  row.timings.insert(row.timings.begin(), hot);  // order does not pick the headline
  row.timings.push_back(eager);
  results.cases = {row};
  derive_metrics(results, [](const CaseResult&) { return EfficiencyBand{0.1, 0.2}; });
  CHECK(results.cases[0].headline_mode == MeasureMode::cold);
  CHECK(results.cases[0].bandwidth_gbps == Approx(2400));
  REQUIRE(results.cases[0].launch_overhead_ms);
  CHECK(*results.cases[0].launch_overhead_ms == Approx(0.01));
}
