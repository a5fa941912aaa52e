#pragma once
/// Tensor maps (TMA descriptors) of row-major 2-D matrices for the TMA-fed matmul kernels, encoded
/// by the driver's cuTensorMapEncodeTiled. The encoder is found through the runtime
/// (cudaGetDriverEntryPointByVersion), so kbench does not link libcuda itself; a driver without it
/// throws CudaError(cudaErrorNotSupported), one that refuses a map CudaError(cudaErrorInvalidValue).
#include <cuda.h>

namespace kbench::matmul {

/// What one map describes: a rows × cols matrix of `element_bytes`-byte `type` elements at `data`
/// (cols contiguous, row r starting row_pitch elements after row r - 1; 0 means cols), moved in
/// boxes of box_cols × box_rows with the 128-byte swizzle; parts of a box outside the rows × cols
/// matrix read as zeros and are not written. TMA needs row_pitch · element_bytes a multiple of 16.
struct TensorMapSpec {
  CUtensorMapDataType type;
  unsigned element_bytes;
  const void* data;
  int rows;
  int cols;
  unsigned box_cols;
  unsigned box_rows;
  long long row_pitch = 0;
};

/// The encoded map; `kernel` and `name` ("matmul wgmma_tma", "A") label the error when the driver refuses it.
CUtensorMap encode_tensor_map(const TensorMapSpec& spec, const char* kernel, const char* name);

}  // namespace kbench::matmul
