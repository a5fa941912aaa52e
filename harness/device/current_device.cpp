#include "harness/device/current_device.hpp"

#include "harness/device/cuda_check.hpp"

#include <cuda_runtime_api.h>

namespace kbench {

ComputeCapability current_compute_capability() {
  int device = 0;
  ComputeCapability cc;
  KBENCH_CUDA_CALL(cudaGetDevice(&device));
  KBENCH_CUDA_CALL(cudaDeviceGetAttribute(&cc.major, cudaDevAttrComputeCapabilityMajor, device));
  KBENCH_CUDA_CALL(cudaDeviceGetAttribute(&cc.minor, cudaDevAttrComputeCapabilityMinor, device));
  return cc;
}

int current_sm_count() {
  int device = 0, sm_count = 0;
  KBENCH_CUDA_CALL(cudaGetDevice(&device));
  KBENCH_CUDA_CALL(cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, device));
  return sm_count;
}

std::int64_t current_shared_memory_per_sm() {
  int device = 0, bytes = 0;
  KBENCH_CUDA_CALL(cudaGetDevice(&device));
  KBENCH_CUDA_CALL(cudaDeviceGetAttribute(&bytes, cudaDevAttrMaxSharedMemoryPerMultiprocessor, device));
  return bytes;
}

Device current_device() {
  int device = 0;
  KBENCH_CUDA_CALL(cudaGetDevice(&device));
  const ComputeCapability cc = current_compute_capability();
  int l2_bytes = 0;
  KBENCH_CUDA_CALL(cudaDeviceGetAttribute(&l2_bytes, cudaDevAttrL2CacheSize, device));
  return {cc.major, cc.minor, current_sm_count(), l2_bytes};
}

}  // namespace kbench
