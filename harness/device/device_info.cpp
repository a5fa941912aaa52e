#include "harness/device/device_info.hpp"

#include <string>

namespace kbench {

double theoretical_bandwidth(int memory_clock_khz, int bus_width_bits) {
  return 2.0 * static_cast<double>(memory_clock_khz) * 1e3 * static_cast<double>(bus_width_bits) / 8.0;
}

int fp32_lanes_per_sm(int cc_major, int cc_minor) {
  // From the CUDA C++ Programming Guide's arithmetic-throughput table (FP32 results per
  // clock per SM). Unknown architectures give 0 rather than a guess.
  switch (cc_major) {
    case 7: return 64;                     // Volta, Turing
    case 8: return cc_minor == 0 ? 64 : 128;  // A100: 64; GA10x, Orin, Ada: 128
    case 9: return 128;                    // Hopper
    case 10:
    case 11:
    case 12: return 128;                   // Blackwell
    default: return 0;
  }
}

double peak_fp32_flops(int sm_count, int sm_clock_khz, int cc_major, int cc_minor) {
  const int lanes = fp32_lanes_per_sm(cc_major, cc_minor);
  return 2.0 * lanes * static_cast<double>(sm_count) * static_cast<double>(sm_clock_khz) * 1e3;
}

int tensor_flops_per_clock_per_sm(int cc_major, int cc_minor, const std::string& math) {
  // Dense rates from the architecture whitepapers (A100: 312 TFLOP/s fp16 over 108 SMs at
  // 1410 MHz; H100 SXM: 989 TFLOP/s over 132 SMs at 1830 MHz). Other architectures: unknown.
  const bool fp16 = math == "fp16_tensor";
  const bool tf32 = math == "tf32_tensor";
  if (cc_major == 8 && cc_minor == 0) return fp16 ? 2048 : tf32 ? 1024 : 0;
  if (cc_major == 9 && cc_minor == 0) return fp16 ? 4096 : tf32 ? 2048 : 0;
  return 0;
}

double peak_flops_for(const DeviceInfo& info, const std::string& math) {
  if (math == "tf32_tensor") return info.peak_tf32_tensor_flops;
  if (math == "fp16_tensor") return info.peak_fp16_tensor_flops;
  return info.peak_fp32_flops;
}

double ridge_point(const DeviceInfo& info, const std::string& math) {
  const double flops = peak_flops_for(info, math);
  return flops > 0 && info.peak_bandwidth_bytes_per_s > 0 ? flops / info.peak_bandwidth_bytes_per_s : 0.0;
}

void derive_peaks(DeviceInfo& info) {
  info.peak_bandwidth_bytes_per_s = theoretical_bandwidth(info.memory_clock_khz, info.bus_width_bits);
  info.peak_bandwidth_source = "device attributes";
  info.peak_fp32_flops = peak_fp32_flops(info.sm_count, info.sm_clock_khz, info.cc_major, info.cc_minor);
  info.peak_flops_source = info.peak_fp32_flops > 0 ? "device attributes" : "unknown";
  const double clock_hz = static_cast<double>(info.sm_clock_khz) * 1e3;
  info.peak_tf32_tensor_flops =
      info.sm_count * clock_hz * tensor_flops_per_clock_per_sm(info.cc_major, info.cc_minor, "tf32_tensor");
  info.peak_fp16_tensor_flops =
      info.sm_count * clock_hz * tensor_flops_per_clock_per_sm(info.cc_major, info.cc_minor, "fp16_tensor");
}

void apply_peak_overrides(DeviceInfo& info, const PeakOverrides& overrides) {
  if (overrides.bandwidth_gbps > 0) {
    info.peak_bandwidth_bytes_per_s = overrides.bandwidth_gbps * 1e9;
    info.peak_bandwidth_source = "override";
  }
  if (overrides.fp32_tflops > 0) {
    info.peak_fp32_flops = overrides.fp32_tflops * 1e12;
    info.peak_flops_source = "override";
  }
}

}  // namespace kbench
