#pragma once
/// What kbench knows about the GPU it measures, and the peak figures derived from it.
/// The struct and formulas are host-only; query_device_info() talks to the CUDA runtime.

#include <cstdint>
#include <string>

namespace kbench {

struct DeviceInfo {
  int index = 0;
  std::string name;
  std::string pci_bus_id;
  int cc_major = 0, cc_minor = 0;
  int sm_count = 0;
  std::int64_t l2_bytes = 0;
  std::int64_t global_memory_bytes = 0;
  int sm_clock_khz = 0;      ///< peak SM clock (cudaDevAttrClockRate)
  int memory_clock_khz = 0;  ///< peak memory clock (cudaDevAttrMemoryClockRate)
  int bus_width_bits = 0;
  bool ecc_enabled = false;
  int driver_version = 0;    ///< CUDA driver API version, e.g. 13000
  int runtime_version = 0;   ///< CUDA runtime version, e.g. 13000

  double peak_bandwidth_bytes_per_s = 0;  ///< theoretical DRAM bandwidth, or the user's override
  double peak_fp32_flops = 0;             ///< 0 when the architecture's FP32 rate is unknown
  double peak_tf32_tensor_flops = 0;      ///< dense TF32 tensor-core rate; 0 when unknown
  double peak_fp16_tensor_flops = 0;      ///< dense fp16/bf16 tensor-core rate (fp32 accumulate); 0 when unknown
  std::string peak_bandwidth_source;      ///< "device attributes" or "override"
  std::string peak_flops_source;          ///< "device attributes", "override" or "unknown"
};

/// 2 x memory clock x bus width / 8: DDR-style memory transfers on both clock edges.
/// H100 SXM: 2 x 2619 MHz x 5120 bit / 8 = 3352 GB/s.
double theoretical_bandwidth(int memory_clock_khz, int bus_width_bits);

/// FP32 lanes (FMA units) per SM for a compute capability, or 0 when kbench does not know it.
int fp32_lanes_per_sm(int cc_major, int cc_minor);

/// SM count x clock x FP32 lanes x 2 FLOP per FMA; 0 when the lane count is unknown.
double peak_fp32_flops(int sm_count, int sm_clock_khz, int cc_major, int cc_minor);

/// Dense tensor-core FLOP per clock per SM for "tf32_tensor" or "fp16_tensor", or 0 when kbench
/// does not know the architecture's rate.
int tensor_flops_per_clock_per_sm(int cc_major, int cc_minor, const std::string& math);

/// The peak FLOP/s for a Traffic::math unit ("fp32", "tf32_tensor", "fp16_tensor"); 0 if unknown.
double peak_flops_for(const DeviceInfo& info, const std::string& math);

/// The ridge point of `math` on this device: peak FLOP/s / peak bytes/s, in FLOP per byte; above
/// it an op is compute bound. 0 when either peak is unknown.
double ridge_point(const DeviceInfo& info, const std::string& math);

/// Fills the derived peaks from the attribute fields (overrides are applied separately).
void derive_peaks(DeviceInfo& info);

/// User overrides for the peaks (GB/s and TFLOP/s); a value <= 0 means "no override".
struct PeakOverrides {
  double bandwidth_gbps = 0;
  double fp32_tflops = 0;
};
void apply_peak_overrides(DeviceInfo& info, const PeakOverrides& overrides);

/// Reads the attributes of CUDA device `index` and derives its peaks. Throws CudaError.
DeviceInfo query_device_info(int index);

/// Device `index`'s compute capability as an architecture number ("90" for 9.0), or "" when
/// there is no such device (no GPU, no driver). Never throws.
std::string device_architecture(int index);

}  // namespace kbench
