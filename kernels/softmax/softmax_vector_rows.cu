// Softmax of many rows shorter than two 16-byte vectors whose byte width is not a multiple of 16
// (16-bit 1-15 columns but 8, fp32 1, 2, 3, 5, 6, 7): kernels/softmax/NOTES.md, "vector_rows".
//
// R = 16 / gcd(row bytes, 16) consecutive rows are exactly V whole 16-byte vectors (V odd:
// 16-bit 7 columns, 8 rows in 7 vectors), so in an aligned tensor a lane owns R whole rows and
// moves them with V 16-byte loads and V 16-byte stores: all math in registers, no shuffles, no
// load that straddles a row or a lane. Lane l of a warp owns groups l, l + 32, ... of the warp's
// tile, so one load instruction of the warp straight from global memory would read 32 vectors
// V x 16 bytes apart, each half a 32-byte sector (that direct form measured 41-91 % of the copy
// roof on the H100 against this one's 96-114 %: NOTES.md). Instead the warp copies its tile (one
// contiguous stretch, vector_rows_shape) into its own slice of shared memory with coalesced
// 16-byte loads, __syncwarp, each lane reads its V vectors (V odd: no bank conflict), computes and
// writes them back, __syncwarp, and the tile leaves with coalesced 16-byte stores
// (softmax_warp_tile.cuh). No block barrier: warps never wait for each other.
// The tensor's last rows % R rows go row by row through the last warp's first lanes.
#include "kernels/softmax/softmax_auto.hpp"
#include "kernels/softmax/softmax_kernels.hpp"

#include "harness/device/cuda_check.hpp"
#include "kernels/softmax/softmax_device.cuh"
#include "kernels/softmax/softmax_warp_tile.cuh"

#include <cstdint>
#include <stdexcept>

namespace kbench::softmax {

namespace {

constexpr int kVectorRowsBlock = 128;
constexpr int kVectorRowsWarps = kVectorRowsBlock / 32;

/// Blocks of 128 per SM that the register cap aims at, the most that the kernel holds without
/// spilling (ptxas, sm_90): 8 (64 registers, 32 warps) up to 5 vectors a group, 6 (80) at 7
/// vectors of rows up to 7 columns, 5 (96) at 16-bit 14 columns (7 vectors), 4 (128) at 9-11, 3
/// (168) at 13-15, whose 52-60 registers of data alone leave no room under 128.
constexpr int vector_rows_min_blocks(int vectors, int cols) {
  if (vectors <= 5) return 8;
  if (vectors <= 7) return cols <= 7 ? 6 : 5;
  return vectors <= 11 ? 4 : 3;
}

/// y = softmax(v) over one row held in registers.
template <int kCols>
__device__ __forceinline__ void softmax_in_registers(float (&v)[kCols]) {
  float row_max = negative_infinity();
#pragma unroll
  for (int j = 0; j < kCols; ++j) {
    v[j] *= kLog2e;  // log2 units: each exponential is one subtract and one ex2
    row_max = fmaxf(row_max, v[j]);
  }
  float sum = 0.0f;
#pragma unroll
  for (int j = 0; j < kCols; ++j) {
    v[j] = fast_exp2(v[j] - row_max);
    sum += v[j];
  }
  const float inverse_sum = fast_reciprocal(sum);
#pragma unroll
  for (int j = 0; j < kCols; ++j) v[j] *= inverse_sum;
}

/// Element e of the 32-bit words a group's vectors hold, widened to float. 16-bit elements stay
/// packed two to a register (an array of T would take a register per element).
template <typename T, int kWords>
__device__ __forceinline__ float word_element(const std::uint32_t (&words)[kWords], int e) {
  if constexpr (sizeof(T) == 4) {
    return __uint_as_float(words[e]);
  } else {
    const auto bits = static_cast<unsigned short>(words[e / 2] >> (16 * (e % 2)));
    T element;
    memcpy(&element, &bits, sizeof(bits));
    return to_float(element);
  }
}

/// Rounds `value` to T and writes it as element e of the words.
template <typename T, int kWords>
__device__ __forceinline__ void set_word_element(std::uint32_t (&words)[kWords], int e, float value) {
  if constexpr (sizeof(T) == 4) {
    words[e] = __float_as_uint(value);
  } else {
    const T element = from_float<T>(value);
    unsigned short bits;
    memcpy(&bits, &element, sizeof(bits));
    const int shift = 16 * (e % 2);
    words[e / 2] = (words[e / 2] & ~(0xFFFFu << shift)) | (std::uint32_t{bits} << shift);
  }
}

/// Softmax of the R whole rows that a group's V vectors hold, written over them.
template <typename T, int kCols, int kGroupRows, int kVectors>
__device__ __forceinline__ void softmax_group(uint4 (&group)[kVectors]) {
  static_assert(kGroupRows * kCols * sizeof(T) == kVectors * 16, "a group is whole rows in whole vectors");
  std::uint32_t words[kVectors * 4];
  memcpy(words, group, sizeof(words));
#pragma unroll
  for (int r = 0; r < kGroupRows; ++r) {
    float v[kCols];
#pragma unroll
    for (int j = 0; j < kCols; ++j) v[j] = word_element<T>(words, r * kCols + j);
    softmax_in_registers<kCols>(v);
#pragma unroll
    for (int j = 0; j < kCols; ++j) set_word_element<T>(words, r * kCols + j, v[j]);
  }
  memcpy(group, words, sizeof(words));
}

/// The tensor's last `tail_rows` (< R) rows, which start at x and y: a lane per row, element by element.
template <typename T, int kCols>
__device__ __forceinline__ void softmax_tail_rows(const T* __restrict__ x, T* __restrict__ y, int tail_rows) {
  const int lane = static_cast<int>(threadIdx.x % 32);
  if (lane >= tail_rows) return;
  float v[kCols];
#pragma unroll
  for (int j = 0; j < kCols; ++j) v[j] = to_float(x[lane * kCols + j]);
  softmax_in_registers<kCols>(v);
#pragma unroll
  for (int j = 0; j < kCols; ++j) y[lane * kCols + j] = from_float<T>(v[j]);
}

/// Warp w of the grid takes groups [w x 32 x kSpans, +32 x kSpans) (a group is R rows in V
/// vectors); lane l owns the tile's groups l + 32 s, s < kSpans. Groups past `groups` are masked.
/// The warp that holds the last group (the last warp of the grid) also takes the `tail_rows` rows
/// after it.
/// kGroupRows, kVectors, kSpans: vector_rows_shape(kCols, sizeof(T)).
template <typename T, int kCols, int kGroupRows, int kVectors, int kSpans>
__global__ void __launch_bounds__(kVectorRowsBlock, vector_rows_min_blocks(kVectors, kCols))
    softmax_vector_rows_kernel(const T* __restrict__ x, T* __restrict__ y, std::int64_t groups, std::int64_t warps,
                               int tail_rows) {
  constexpr int kTileGroups = 32 * kSpans;
  constexpr int kTileVectors = kTileGroups * kVectors;
  constexpr int kLaneVectors = kSpans * kVectors;  // = kTileVectors / 32
  __shared__ uint4 tiles[kVectorRowsWarps * kTileVectors];  // the warps' tiles

  const int lane = static_cast<int>(threadIdx.x % 32);
  const std::int64_t warp = static_cast<std::int64_t>(blockIdx.x) * kVectorRowsWarps + threadIdx.x / 32;
  if (warp >= warps) return;  // the whole warp
  const std::int64_t first_group = warp * kTileGroups;
  const int tile_groups = static_cast<int>(max(min(groups - first_group, static_cast<std::int64_t>(kTileGroups)),
                                               std::int64_t{0}));
  uint4* tile = tiles + (threadIdx.x / 32) * kTileVectors;
  const int tile_vectors = tile_groups * kVectors;
  // Groups start on vectors: the tile is whole vectors.
  const WarpTileSpan span{first_group * kVectors, tile_vectors};
  warp_tile_load<T, kLaneVectors>(tile, x, span);
  __syncwarp();
#pragma unroll
  for (int s = 0; s < kSpans; ++s) {
    const int g = lane + 32 * s;
    if (g >= tile_groups) break;
    uint4 group[kVectors];
#pragma unroll
    for (int v = 0; v < kVectors; ++v) group[v] = tile[g * kVectors + v];
    softmax_group<T, kCols, kGroupRows, kVectors>(group);
#pragma unroll
    for (int v = 0; v < kVectors; ++v) tile[g * kVectors + v] = group[v];
  }
  __syncwarp();
  warp_tile_store<T, kLaneVectors>(tile, y, span);

  if (warp == warps - 1 && tail_rows > 0) {
    const std::int64_t tail = groups * kGroupRows * kCols;
    softmax_tail_rows<T, kCols>(x + tail, y + tail, tail_rows);
  }
}

template <typename T, int kCols>
void launch_width(const T* x, T* y, std::int64_t rows, cudaStream_t stream) {
  constexpr VectorRowsShape kShape = vector_rows_shape(kCols, sizeof(T));
  const VectorRowGrid grid = vector_row_grid(rows, kShape, kVectorRowsWarps);
  if (grid.blocks > 0x7FFFFFFF) throw std::invalid_argument("softmax vector_rows: too many blocks for a 1-D grid");
  softmax_vector_rows_kernel<T, kCols, kShape.group_rows, kShape.vectors, kShape.spans>
      <<<static_cast<unsigned>(grid.blocks), kVectorRowsBlock, 0, stream>>>(x, y, grid.groups, grid.warps,
                                                                             grid.tail_rows);
  KBENCH_CHECK_LAUNCH();
}

/// The instantiation for `cols`: only widths of the class (vector_rows_fits) are compiled.
template <typename T, int kCols = 1>
void launch_cols(const T* x, T* y, std::int64_t rows, std::int64_t cols, cudaStream_t stream) {
  if constexpr (kCols * sizeof(T) < kVectorRowsMaxRowBytes) {
    if (cols != kCols) return launch_cols<T, kCols + 1>(x, y, rows, cols, stream);
    if constexpr (vector_rows_fits(kCols, sizeof(T))) return launch_width<T, kCols>(x, y, rows, stream);
  }
  throw std::logic_error("softmax vector_rows: a width outside vector_rows_fits");
}

}  // namespace

template <typename T>
void launch_vector_rows(const T* x, T* y, std::int64_t rows, std::int64_t cols, cudaStream_t stream) {
  if (!vector_rows_fits(cols, sizeof(T)) || !aligned16(x) || !aligned16(y)) {
    // What auto ran before this kernel: single-element grains in 16-bit, staged tiles in fp32.
    if constexpr (sizeof(T) == 2) launch_grain_rows(x, y, rows, cols, stream);
    else launch_short_rows(x, y, rows, cols, stream);
    return;
  }
  if (rows == 0) return;
  launch_cols<T>(x, y, rows, cols, stream);
}

template void launch_vector_rows<float>(const float*, float*, std::int64_t, std::int64_t, cudaStream_t);
template void launch_vector_rows<__half>(const __half*, __half*, std::int64_t, std::int64_t, cudaStream_t);
template void launch_vector_rows<__nv_bfloat16>(const __nv_bfloat16*, __nv_bfloat16*, std::int64_t, std::int64_t,
                                                cudaStream_t);

}  // namespace kbench::softmax
