#include "harness/ops/first_call.hpp"

#include "harness/device/cuda_check.hpp"

#include <chrono>

namespace kbench {

double call_wall_ms(const std::function<void(cudaStream_t)>& call, cudaStream_t stream) {
  KBENCH_CUDA_CALL(cudaStreamSynchronize(stream));
  const auto start = std::chrono::steady_clock::now();
  call(stream);
  KBENCH_CUDA_CALL(cudaGetLastError());
  KBENCH_CUDA_CALL(cudaStreamSynchronize(stream));
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace kbench
