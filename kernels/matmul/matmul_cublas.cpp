// cuBLAS is column-major; kbench's matrices are row-major. A row-major M×N matrix is the same
// bytes as a column-major N×M matrix (its transpose), so C = A·B is computed as
// Cᵀ = Bᵀ·Aᵀ in column-major terms: cuBLAS's "A" is our B (N×K column-major, leading dimension
// N), its "B" is our A (K×M column-major, leading dimension K), and its C is N×M with leading
// dimension N. No data is transposed.
#include "kernels/matmul/matmul_cublas.hpp"

#include "harness/device/cublas_handle.hpp"  // KBENCH_CUBLAS_CALL: cuBLAS errors through one path

#include <library_types.h>

#include <cstdio>
#include <utility>

namespace kbench::matmul {

namespace {

cudaDataType_t data_type(DType dtype) {
  switch (dtype) {
    case DType::f16: return CUDA_R_16F;
    case DType::bf16: return CUDA_R_16BF;
    case DType::f32:
    case DType::tf32: return CUDA_R_32F;
  }
  return CUDA_R_32F;
}

cublasComputeType_t compute_type(DType dtype) {
  return dtype == DType::tf32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
}

}  // namespace

CublasMatmul::CublasMatmul() : workspace_(kCublasWorkspaceBytes) {
  KBENCH_CUBLAS_CALL(cublasCreate(&handle_));
  // The default math mode: CUBLAS_COMPUTE_32F then never uses TF32 (only FAST_TF32 does). Split-K
  // partials are reduced in fp32, as kbench's own split-K does: by default cuBLAS may reduce them
  // in the 16-bit output type, which the H100 showed 2 % off at 17x4099x8191 fp16.
  KBENCH_CUBLAS_CALL(cublasSetMathMode(handle_, static_cast<cublasMath_t>(CUBLAS_DEFAULT_MATH |
                                                                         CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION)));
  KBENCH_CUBLAS_CALL(cublasSetWorkspace(handle_, workspace_.get(), workspace_.bytes()));
}

CublasMatmul::~CublasMatmul() {
  if (handle_) {
    const cublasStatus_t status = cublasDestroy(handle_);
    if (status != CUBLAS_STATUS_SUCCESS) std::fprintf(stderr, "cublasDestroy failed: %s\n", cublasGetStatusString(status));
  }
}

CublasMatmul::CublasMatmul(CublasMatmul&& other) noexcept
    : handle_(std::exchange(other.handle_, nullptr)), workspace_(std::move(other.workspace_)) {}

void CublasMatmul::run(DType dtype, const void* a, const void* b, void* c, Dims dims, cudaStream_t stream) const {
  KBENCH_CUBLAS_CALL(cublasSetStream(handle_, stream));
  // cublasSetStream resets the handle to cuBLAS's default workspace pool (cuBLAS documentation,
  // cublasSetStream), so the workspace is set again after it: graph capture must not allocate.
  KBENCH_CUBLAS_CALL(cublasSetWorkspace(handle_, workspace_.get(), workspace_.bytes()));
  const float alpha = 1.0f, beta = 0.0f;  // the scale type of CUBLAS_COMPUTE_32F*
  const cudaDataType_t type = data_type(dtype);
  KBENCH_CUBLAS_CALL(cublasGemmEx(handle_, CUBLAS_OP_N, CUBLAS_OP_N, dims.n, dims.m, dims.k, &alpha, b, type, dims.n, a,
                                  type, dims.k, &beta, c, type, dims.n, compute_type(dtype), CUBLAS_GEMM_DEFAULT));
}

}  // namespace kbench::matmul
