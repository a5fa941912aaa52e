#pragma once
/// One error path for every CUDA runtime call: record the call's text, file and line, and throw.

#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

namespace kbench {

/// A failed CUDA runtime call. `code()` keeps the cudaError_t so callers can tell a sticky
/// context error (the run must stop) from a local one (the next case may still run).
class CudaError : public std::runtime_error {
 public:
  CudaError(cudaError_t code, const std::string& what) : std::runtime_error(what), code_(code) {}
  cudaError_t code() const noexcept { return code_; }

 private:
  cudaError_t code_;
};

/// Throws CudaError describing `call` when `code` is not cudaSuccess.
void throw_on_cuda_error(cudaError_t code, const char* call, const char* file, int line);

/// Prints (never throws) when `code` is not cudaSuccess: for destructors.
void report_cuda_error_noexcept(cudaError_t code, const char* call, const char* file, int line) noexcept;

/// True for errors after which the CUDA context is unusable (illegal address, launch failure, ...).
bool is_sticky_cuda_error(cudaError_t code) noexcept;

}  // namespace kbench

/// Checks a CUDA runtime call and throws kbench::CudaError on failure.
#define KBENCH_CUDA_CALL(call) ::kbench::throw_on_cuda_error((call), #call, __FILE__, __LINE__)

/// Checks a CUDA runtime call and only reports a failure: use in destructors.
#define KBENCH_CUDA_CALL_NOEXCEPT(call) \
  ::kbench::report_cuda_error_noexcept((call), #call, __FILE__, __LINE__)

/// Checks the launch that was just enqueued (bad configuration, missing kernel image, ...).
#define KBENCH_CHECK_LAUNCH() \
  ::kbench::throw_on_cuda_error(cudaGetLastError(), "kernel launch", __FILE__, __LINE__)
