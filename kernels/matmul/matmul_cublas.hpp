#pragma once
/// The vendor baseline: cublasGemmEx on row-major matrices. Host-only.

#include "harness/device/cuda_resources.hpp"
#include "harness/ops/dtype.hpp"
#include "kernels/matmul/matmul_problem.hpp"

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <cstddef>

namespace kbench::matmul {

/// Device bytes of one CublasMatmul's workspace.
constexpr std::size_t kCublasWorkspaceBytes = std::size_t{32} << 20;

/// One cuBLAS handle with its own workspace, so that a call neither allocates nor synchronises
/// and can be captured in a CUDA graph. Move-only; one per workload.
class CublasMatmul {
 public:
  /// Creates the handle and a 32 MiB workspace. Throws on failure.
  CublasMatmul();
  ~CublasMatmul();
  CublasMatmul(CublasMatmul&& other) noexcept;
  CublasMatmul& operator=(CublasMatmul&&) = delete;
  CublasMatmul(const CublasMatmul&) = delete;
  CublasMatmul& operator=(const CublasMatmul&) = delete;

  /// Enqueues C = A·B on `stream`: fp32 in true fp32 (CUBLAS_COMPUTE_32F, no TF32), tf32 with
  /// CUBLAS_COMPUTE_32F_FAST_TF32, fp16 and bf16 with fp32 accumulation and C in the input type.
  void run(DType dtype, const void* a, const void* b, void* c, Dims dims, cudaStream_t stream) const;

 private:
  cublasHandle_t handle_ = nullptr;
  DeviceBuffer workspace_;
};

}  // namespace kbench::matmul
