#pragma once
/// RAII owners for CUDA resources. Move-only; destructors never throw.

#include "harness/device/cuda_check.hpp"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>

namespace kbench {

/// An untyped device allocation made with cudaMalloc.
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t bytes) : bytes_(bytes) {
    if (bytes_ > 0) KBENCH_CUDA_CALL(cudaMalloc(&ptr_, bytes_));
  }
  ~DeviceBuffer() {
    if (ptr_) KBENCH_CUDA_CALL_NOEXCEPT(cudaFree(ptr_));
  }
  DeviceBuffer(DeviceBuffer&& other) noexcept
      : ptr_(std::exchange(other.ptr_, nullptr)), bytes_(std::exchange(other.bytes_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    if (this != &other) {
      DeviceBuffer doomed(std::move(*this));
      ptr_ = std::exchange(other.ptr_, nullptr);
      bytes_ = std::exchange(other.bytes_, 0);
    }
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  void* get() const noexcept { return ptr_; }
  template <typename T>
  T* as() const noexcept { return static_cast<T*>(ptr_); }
  std::size_t bytes() const noexcept { return bytes_; }

 private:
  void* ptr_ = nullptr;
  std::size_t bytes_ = 0;
};

/// `bytes` of device memory set to zero before the first kernel that reads them, on whatever
/// stream it runs: cudaMemset may return before it is done, and a non-blocking stream would not
/// wait for it, so this synchronises the device (outside any timed window: counters and tickets
/// that kernels leave at zero are made this way).
inline DeviceBuffer zeroed_device_buffer(std::size_t bytes) {
  DeviceBuffer buffer(bytes);
  if (bytes > 0) {
    KBENCH_CUDA_CALL(cudaMemset(buffer.get(), 0, bytes));
    KBENCH_CUDA_CALL(cudaDeviceSynchronize());
  }
  return buffer;
}

/// Host memory for device copies: page-locked (cudaMallocHost) when the driver grants it, so that
/// copies run at the link's speed, else plain memory (the driver then stages through its own).
class HostStagingBuffer {
 public:
  HostStagingBuffer() = default;
  explicit HostStagingBuffer(std::size_t bytes) : bytes_(bytes) {
    if (bytes_ == 0) return;
    if (cudaMallocHost(&ptr_, bytes_) == cudaSuccess) return;
    (void)cudaGetLastError();  // a refused pinning is not sticky: clear it and use plain memory
    ptr_ = nullptr;
    plain_ = std::make_unique<std::uint8_t[]>(bytes_);
  }
  ~HostStagingBuffer() {
    if (ptr_) KBENCH_CUDA_CALL_NOEXCEPT(cudaFreeHost(ptr_));
  }
  HostStagingBuffer(HostStagingBuffer&& other) noexcept
      : ptr_(std::exchange(other.ptr_, nullptr)), plain_(std::move(other.plain_)), bytes_(std::exchange(other.bytes_, 0)) {}
  HostStagingBuffer& operator=(HostStagingBuffer&& other) noexcept {
    if (this != &other) {
      HostStagingBuffer doomed(std::move(*this));
      ptr_ = std::exchange(other.ptr_, nullptr);
      plain_ = std::move(other.plain_);
      bytes_ = std::exchange(other.bytes_, 0);
    }
    return *this;
  }
  HostStagingBuffer(const HostStagingBuffer&) = delete;
  HostStagingBuffer& operator=(const HostStagingBuffer&) = delete;

  std::uint8_t* data() const noexcept { return ptr_ ? static_cast<std::uint8_t*>(ptr_) : plain_.get(); }
  std::size_t bytes() const noexcept { return bytes_; }

 private:
  void* ptr_ = nullptr;                    ///< page-locked
  std::unique_ptr<std::uint8_t[]> plain_;  ///< when pinning was refused
  std::size_t bytes_ = 0;
};

/// A CUDA event with timing enabled.
class CudaEvent {
 public:
  CudaEvent() { KBENCH_CUDA_CALL(cudaEventCreate(&event_)); }
  ~CudaEvent() {
    if (event_) KBENCH_CUDA_CALL_NOEXCEPT(cudaEventDestroy(event_));
  }
  CudaEvent(CudaEvent&& other) noexcept : event_(std::exchange(other.event_, nullptr)) {}
  CudaEvent& operator=(CudaEvent&& other) noexcept {
    if (this != &other) {
      CudaEvent doomed(std::move(*this));
      event_ = std::exchange(other.event_, nullptr);
    }
    return *this;
  }
  CudaEvent(const CudaEvent&) = delete;
  CudaEvent& operator=(const CudaEvent&) = delete;

  cudaEvent_t get() const noexcept { return event_; }

 private:
  cudaEvent_t event_ = nullptr;
};

/// A non-blocking CUDA stream (does not synchronise with the legacy default stream).
class CudaStream {
 public:
  CudaStream() { KBENCH_CUDA_CALL(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
  ~CudaStream() {
    if (stream_) KBENCH_CUDA_CALL_NOEXCEPT(cudaStreamDestroy(stream_));
  }
  CudaStream(CudaStream&& other) noexcept : stream_(std::exchange(other.stream_, nullptr)) {}
  CudaStream& operator=(CudaStream&& other) noexcept {
    if (this != &other) {
      CudaStream doomed(std::move(*this));
      stream_ = std::exchange(other.stream_, nullptr);
    }
    return *this;
  }
  CudaStream(const CudaStream&) = delete;
  CudaStream& operator=(const CudaStream&) = delete;

  cudaStream_t get() const noexcept { return stream_; }
  void synchronize() const { KBENCH_CUDA_CALL(cudaStreamSynchronize(stream_)); }

 private:
  cudaStream_t stream_ = nullptr;
};

}  // namespace kbench

namespace kbench {

/// An executable CUDA graph captured from the calls `capture` enqueues on `stream`.
class CapturedGraph {
 public:
  template <typename Enqueue>
  CapturedGraph(cudaStream_t stream, Enqueue&& capture) {
    KBENCH_CUDA_CALL(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
    cudaGraph_t graph = nullptr;
    try {
      capture(stream);
    } catch (...) {
      // End the capture so the stream is usable again, then report the original error.
      if (cudaStreamEndCapture(stream, &graph) == cudaSuccess && graph) cudaGraphDestroy(graph);
      cudaGetLastError();
      throw;
    }
    KBENCH_CUDA_CALL(cudaStreamEndCapture(stream, &graph));
    const cudaError_t status = cudaGraphInstantiate(&exec_, graph, 0);
    KBENCH_CUDA_CALL_NOEXCEPT(cudaGraphDestroy(graph));
    KBENCH_CUDA_CALL(status);
  }
  ~CapturedGraph() {
    if (exec_) KBENCH_CUDA_CALL_NOEXCEPT(cudaGraphExecDestroy(exec_));
  }
  CapturedGraph(const CapturedGraph&) = delete;
  CapturedGraph& operator=(const CapturedGraph&) = delete;

  /// Enqueues one replay of the whole graph.
  void launch(cudaStream_t stream) const { KBENCH_CUDA_CALL(cudaGraphLaunch(exec_, stream)); }

 private:
  cudaGraphExec_t exec_ = nullptr;
};

/// Copies `bytes` from host memory to the device and returns once they are in device memory.
/// cudaMemcpy from pageable host memory may return as soon as the bytes are staged, before the DMA
/// lands (CUDA's "API synchronization behavior"), and kbench launches on non-blocking streams,
/// which do not wait for the legacy stream that copy ran on: a kernel could read stale memory.
/// (Two copy-roof rows of 64 KB read back bytes that were not their source, in two sessions.)
inline void upload(void* device, const void* host, std::size_t bytes) {
  KBENCH_CUDA_CALL(cudaMemcpy(device, host, bytes, cudaMemcpyHostToDevice));
  KBENCH_CUDA_CALL(cudaDeviceSynchronize());
}

}  // namespace kbench
