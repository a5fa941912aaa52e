// sum_inner / max_inner over many rows shorter than two 16-byte vectors (16-bit 1-15 columns,
// fp32 1-7): kernels/sum/NOTES.md, "vector_rows".
//
// R consecutive rows are exactly V whole 16-byte vectors (kernels/common/vector_row_groups.hpp),
// so in an aligned tensor a lane owns R whole rows and reduces them in registers, with no shuffle
// and no row that straddles two lanes. Lane l of a warp owns groups l, l + 32, ... of the warp's
// tile. Read straight from memory, one load instruction of the warp would take 32 vectors V x 16
// bytes apart (half a sector each at V odd); instead the warp copies its tile (one contiguous
// stretch) into its own slice of shared memory with coalesced 16-byte loads, __syncwarp, and each
// lane reads its V vectors from there (V odd: no bank conflict). At V = 1 (16-bit 1, 2, 4, 8
// columns, fp32 1, 2, 4) the coalesced load already hands each lane its own group: no staging.
// A group's R results are R consecutive outputs, written as one 2-16-byte store, so a warp's
// store instruction covers 32 consecutive groups' outputs. The tensor's last rows % R rows go a
// thread per row through the last warp's first lanes.
#include "kernels/sum/reduce_ops.cuh"
#include "kernels/sum/sum_kernels.hpp"

#include "harness/device/cuda_check.hpp"

#include <cstdint>
#include <stdexcept>

namespace kbench::sum {

namespace {

constexpr int kVectorRowsBlock = 128;
constexpr int kVectorRowsWarps = kVectorRowsBlock / 32;

/// Blocks of 128 per SM that the register cap allows at least: 8 (64 registers) while a lane's
/// tile is at most 8 vectors, 6 (80) up to 11, 5 (96) up to 15. ptxas (sm_90, CUDA 13.0) uses 33-48
/// registers up to 8 vectors, 49 / 57 / 66 / 74 at V = 9 / 11 / 13 / 15, no spills, no stack;
/// shared memory (512 x spans x V bytes per warp) allows at least as many blocks.
constexpr int vector_rows_min_blocks(int lane_vectors) {
  return lane_vectors <= 8 ? 8 : lane_vectors <= 11 ? 6 : 5;
}

/// sums[r] = the fold of row r of the R whole rows that a group's V vectors hold.
template <typename T, int kCols, int kGroupRows, int kVectors, typename Op>
__device__ __forceinline__ void fold_group(const uint4 (&group)[kVectors], float (&sums)[kGroupRows], Op op) {
  static_assert(kGroupRows * kCols * sizeof(T) == kVectors * 16, "a group is whole rows in whole vectors");
  T elements[kVectors * kVector<T>];
  memcpy(elements, group, sizeof(elements));
#pragma unroll
  for (int r = 0; r < kGroupRows; ++r) {
    float acc = Op::identity();
#pragma unroll
    for (int j = 0; j < kCols; ++j) acc = op(acc, to_float(elements[r * kCols + j]));
    sums[r] = acc;
  }
}

/// Writes a group's R results to out[0, R) as one store of R x sizeof(T) bytes (2-16; `out` is
/// aligned to that many bytes).
template <typename T, int kGroupRows>
__device__ __forceinline__ void store_group(T* __restrict__ out, const float (&sums)[kGroupRows]) {
  constexpr int kBytes = kGroupRows * static_cast<int>(sizeof(T));
  T results[kGroupRows];
#pragma unroll
  for (int r = 0; r < kGroupRows; ++r) results[r] = from_float<T>(sums[r]);
  if constexpr (kBytes == 16) {
    uint4 v;
    memcpy(&v, results, 16);
    *reinterpret_cast<uint4*>(out) = v;
  } else if constexpr (kBytes == 8) {
    uint2 v;
    memcpy(&v, results, 8);
    *reinterpret_cast<uint2*>(out) = v;
  } else if constexpr (kBytes == 4) {
    std::uint32_t v;
    memcpy(&v, results, 4);
    *reinterpret_cast<std::uint32_t*>(out) = v;
  } else {
    static_assert(kBytes == 2, "R x element size is 2, 4, 8 or 16 bytes");
    out[0] = results[0];
  }
}

/// Warp w of the grid takes groups [w x 32 x kSpans, +32 x kSpans); lane l owns the tile's groups
/// l + 32 s, s < kSpans. Groups past `groups` are masked. The last warp of the grid (the one that
/// holds the last group) also takes the `tail_rows` rows after it.
/// kGroupRows, kVectors, kSpans: rows_vector_shape(kCols, sizeof(T)).
template <typename T, int kCols, int kGroupRows, int kVectors, int kSpans, typename Op>
__global__ void __launch_bounds__(kVectorRowsBlock, vector_rows_min_blocks(kSpans * kVectors))
    rows_vector_kernel(const T* __restrict__ in, T* __restrict__ out, std::int64_t groups, std::int64_t warps,
                       int tail_rows, Op op) {
  constexpr int kTileGroups = 32 * kSpans;
  constexpr int kTileVectors = kTileGroups * kVectors;
  constexpr int kLaneVectors = kSpans * kVectors;  // = kTileVectors / 32
  constexpr bool kStaged = kVectors > 1;
  // The warps' tiles; at V = 1 unused (one vector keeps the declaration legal).
  __shared__ uint4 tiles[kStaged ? kVectorRowsWarps * kTileVectors : 1];

  const int lane = static_cast<int>(threadIdx.x % 32);
  const std::int64_t warp = static_cast<std::int64_t>(blockIdx.x) * kVectorRowsWarps + threadIdx.x / 32;
  if (warp >= warps) return;  // the whole warp
  const std::int64_t first_group = warp * kTileGroups;
  const int tile_groups = static_cast<int>(max(min(groups - first_group, static_cast<std::int64_t>(kTileGroups)),
                                               std::int64_t{0}));
  const int tile_vectors = tile_groups * kVectors;
  const uint4* xs = reinterpret_cast<const uint4*>(in) + first_group * kVectors;
  T* ys = out + first_group * kGroupRows;

  // Coalesced: instruction k of the warp reads vectors [32 k, 32 k + 32) of the tile, all issued
  // before any is used.
  uint4 loaded[kLaneVectors];
#pragma unroll
  for (int k = 0; k < kLaneVectors; ++k) {
    const int v = lane + 32 * k;
    loaded[k] = v < tile_vectors ? xs[v] : uint4{};
  }
  if constexpr (kStaged) {
    uint4* tile = tiles + (threadIdx.x / 32) * kTileVectors;
#pragma unroll
    for (int k = 0; k < kLaneVectors; ++k) tile[lane + 32 * k] = loaded[k];
    __syncwarp();
#pragma unroll
    for (int s = 0; s < kSpans; ++s) {
      const int g = lane + 32 * s;
      if (g >= tile_groups) break;
      uint4 group[kVectors];
#pragma unroll
      for (int v = 0; v < kVectors; ++v) group[v] = tile[g * kVectors + v];
      float sums[kGroupRows];
      fold_group<T, kCols>(group, sums, op);
      store_group<T>(ys + static_cast<std::int64_t>(g) * kGroupRows, sums);
    }
  } else {
#pragma unroll
    for (int s = 0; s < kSpans; ++s) {
      const int g = lane + 32 * s;  // vector g of the tile is group g
      if (g >= tile_groups) break;
      const uint4 group[1] = {loaded[s]};
      float sums[kGroupRows];
      fold_group<T, kCols>(group, sums, op);
      store_group<T>(ys + static_cast<std::int64_t>(g) * kGroupRows, sums);
    }
  }

  if (warp == warps - 1 && lane < tail_rows) {
    const std::int64_t row = groups * kGroupRows + lane;
    out[row] = from_float<T>(fold_elements(in + row * kCols, kCols, op));
  }
}

template <typename T, int kCols, typename Op>
void launch_width(const T* in, T* out, std::int64_t rows, Op op, cudaStream_t stream) {
  constexpr RowsVectorShape kShape = rows_vector_shape(kCols, sizeof(T));
  const VectorRowGrid grid = vector_row_grid(rows, kShape, kVectorRowsWarps);
  if (grid.blocks > 0x7FFFFFFF) throw std::invalid_argument("sum vector_rows: too many blocks for a 1-D grid");
  rows_vector_kernel<T, kCols, kShape.group_rows, kShape.vectors, kShape.spans>
      <<<static_cast<unsigned>(grid.blocks), kVectorRowsBlock, 0, stream>>>(in, out, grid.groups, grid.warps,
                                                                            grid.tail_rows, op);
  KBENCH_CHECK_LAUNCH();
}

/// The instantiation for `cols`: only widths of the class (rows_vector_fits) are compiled.
template <typename T, typename Op, int kCols = 1>
void launch_cols(const T* in, T* out, std::int64_t rows, std::int64_t cols, Op op, cudaStream_t stream) {
  if constexpr (rows_vector_fits(kCols, sizeof(T))) {
    if (cols != kCols) return launch_cols<T, Op, kCols + 1>(in, out, rows, cols, op, stream);
    return launch_width<T, kCols>(in, out, rows, op, stream);
  }
  throw std::logic_error("sum vector_rows: a width outside rows_vector_fits");
}

}  // namespace

template <typename T>
void launch_rows_vector(const T* in, T* out, std::int64_t rows, std::int64_t cols, Reduction reduction,
                        cudaStream_t stream) {
  if (rows == 0) return;
  if (!rows_vector_fits(cols, sizeof(T)) || !aligned16(in) || !aligned16(out)) {
    launch_rows_naive(in, out, rows, cols, reduction, stream);  // what auto ran on this class before
    return;
  }
  if (reduction == Reduction::sum) launch_cols<T>(in, out, rows, cols, SumOp{}, stream);
  else launch_cols<T>(in, out, rows, cols, MaxOp{}, stream);
}

template void launch_rows_vector<float>(const float*, float*, std::int64_t, std::int64_t, Reduction, cudaStream_t);
template void launch_rows_vector<__half>(const __half*, __half*, std::int64_t, std::int64_t, Reduction, cudaStream_t);
template void launch_rows_vector<__nv_bfloat16>(const __nv_bfloat16*, __nv_bfloat16*, std::int64_t, std::int64_t,
                                                Reduction, cudaStream_t);

}  // namespace kbench::sum
