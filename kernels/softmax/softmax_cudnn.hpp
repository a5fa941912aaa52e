#pragma once
/// The softmax baseline through cuDNN: cudnnSoftmaxForward (CUDNN_SOFTMAX_ACCURATE,
/// CUDNN_SOFTMAX_MODE_INSTANCE) on an NCHW tensor with n = rows, c = cols, h = w = 1, which is a
/// softmax over the last dimension of a rows x cols row-major matrix. Built only where CMake found
/// cuDNN (KBENCH_HAVE_CUDNN); cudnn.h stays out of this header.

#include "harness/ops/dtype.hpp"

#include <cuda_runtime_api.h>

#include <cstdint>
#include <memory>
#include <string>

namespace kbench::softmax {

/// Owns a cuDNN handle and the tensor descriptor of one problem (RAII, move-only). Construct it at
/// prepare time: creating a handle allocates and loads cuDNN's libraries.
class CudnnSoftmax {
 public:
  /// Throws std::invalid_argument when cuDNN cannot express the shape (see unsupported_reason),
  /// std::runtime_error naming the call when cuDNN fails.
  CudnnSoftmax(DType dtype, std::int64_t rows, std::int64_t cols);
  ~CudnnSoftmax();
  CudnnSoftmax(CudnnSoftmax&&) noexcept;
  CudnnSoftmax& operator=(CudnnSoftmax&&) noexcept;
  CudnnSoftmax(const CudnnSoftmax&) = delete;
  CudnnSoftmax& operator=(const CudnnSoftmax&) = delete;

  /// Enqueues y = softmax(x) on `stream` (the handle is bound to it first).
  void launch(const void* x, void* y, cudaStream_t stream) const;

  /// Empty when cuDNN can take a rows x cols problem, otherwise why not: its descriptors take
  /// int extents, and its tensors hold fewer than 2^31 elements.
  static std::string unsupported_reason(std::int64_t rows, std::int64_t cols);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

/// "cuDNN 9.19.0 (built against 9.19.0)": the library loaded at run time and the header.
std::string cudnn_version_text();

}  // namespace kbench::softmax
