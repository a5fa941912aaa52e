#pragma once
/// cuBLAS errors through the same path as CUDA's, and an RAII handle.

#include "harness/device/cuda_check.hpp"
#include "harness/device/cuda_resources.hpp"

#include <cublas_v2.h>

#include <stdexcept>
#include <string>
#include <utility>

namespace kbench {

/// Throws std::runtime_error naming the call, file and line when `status` is not success.
inline void throw_on_cublas_error(cublasStatus_t status, const char* call, const char* file, int line) {
  if (status != CUBLAS_STATUS_SUCCESS) {
    throw std::runtime_error(std::string(call) + " failed at " + file + ":" + std::to_string(line) + ": " +
                             cublasGetStatusName(status) + " (" + cublasGetStatusString(status) + ")");
  }
}

/// A cuBLAS handle with its own workspace, so calls need no allocation and can be captured in a
/// CUDA graph. Move-only.
class CublasHandle {
 public:
  explicit CublasHandle(std::size_t workspace_bytes = 32u << 20) : workspace_(workspace_bytes) {
    throw_on_cublas_error(cublasCreate(&handle_), "cublasCreate", __FILE__, __LINE__);
    throw_on_cublas_error(cublasSetWorkspace(handle_, workspace_.get(), workspace_.bytes()), "cublasSetWorkspace",
                          __FILE__, __LINE__);
  }
  ~CublasHandle() {
    if (handle_) cublasDestroy(handle_);
  }
  CublasHandle(CublasHandle&& other) noexcept
      : handle_(std::exchange(other.handle_, nullptr)), workspace_(std::move(other.workspace_)) {}
  CublasHandle& operator=(CublasHandle&&) = delete;
  CublasHandle(const CublasHandle&) = delete;
  CublasHandle& operator=(const CublasHandle&) = delete;

  /// The handle, bound to `stream` for the calls that follow.
  cublasHandle_t on(cudaStream_t stream) const {
    throw_on_cublas_error(cublasSetStream(handle_, stream), "cublasSetStream", __FILE__, __LINE__);
    return handle_;
  }

 private:
  cublasHandle_t handle_ = nullptr;
  DeviceBuffer workspace_;
};

}  // namespace kbench

/// Checks a cuBLAS call and throws std::runtime_error on failure.
#define KBENCH_CUBLAS_CALL(call) ::kbench::throw_on_cublas_error((call), #call, __FILE__, __LINE__)
