#include "harness/device/cuda_check.hpp"
#include "harness/device/device_info.hpp"

#include <cuda_runtime_api.h>

namespace kbench {

namespace {
int attribute(cudaDeviceAttr attr, int device) {
  int value = 0;
  KBENCH_CUDA_CALL(cudaDeviceGetAttribute(&value, attr, device));
  return value;
}
}  // namespace

DeviceInfo query_device_info(int index) {
  cudaDeviceProp prop{};
  KBENCH_CUDA_CALL(cudaGetDeviceProperties(&prop, index));

  DeviceInfo info;
  info.index = index;
  info.name = prop.name;
  char bus_id[32] = {};
  KBENCH_CUDA_CALL(cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, index));
  info.pci_bus_id = bus_id;
  info.cc_major = prop.major;
  info.cc_minor = prop.minor;
  info.sm_count = prop.multiProcessorCount;
  info.l2_bytes = prop.l2CacheSize;
  info.global_memory_bytes = static_cast<std::int64_t>(prop.totalGlobalMem);
  // CUDA 13 removed the clock fields from cudaDeviceProp: read them as attributes.
  info.sm_clock_khz = attribute(cudaDevAttrClockRate, index);
  info.memory_clock_khz = attribute(cudaDevAttrMemoryClockRate, index);
  info.bus_width_bits = attribute(cudaDevAttrGlobalMemoryBusWidth, index);
  info.ecc_enabled = attribute(cudaDevAttrEccEnabled, index) != 0;
  KBENCH_CUDA_CALL(cudaDriverGetVersion(&info.driver_version));
  KBENCH_CUDA_CALL(cudaRuntimeGetVersion(&info.runtime_version));
  derive_peaks(info);
  return info;
}

std::string device_architecture(int index) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || index < 0 || index >= count) {
    cudaGetLastError();  // clear the error, which would otherwise surface at the next call
    return "";
  }
  int major = 0, minor = 0;
  if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, index) != cudaSuccess ||
      cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, index) != cudaSuccess) {
    cudaGetLastError();
    return "";
  }
  return std::to_string(major * 10 + minor);
}

}  // namespace kbench
