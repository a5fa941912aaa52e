#pragma once
/// Device helpers the matmul kernels share: the order in which blocks walk C (tile_order.hpp), and the element
/// conversions of kernels/common/dtype_convert.cuh (every kernel accumulates in fp32 and rounds
/// once, on the store, to the output dtype).

#include "harness/device/device_setup.hpp"
#include "kernels/common/dtype_convert.cuh"
#include "kernels/matmul/matmul_kernels.hpp"
#include "kernels/matmul/tile_order.hpp"

#include <stdexcept>
#include <string>

namespace kbench::matmul {

inline __host__ __device__ int ceil_div(int x, int y) { return (x + y - 1) / y; }

/// The current device's SM count, read once (kbench uses one device per process): the launchers
/// pick small-problem tiles by it.
inline int launch_sm_count() {
  static const int count = current_sm_count();
  return count;
}

/// Throws std::invalid_argument unless 1 <= splits <= kMaxSplitK (the split-K launchers' contract).
inline void check_split_count(const char* launcher, int splits) {
  if (splits < 1 || splits > kMaxSplitK) {
    throw std::invalid_argument(std::string(launcher) + ": splits must be in [1, " + std::to_string(kMaxSplitK) +
                                "], got " + std::to_string(splits));
  }
}

/// A split-K block's view of its product (fp32 kernels on a tiles × splits grid): block row y of
/// the grid takes K range [y·k_per_split, (y + 1)·k_per_split) clipped to K, as a product of its
/// own: A and B advanced to the range's start (A's rows keep their length k), C to slice y of the
/// M×N workspace. Returns the range's length (0 for an empty range, which then writes zeros).
__device__ __forceinline__ int enter_k_split(const float* __restrict__& a, const float* __restrict__& b,
                                             float* __restrict__& c, int m, int n, int k,
                                             int k_per_split) {
  const int k_begin = min(k, static_cast<int>(blockIdx.y) * k_per_split);
  a += k_begin;
  b += static_cast<long long>(k_begin) * n;
  c += static_cast<long long>(blockIdx.y) * m * n;
  return min(k - k_begin, k_per_split);
}

}  // namespace kbench::matmul
