// The cuDNN softmax baseline (compiled only when CMake found cuDNN).
#include "kernels/softmax/softmax_cudnn.hpp"

#include <cudnn.h>

#include <cstdio>
#include <limits>
#include <stdexcept>
#include <utility>

/// Checks a cuDNN call and throws std::runtime_error naming the call, file, line and cuDNN's text.
#define KBENCH_CUDNN_CALL(call) ::kbench::softmax::throw_on_cudnn_error((call), #call, __FILE__, __LINE__)

/// Reports (never throws) a failed cuDNN call: for destructors.
#define KBENCH_CUDNN_CALL_NOEXCEPT(call)                                                              \
  do {                                                                                                \
    const cudnnStatus_t kbench_status = (call);                                                       \
    if (kbench_status != CUDNN_STATUS_SUCCESS)                                                        \
      std::fprintf(stderr, "%s failed at %s:%d: %s\n", #call, __FILE__, __LINE__,                    \
                   cudnnGetErrorString(kbench_status));                                               \
  } while (0)

namespace kbench::softmax {

namespace {

void throw_on_cudnn_error(cudnnStatus_t status, const char* call, const char* file, int line) {
  if (status != CUDNN_STATUS_SUCCESS) {
    throw std::runtime_error(std::string(call) + " failed at " + file + ":" + std::to_string(line) + ": " +
                             cudnnGetErrorString(status));
  }
}

cudnnDataType_t cudnn_type(DType dtype) {
  switch (dtype) {
    case DType::f16: return CUDNN_DATA_HALF;
    case DType::bf16: return CUDNN_DATA_BFLOAT16;
    case DType::f32:
    case DType::tf32: break;
  }
  return CUDNN_DATA_FLOAT;
}

/// A cuDNN handle. Move-only; the destructor never throws.
class Handle {
 public:
  Handle() { KBENCH_CUDNN_CALL(cudnnCreate(&handle_)); }
  ~Handle() {
    if (handle_) KBENCH_CUDNN_CALL_NOEXCEPT(cudnnDestroy(handle_));
  }
  Handle(Handle&& other) noexcept : handle_(std::exchange(other.handle_, nullptr)) {}
  Handle& operator=(Handle&&) = delete;
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  cudnnHandle_t get() const noexcept { return handle_; }

 private:
  cudnnHandle_t handle_ = nullptr;
};

/// A tensor descriptor. Move-only; the destructor never throws.
class TensorDescriptor {
 public:
  TensorDescriptor() { KBENCH_CUDNN_CALL(cudnnCreateTensorDescriptor(&descriptor_)); }
  ~TensorDescriptor() {
    if (descriptor_) KBENCH_CUDNN_CALL_NOEXCEPT(cudnnDestroyTensorDescriptor(descriptor_));
  }
  TensorDescriptor(TensorDescriptor&& other) noexcept : descriptor_(std::exchange(other.descriptor_, nullptr)) {}
  TensorDescriptor& operator=(TensorDescriptor&&) = delete;
  TensorDescriptor(const TensorDescriptor&) = delete;
  TensorDescriptor& operator=(const TensorDescriptor&) = delete;
  cudnnTensorDescriptor_t get() const noexcept { return descriptor_; }

 private:
  cudnnTensorDescriptor_t descriptor_ = nullptr;
};

}  // namespace

struct CudnnSoftmax::State {
  Handle handle;
  TensorDescriptor tensor;  ///< x and y share it: same shape, same dtype, packed NCHW
};

std::string CudnnSoftmax::unsupported_reason(std::int64_t rows, std::int64_t cols) {
  constexpr std::int64_t kIntMax = std::numeric_limits<int>::max();
  if (rows > kIntMax || cols > kIntMax || rows * cols > kIntMax) {
    return "cuDNN cannot express " + std::to_string(rows) + " x " + std::to_string(cols) +
           ": its tensor descriptors take int extents and hold fewer than 2^31 elements";
  }
  return {};
}

CudnnSoftmax::CudnnSoftmax(DType dtype, std::int64_t rows, std::int64_t cols) {
  if (const std::string why = unsupported_reason(rows, cols); !why.empty()) throw std::invalid_argument(why);
  state_ = std::make_unique<State>();
  KBENCH_CUDNN_CALL(cudnnSetTensor4dDescriptor(state_->tensor.get(), CUDNN_TENSOR_NCHW, cudnn_type(dtype),
                                               static_cast<int>(rows), static_cast<int>(cols), 1, 1));
}

CudnnSoftmax::~CudnnSoftmax() = default;
CudnnSoftmax::CudnnSoftmax(CudnnSoftmax&&) noexcept = default;
CudnnSoftmax& CudnnSoftmax::operator=(CudnnSoftmax&&) noexcept = default;

void CudnnSoftmax::launch(const void* x, void* y, cudaStream_t stream) const {
  // alpha and beta are float for every data type but double: y = 1 * softmax(x) + 0 * y.
  const float alpha = 1.0f, beta = 0.0f;
  KBENCH_CUDNN_CALL(cudnnSetStream(state_->handle.get(), stream));
  KBENCH_CUDNN_CALL(cudnnSoftmaxForward(state_->handle.get(), CUDNN_SOFTMAX_ACCURATE, CUDNN_SOFTMAX_MODE_INSTANCE,
                                        &alpha, state_->tensor.get(), x, &beta, state_->tensor.get(), y));
}

std::string cudnn_version_text() {
  const auto version_text = [](std::size_t v) {
    // cuDNN 9 encodes major * 10000 + minor * 100 + patch.
    return std::to_string(v / 10000) + "." + std::to_string(v / 100 % 100) + "." + std::to_string(v % 100);
  };
  return "cuDNN " + version_text(cudnnGetVersion()) + " (built against " + version_text(CUDNN_VERSION) + ")";
}

}  // namespace kbench::softmax
