#include "harness/measure/l2_flush.hpp"

namespace kbench {

namespace {

/// Reads every 16-byte word of `data` once. The store is kept alive by a condition the
/// compiler cannot prove false, but no real data satisfies: the buffer is zero-filled.
__global__ void l2_flush_read(const uint4* __restrict__ data, std::size_t count, unsigned* sink) {
  unsigned acc = 0;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    const uint4 v = data[i];
    acc ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (acc == 0x9E3779B9u) *sink = acc;
}

}  // namespace

L2Flusher::L2Flusher(std::int64_t l2_bytes)
    : buffer_(static_cast<std::size_t>(l2_bytes > 0 ? 2 * l2_bytes : 64 << 20)), sink_(sizeof(unsigned)) {
  KBENCH_CUDA_CALL(cudaMemset(buffer_.get(), 0, buffer_.bytes()));
  int device = 0, sm_count = 0;
  KBENCH_CUDA_CALL(cudaGetDevice(&device));
  KBENCH_CUDA_CALL(cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, device));
  blocks_ = 4 * sm_count;
}

void L2Flusher::flush(cudaStream_t stream) {
  static_assert(kKernelsPerFlush == 1, "flush() launches one kernel");
  l2_flush_read<<<blocks_, 512, 0, stream>>>(buffer_.as<uint4>(), buffer_.bytes() / sizeof(uint4),
                                             sink_.as<unsigned>());
  KBENCH_CHECK_LAUNCH();
}

}  // namespace kbench
