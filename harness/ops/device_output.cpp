#include "harness/ops/device_output.hpp"

#include "harness/device/cuda_check.hpp"
#include "harness/ops/host_tensor.hpp"

namespace kbench {

void poison_output(const DeviceBuffer& output, cudaStream_t stream) {
  KBENCH_CUDA_CALL(cudaMemsetAsync(output.get(), 0xFF, output.bytes(), stream));
}

std::vector<std::uint8_t> read_output_bytes(const DeviceBuffer& output, cudaStream_t stream) {
  std::vector<std::uint8_t> raw(output.bytes());
  KBENCH_CUDA_CALL(cudaMemcpyAsync(raw.data(), output.get(), raw.size(), cudaMemcpyDeviceToHost, stream));
  KBENCH_CUDA_CALL(cudaStreamSynchronize(stream));
  return raw;
}

std::vector<float> read_output(const DeviceBuffer& output, DType dtype, std::size_t count, cudaStream_t stream) {
  const std::vector<std::uint8_t> raw = read_output_bytes(output, stream);
  return decode_to_float(dtype, raw.data(), count);
}

}  // namespace kbench
