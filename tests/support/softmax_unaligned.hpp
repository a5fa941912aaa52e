#pragma once
// GPU tests: a softmax launcher called on x and y that start past a 16-byte boundary (the
// workload's buffers are always aligned, so its fallback for such tensors is reached only here).

#include "harness/device/cuda_check.hpp"
#include "harness/device/cuda_resources.hpp"
#include "harness/ops/host_tensor.hpp"
#include "harness/ops/verification.hpp"
#include "kernels/softmax/softmax_reference.hpp"
#include "support/catch.hpp"
#include "support/verify_variants.hpp"

#include <cmath>
#include <cstdint>
#include <vector>

namespace kbench::test {

/// `launch(x, y, rows, cols, stream)` on x and y that start `offset` elements past a 16-byte
/// boundary, y poisoned with NaN bits first: every element must match the reference.
template <typename T, typename Launch>
void check_softmax_unaligned(Launch launch, DType dtype, std::int64_t rows, std::int64_t cols, int offset,
                             CudaStream& stream) {
  const std::uint64_t seed = fresh_seed();
  INFO(dtype_name(dtype) << " " << rows << " x " << cols << " at element offset " << offset << " seed " << seed);
  const auto n = static_cast<std::size_t>(rows * cols);
  const HostTensor x = random_tensor(dtype, n, seed, -4.0f, 4.0f);
  DeviceBuffer in((n + 8) * sizeof(T)), out((n + 8) * sizeof(T));
  upload(in.as<T>() + offset, x.bytes.data(), x.bytes.size());
  KBENCH_CUDA_CALL(cudaMemset(out.get(), 0xFF, out.bytes()));
  KBENCH_CUDA_CALL(cudaDeviceSynchronize());
  launch(in.as<T>() + offset, out.as<T>() + offset, rows, cols, stream.get());
  KBENCH_CUDA_CALL(cudaStreamSynchronize(stream.get()));
  std::vector<std::uint8_t> bytes(n * sizeof(T));
  KBENCH_CUDA_CALL(cudaMemcpy(bytes.data(), out.as<T>() + offset, bytes.size(), cudaMemcpyDeviceToHost));
  const std::vector<float> got = decode_to_float(dtype, bytes.data(), n);
  const std::vector<double> want = softmax::reference_softmax(x.values, rows, cols);
  const Tolerance tol = fp32_math_tolerance(dtype);
  std::int64_t bad = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (!(std::fabs(got[i] - want[i]) <= tol.abs + tol.rel * std::fabs(want[i]))) ++bad;
  }
  CHECK(bad == 0);
}

}  // namespace kbench::test
