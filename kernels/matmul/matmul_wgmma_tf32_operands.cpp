// The host side of launch_wgmma_tf32: which problems it can run, and the tensor maps of A and of
// Bᵀ (the transposed copy of B in the call's workspace). The encoder is the driver's
// cuTensorMapEncodeTiled, found through the runtime, as in matmul_wgmma_tma_operands.cpp.
#include "kernels/matmul/matmul_kernels.hpp"

#include "harness/device/cuda_check.hpp"

#include <cudaTypedefs.h>  // PFN_cuTensorMapEncodeTiled_v12000

#include <cstdint>
#include <stdexcept>
#include <string>

namespace kbench::matmul {

namespace {

bool aligned_to(const void* p, std::uintptr_t bytes) { return reinterpret_cast<std::uintptr_t>(p) % bytes == 0; }

PFN_cuTensorMapEncodeTiled_v12000 encoder() {
  static const PFN_cuTensorMapEncodeTiled_v12000 encode = [] {
    void* function = nullptr;
    cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
    KBENCH_CUDA_CALL(
        cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &function, 12000, cudaEnableDefault, &found));
    if (found != cudaDriverEntryPointSuccess || function == nullptr) {
      throw CudaError(cudaErrorNotSupported,
                      "matmul wgmma_tf32: the CUDA driver has no cuTensorMapEncodeTiled (needs a driver for CUDA 12.0 "
                      "or later); query result " +
                          std::to_string(static_cast<int>(found)));
    }
    return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(function);
  }();
  return encode;
}

/// The map of a row-major rows × k fp32 matrix at `data` (K contiguous), read in boxes of
/// `box_rows` rows × kWgmmaTf32StepK (128 bytes) with the 128-byte swizzle; parts of a box outside
/// the matrix read as zeros.
CUtensorMap encode_k_major(const float* data, int rows, int k, int box_rows, const char* name) {
  CUtensorMap map;
  const cuuint64_t extents[2] = {static_cast<cuuint64_t>(k), static_cast<cuuint64_t>(rows)};
  const cuuint64_t row_stride_bytes[1] = {static_cast<cuuint64_t>(k) * sizeof(float)};
  const cuuint32_t box[2] = {static_cast<cuuint32_t>(kWgmmaTf32StepK), static_cast<cuuint32_t>(box_rows)};
  const cuuint32_t element_strides[2] = {1, 1};
  const CUresult result =
      encoder()(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, const_cast<float*>(data), extents, row_stride_bytes, box,
                element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (result != CUDA_SUCCESS) {
    throw CudaError(cudaErrorInvalidValue, std::string("matmul wgmma_tf32: cuTensorMapEncodeTiled refused ") + name +
                                               " (" + std::to_string(rows) + "x" + std::to_string(k) +
                                               "): CUresult " + std::to_string(static_cast<int>(result)));
  }
  return map;
}

/// Empty when TMA can read A of `dims` at `a` and its transposed B at `bt`, else why not.
std::string operands_unsupported(Dims dims, const void* a, const void* bt) {
  if (dims.k % 4 != 0) {
    return "TMA needs K to be a multiple of 4 (16-byte rows of A and of the transposed B); got " +
           std::to_string(dims.m) + "x" + std::to_string(dims.n) + "x" + std::to_string(dims.k) + " (MxNxK)";
  }
  if (!aligned_to(a, 16)) return "TMA needs A 16-byte aligned";
  if (!aligned_to(bt, 16)) return "TMA needs the transposed B 16-byte aligned";
  return {};
}

}  // namespace

std::string wgmma_tf32_unsupported(Dims dims, const void* a, const void* c) {
  // The transposed B is the call's own workspace (cudaMalloc'd): stand A in for it here.
  if (std::string why = operands_unsupported(dims, a, a); !why.empty()) return why;
  if (!aligned_to(c, 8)) return "the stores need C 8-byte aligned";
  return {};
}

WgmmaTf32Operands make_wgmma_tf32_operands(const float* a, const float* bt, Dims dims) {
  if (const std::string why = operands_unsupported(dims, a, bt); !why.empty()) {
    throw std::invalid_argument("matmul wgmma_tf32: " + why);
  }
  return {encode_k_major(a, dims.m, dims.k, kWgmmaTf32TileM, "A"),
          encode_k_major(bt, dims.n, dims.k, kWgmmaTf32TileN, "the transposed B")};
}

}  // namespace kbench::matmul
