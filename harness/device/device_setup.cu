#include "harness/device/device_setup.hpp"

#include "harness/device/arch_list.hpp"
#include "harness/device/build_info.hpp"
#include "harness/device/cuda_check.hpp"

#include <cuda_runtime_api.h>

namespace kbench {

namespace {
/// Never launched: its attributes tell whether the binary holds code for the device.
__global__ void architecture_probe() {}
}  // namespace

int cuda_device_count() {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    const std::string hint = status == cudaErrorInsufficientDriver
                                 ? " (no NVIDIA driver, or one older than CUDA runtime " +
                                       std::to_string(CUDART_VERSION / 1000) + "." +
                                       std::to_string(CUDART_VERSION % 1000 / 10) + " needs)"
                             : status == cudaErrorNoDevice ? " (the driver sees no GPU)"
                                                           : "";
    throw NoDeviceError(std::string("no usable CUDA device: cudaGetDeviceCount says ") + cudaGetErrorName(status) +
                        hint);
  }
  if (count == 0) throw NoDeviceError("no CUDA device found");
  return count;
}

std::string select_device(int index) {
  const int count = cuda_device_count();
  if (index < 0 || index >= count) {
    throw NoDeviceError("--device " + std::to_string(index) + " does not exist; this machine has " +
                        std::to_string(count) + " CUDA device(s), 0.." + std::to_string(count - 1));
  }
  KBENCH_CUDA_CALL(cudaSetDevice(index));
  int major = 0, minor = 0;
  KBENCH_CUDA_CALL(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, index));
  KBENCH_CUDA_CALL(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, index));
  const std::string arch = std::to_string(major) + std::to_string(minor);
  const std::string built = build_info().cuda_architectures;

  cudaFuncAttributes attributes{};
  const cudaError_t status = cudaFuncGetAttributes(&attributes, architecture_probe);
  if (status == cudaErrorNoKernelImageForDevice || status == cudaErrorInvalidDeviceFunction) {
    cudaGetLastError();
    throw UnsupportedArchitectureError("this kbench has no code for the GPU's architecture sm_" + arch +
                                       " (built for " + built + "); rebuild with -DCMAKE_CUDA_ARCHITECTURES=" + arch);
  }
  KBENCH_CUDA_CALL(status);
  if (!has_machine_code_for(built, major * 10 + minor)) {
    return "no machine code built for sm_" + arch + " (built for " + built + "): the driver runs compatible code "
           "(older machine code of the same major version, or PTX it JIT-compiles); add " + arch +
           " to CMAKE_CUDA_ARCHITECTURES for code built for this GPU";
  }
  return {};
}

void release_device() { KBENCH_CUDA_CALL(cudaDeviceReset()); }

bool device_code_is_debug() {
#ifdef __CUDACC_DEBUG__
  return true;
#else
  return false;
#endif
}

}  // namespace kbench
