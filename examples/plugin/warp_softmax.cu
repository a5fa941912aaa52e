// A softmax variant kbench does not ship: one warp per row, an online (single-pass) max and sum
// in fp32, then one pass that writes. Any rows x cols: lanes stride over the row, so a row
// shorter than 32 or not a multiple of it leaves lanes idle rather than reading past its end.
#include "dtype_cast.cuh"
#include "variants.hpp"

#include <cmath>
#include <cstdint>

namespace example {

namespace {

constexpr int kThreads = 256;
constexpr int kRowsPerBlock = kThreads / 32;

/// Merges two (max, sum of exp(x - max)) pairs.
__device__ __forceinline__ void merge(float& max, float& sum, float other_max, float other_sum) {
  const float m = fmaxf(max, other_max);
  // -inf - -inf is NaN: a lane that saw nothing contributes nothing.
  sum = (max == -INFINITY ? 0.f : sum * expf(max - m)) + (other_max == -INFINITY ? 0.f : other_sum * expf(other_max - m));
  max = m;
}

template <class T>
__global__ void __launch_bounds__(kThreads) warp_softmax_kernel(const T* x, T* y, std::int64_t rows, std::int64_t cols) {
  const int lane = threadIdx.x % 32;
  const std::int64_t row = static_cast<std::int64_t>(blockIdx.x) * kRowsPerBlock + threadIdx.x / 32;
  if (row >= rows) return;  // whole warps leave together: the shuffles below see all 32 lanes
  const T* in = x + row * cols;
  T* out = y + row * cols;

  float max = -INFINITY, sum = 0.f;
  for (std::int64_t c = lane; c < cols; c += 32) merge(max, sum, to_float(in[c]), 1.f);
  for (int offset = 16; offset > 0; offset /= 2) {
    const float other_max = __shfl_xor_sync(0xffffffffu, max, offset);
    const float other_sum = __shfl_xor_sync(0xffffffffu, sum, offset);
    merge(max, sum, other_max, other_sum);
  }
  const float inverse = 1.f / sum;
  for (std::int64_t c = lane; c < cols; c += 32) out[c] = from_float<T>(expf(to_float(in[c]) - max) * inverse);
}

}  // namespace

kbench::Variant<kbench::SoftmaxArgs> warp_softmax() {
  kbench::Variant<kbench::SoftmaxArgs> v;
  v.name = "warp_softmax";
  v.description = "example plugin: one warp per row, online max and sum in fp32, then a write pass";
  v.launch = [](const kbench::SoftmaxArgs& args, cudaStream_t stream) {
    dispatch(args.dtype, [&](auto tag) {
      using T = decltype(tag);
      const auto blocks = static_cast<unsigned>((args.rows + kRowsPerBlock - 1) / kRowsPerBlock);
      warp_softmax_kernel<T><<<blocks, kThreads, 0, stream>>>(static_cast<const T*>(args.x), static_cast<T*>(args.y),
                                                              args.rows, args.cols);
      check_launch("warp_softmax_kernel");
    });
  };
  return v;
}

}  // namespace example
