#include "harness/device/cuda_check.hpp"

#include <cstdio>

namespace kbench {

namespace {
std::string describe(cudaError_t code, const char* call, const char* file, int line) {
  return std::string(call) + " failed at " + file + ":" + std::to_string(line) + ": " +
         cudaGetErrorName(code) + " (" + cudaGetErrorString(code) + ")";
}
}  // namespace

void throw_on_cuda_error(cudaError_t code, const char* call, const char* file, int line) {
  if (code != cudaSuccess) throw CudaError(code, describe(code, call, file, line));
}

void report_cuda_error_noexcept(cudaError_t code, const char* call, const char* file, int line) noexcept {
  if (code != cudaSuccess) std::fprintf(stderr, "kbench: warning: %s\n", describe(code, call, file, line).c_str());
}

bool is_sticky_cuda_error(cudaError_t code) noexcept {
  switch (code) {
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
    case cudaErrorLaunchTimeout:
    case cudaErrorHardwareStackError:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorAssert:
    case cudaErrorECCUncorrectable:
      return true;
    default:
      return false;
  }
}

}  // namespace kbench
