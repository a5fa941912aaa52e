// RMSNorm kernels: THREADS threads per row sum the squares of their elements in fp32, reduce
// (shuffles within a warp, shared memory across the warps of a row), then scale the row by
// rsqrt(mean + eps) and the weight. Lanes stride over the row: any cols is correct.
#include "dtype_cast.cuh"
#include "variants.hpp"

#include <cstdint>

namespace example {

namespace {

constexpr int kBlockThreads = 256;

template <int THREADS, class T>
__global__ void __launch_bounds__(kBlockThreads)
    rmsnorm_kernel(const T* x, const T* weight, T* y, std::int64_t rows, std::int64_t cols, float eps) {
  constexpr int kRowsPerBlock = kBlockThreads / THREADS;
  constexpr int kWarpsPerRow = THREADS / 32;
  __shared__ float partial[kBlockThreads / 32];
  const int t = threadIdx.x % THREADS;
  const int row_in_block = threadIdx.x / THREADS;
  const std::int64_t row = static_cast<std::int64_t>(blockIdx.x) * kRowsPerBlock + row_in_block;
  // Rows past the end still reach the barrier below (when there is one), with nothing to add.
  const bool active = row < rows;
  const T* in = x + (active ? row : 0) * cols;

  float squares = 0.f;
  if (active) {
    for (std::int64_t c = t; c < cols; c += THREADS) {
      const float v = to_float(in[c]);
      squares += v * v;
    }
  }
  for (int offset = 16; offset > 0; offset /= 2) squares += __shfl_xor_sync(0xffffffffu, squares, offset);
  if constexpr (kWarpsPerRow > 1) {
    if (threadIdx.x % 32 == 0) partial[threadIdx.x / 32] = squares;
    __syncthreads();
    squares = 0.f;
    for (int w = 0; w < kWarpsPerRow; ++w) squares += partial[row_in_block * kWarpsPerRow + w];
  }
  if (!active) return;
  const float scale = rsqrtf(squares / static_cast<float>(cols) + eps);
  T* out = y + row * cols;
  for (std::int64_t c = t; c < cols; c += THREADS) out[c] = from_float<T>(to_float(in[c]) * scale * to_float(weight[c]));
}

template <int THREADS>
void launch(const RmsNormArgs& args, cudaStream_t stream) {
  dispatch(args.dtype, [&](auto tag) {
    using T = decltype(tag);
    constexpr int kRowsPerBlock = kBlockThreads / THREADS;
    const auto blocks = static_cast<unsigned>((args.rows + kRowsPerBlock - 1) / kRowsPerBlock);
    rmsnorm_kernel<THREADS, T><<<blocks, kBlockThreads, 0, stream>>>(
        static_cast<const T*>(args.x), static_cast<const T*>(args.weight), static_cast<T*>(args.y), args.rows,
        args.cols, args.eps);
    check_launch("rmsnorm_kernel");
  });
}

}  // namespace

kbench::Variant<RmsNormArgs> rmsnorm_warp_row() {
  kbench::Variant<RmsNormArgs> v;
  v.name = "warp_row";
  v.description = "one warp per row, fp32 sum of squares by shuffles, 8 rows per 256-thread block";
  v.launch = launch<32>;
  return v;
}

kbench::Variant<RmsNormArgs> rmsnorm_block_row() {
  kbench::Variant<RmsNormArgs> v;
  v.name = "block_row";
  v.role = kbench::VariantRole::baseline;
  v.description = "the simple baseline: one 256-thread block per row";
  v.launch = launch<kBlockThreads>;
  return v;
}

}  // namespace example
