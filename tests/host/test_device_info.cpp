#include "harness/device/device_info.hpp"
#include "harness/ops/traffic.hpp"
#include "support/catch.hpp"

using namespace kbench;

TEST_CASE("theoretical bandwidth is 2 x memory clock x bus width / 8", "[device]") {
  // H100 SXM: 2619 MHz HBM3 on a 5120-bit bus.
  CHECK(theoretical_bandwidth(2619000, 5120) == Approx(3352.32e9));
  // A 384-bit GDDR bus at 10501 MHz (as the attribute reports it).
  CHECK(theoretical_bandwidth(10501000, 384) == Approx(1008.096e9));
  CHECK(theoretical_bandwidth(0, 5120) == 0);
}

TEST_CASE("peak FP32 rate comes from SM count, clock and lanes per SM", "[device]") {
  // H100 SXM: 132 SMs x 1980 MHz x 128 lanes x 2 FLOP per FMA = 66.9 TFLOP/s.
  CHECK(peak_fp32_flops(132, 1980000, 9, 0) == Approx(66.90e12).epsilon(1e-3));
  // A100: 108 SMs x 1410 MHz x 64 x 2 = 19.5 TFLOP/s.
  CHECK(peak_fp32_flops(108, 1410000, 8, 0) == Approx(19.49e12).epsilon(1e-3));
  CHECK(fp32_lanes_per_sm(8, 6) == 128);
  CHECK(fp32_lanes_per_sm(3, 5) == 0);  // unknown: no guess
  CHECK(peak_fp32_flops(10, 1000000, 3, 5) == 0);
}

TEST_CASE("derived peaks, and overrides that replace them", "[device]") {
  DeviceInfo info;
  info.memory_clock_khz = 2619000;
  info.bus_width_bits = 5120;
  info.sm_count = 132;
  info.sm_clock_khz = 1980000;
  info.cc_major = 9;
  derive_peaks(info);
  CHECK(info.peak_bandwidth_bytes_per_s == Approx(3352.32e9));
  CHECK(info.peak_bandwidth_source == "device attributes");
  CHECK(info.peak_flops_source == "device attributes");

  apply_peak_overrides(info, {});  // no override: unchanged
  CHECK(info.peak_bandwidth_source == "device attributes");
  apply_peak_overrides(info, {2000, 50});
  CHECK(info.peak_bandwidth_bytes_per_s == Approx(2000e9));
  CHECK(info.peak_fp32_flops == Approx(50e12));
  CHECK(info.peak_bandwidth_source == "override");
  CHECK(info.peak_flops_source == "override");

  info.cc_major = 2;
  derive_peaks(info);
  CHECK(info.peak_flops_source == "unknown");
}

#include "harness/device/build_info.hpp"

TEST_CASE("builds unfit for timing say so", "[build]") {
  BuildInfo info;
  info.build_type = "Debug";
  info.optimized = false;
  CHECK(contains(unoptimized_build_warning(info), "without optimisation"));
  info.optimized = true;
  CHECK(unoptimized_build_warning(info).empty());
  info.device_debug = true;
  CHECK(contains(unoptimized_build_warning(info), "-G"));
  // This test binary itself is built the way the project builds by default.
  CHECK(build_info().version == "0.1.0");
}

TEST_CASE("tensor-core peaks come from the architecture's per-SM rate", "[device]") {
  DeviceInfo info;
  info.sm_count = 132;
  info.sm_clock_khz = 1830000;
  info.cc_major = 9;
  info.memory_clock_khz = 2619000;
  info.bus_width_bits = 5120;
  derive_peaks(info);
  CHECK(info.peak_fp16_tensor_flops == Approx(989.4e12).epsilon(1e-3));  // H100 SXM dense bf16
  CHECK(info.peak_tf32_tensor_flops == Approx(494.7e12).epsilon(1e-3));
  CHECK(peak_flops_for(info, "fp16_tensor") == info.peak_fp16_tensor_flops);
  CHECK(peak_flops_for(info, "fp32") == info.peak_fp32_flops);
  CHECK(tensor_flops_per_clock_per_sm(8, 9, "fp16_tensor") == 0);  // unknown: no guess
}

TEST_CASE("ridge points: peak FLOP/s over peak bytes/s per unit, 0 when a peak is unknown", "[device]") {
  DeviceInfo d;
  d.peak_bandwidth_bytes_per_s = 3352e9;
  d.peak_fp32_flops = 66.9e12;
  d.peak_fp16_tensor_flops = 1070e12;
  CHECK(ridge_point(d, "fp32") == Approx(19.96).epsilon(0.001));
  CHECK(ridge_point(d, "fp16_tensor") == Approx(319.2).epsilon(0.001));
  CHECK(ridge_point(d, "tf32_tensor") == 0);
  d.peak_bandwidth_bytes_per_s = 0;
  CHECK(ridge_point(d, "fp32") == 0);
  CHECK(arithmetic_intensity(Traffic{8, 4, 3}) == Approx(0.25));
  CHECK(arithmetic_intensity(Traffic{}) == 0);
}
