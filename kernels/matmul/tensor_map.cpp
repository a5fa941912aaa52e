#include "kernels/matmul/tensor_map.hpp"

#include "harness/device/cuda_check.hpp"

#include <cudaTypedefs.h>  // PFN_cuTensorMapEncodeTiled_v12000

#include <string>

namespace kbench::matmul {

namespace {

struct EncoderLookup {
  PFN_cuTensorMapEncodeTiled_v12000 encode = nullptr;
  cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
};

PFN_cuTensorMapEncodeTiled_v12000 encoder(const char* kernel) {
  static const EncoderLookup lookup = [] {
    EncoderLookup l;
    void* function = nullptr;
    KBENCH_CUDA_CALL(
        cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &function, 12000, cudaEnableDefault, &l.found));
    if (l.found == cudaDriverEntryPointSuccess) l.encode = reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(function);
    return l;
  }();
  if (lookup.encode == nullptr) {
    throw CudaError(cudaErrorNotSupported, std::string(kernel) +
                                               ": the CUDA driver has no cuTensorMapEncodeTiled (needs a driver for "
                                               "CUDA 12.0 or later); query result " +
                                               std::to_string(static_cast<int>(lookup.found)));
  }
  return lookup.encode;
}

}  // namespace

CUtensorMap encode_tensor_map(const TensorMapSpec& spec, const char* kernel, const char* name) {
  CUtensorMap map;
  const cuuint64_t extents[2] = {static_cast<cuuint64_t>(spec.cols), static_cast<cuuint64_t>(spec.rows)};
  const long long pitch = spec.row_pitch > 0 ? spec.row_pitch : spec.cols;
  const cuuint64_t row_stride_bytes[1] = {static_cast<cuuint64_t>(pitch) * spec.element_bytes};
  const cuuint32_t box[2] = {spec.box_cols, spec.box_rows};
  const cuuint32_t element_strides[2] = {1, 1};
  const CUresult result = encoder(kernel)(&map, spec.type, 2, const_cast<void*>(spec.data), extents, row_stride_bytes,
                                          box, element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                          CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                                          CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (result != CUDA_SUCCESS) {
    throw CudaError(cudaErrorInvalidValue, std::string(kernel) + ": cuTensorMapEncodeTiled refused " + name + " (" +
                                               std::to_string(spec.rows) + "x" + std::to_string(spec.cols) +
                                               "): CUresult " + std::to_string(static_cast<int>(result)));
  }
  return map;
}

}  // namespace kbench::matmul
