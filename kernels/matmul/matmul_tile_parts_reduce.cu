// The tail split's second kernel (launch_wgmma_tma_tail_split): each tail tile's fp32 parts added
// in split order and written, rounded, to the tile's place in C.
//
// The parts are laid out [split][tail tile][128 rows × tile_n], so a thread owns four adjacent
// elements of one tile (a float4 of every part, the same offset in each), loads its parts four at
// a time before adding them, and writes its four elements as one 8-byte store where they lie inside
// C (N is a multiple of 8 wherever the TMA kernel runs, so four columns from a multiple of 4 are
// inside N together). The order of the additions is fixed: a call's result never varies.
#include "kernels/matmul/matmul_kernels.hpp"

#include "harness/device/cuda_check.hpp"
#include "kernels/common/launch_attributes.cuh"
#include "kernels/common/dtype_convert.cuh"
#include "kernels/matmul/matmul_device.cuh"

#include <cstdint>
#include <stdexcept>
#include <string>

namespace kbench::matmul {

namespace {

constexpr int kThreads = 256;
constexpr int kPartsInFlight = 4;

__device__ __forceinline__ void add(float4& x, float4 y) {
  x.x += y.x;
  x.y += y.y;
  x.z += y.z;
  x.w += y.w;
}

template <typename T>
__global__ void __launch_bounds__(kThreads)
    tile_parts_reduce_kernel(const float* __restrict__ parts, T* __restrict__ c, int m, int n, int tile_n,
                             int whole_tiles, int tail_tiles, int splits, TileOrder order) {
  const int tile_elements = kWgmmaTileM * tile_n;
  const std::int64_t quads = static_cast<std::int64_t>(tail_tiles) * tile_elements / 4;
  const std::int64_t quad = static_cast<std::int64_t>(blockIdx.x) * kThreads + threadIdx.x;
  wait_for_primary();
  if (quad >= quads) return;
  const int t = static_cast<int>(quad * 4 / tile_elements);
  const int within = static_cast<int>(quad * 4 - static_cast<std::int64_t>(t) * tile_elements);
  const TileCoord coord = ordered_tile(whole_tiles + t, ceil_div(m, kWgmmaTileM), ceil_div(n, tile_n), order);
  const int row = coord.row * kWgmmaTileM + within / tile_n;
  const int col = coord.col * tile_n + within % tile_n;
  if (row >= m || col >= n) return;
  const std::int64_t part_stride = static_cast<std::int64_t>(tail_tiles) * tile_elements;
  const float4* first = reinterpret_cast<const float4*>(parts + static_cast<std::int64_t>(t) * tile_elements + within);
  float4 sum = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  for (int s = 0; s < splits; s += kPartsInFlight) {
    float4 part[kPartsInFlight];
#pragma unroll
    for (int j = 0; j < kPartsInFlight; ++j) {
      part[j] = s + j < splits ? __ldcg(first + (s + j) * part_stride / 4) : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    }
#pragma unroll
    for (int j = 0; j < kPartsInFlight; ++j) add(sum, part[j]);
  }
  const uint2 packed{pack_pair<T>(sum.x, sum.y), pack_pair<T>(sum.z, sum.w)};
  *reinterpret_cast<uint2*>(c + static_cast<std::int64_t>(row) * n + col) = packed;
}

template <typename T>
void launch_reduce(const float* parts, T* c, Dims dims, int tile_n, const TailSplit& plan, cudaStream_t stream) {
  if (dims.n % 8 != 0 || tile_n % 64 != 0 || plan.tail_tiles < 1 || plan.splits < 1) {
    throw std::invalid_argument("launch_tile_parts_reduce: needs N a multiple of 8 (got " + std::to_string(dims.n) +
                                "), tiles a multiple of 64 wide and a plan with a tail");
  }
  const std::int64_t quads = static_cast<std::int64_t>(plan.tail_tiles) * kWgmmaTileM * tile_n / 4;
  const auto blocks = static_cast<unsigned>((quads + kThreads - 1) / kThreads);
  launch_dependent<tile_parts_reduce_kernel<T>>(dim3(blocks), dim3(kThreads), 0, stream, parts, c, dims.m, dims.n,
                                               tile_n, plan.whole_tiles, plan.tail_tiles, plan.splits, plan.order);
}

}  // namespace

void launch_tile_parts_reduce(const float* parts, __half* c, Dims dims, int tile_n, const TailSplit& plan,
                              cudaStream_t stream) {
  launch_reduce(parts, c, dims, tile_n, plan, stream);
}

void launch_tile_parts_reduce(const float* parts, __nv_bfloat16* c, Dims dims, int tile_n, const TailSplit& plan,
                              cudaStream_t stream) {
  launch_reduce(parts, c, dims, tile_n, plan, stream);
}

}  // namespace kbench::matmul
