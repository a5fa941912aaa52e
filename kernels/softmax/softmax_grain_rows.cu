// Softmax of many short rows of any width, in the way a persistent-reduction kernel of Triton or
// Inductor runs them (kernels/softmax/NOTES.md, "grain_rows"): no shared memory, no barrier, the
// rows in registers from load to store. A group of 1-32 lanes owns a row; lane l loads the row's
// grains l, l + lanes, ... straight from global memory, and the groups of a warp take consecutive
// rows, so a warp's load instruction reads consecutive grains of one row or of several short ones.
//
// A grain is the widest load that never straddles two rows (grain_rows_shape): for odd widths one
// element. warp_rows loads 4-byte words, and a 16-bit row of odd width shares its end words with
// its neighbours: those went by 2-byte accesses on a divergent path. Here every load of a warp is
// the same width and either wholly in its row or wholly masked.
#include "kernels/softmax/softmax_auto.hpp"
#include "kernels/softmax/softmax_kernels.hpp"

#include "harness/device/cuda_check.hpp"
#include "kernels/softmax/softmax_device.cuh"

#include <cstdint>
#include <stdexcept>

namespace kbench::softmax {

namespace {

constexpr int kGrainRowsBlock = 256;

/// The register type of a grain of `kBytes` bytes.
template <int kBytes> struct GrainBits;
template <> struct GrainBits<2> { using type = std::uint16_t; };
template <> struct GrainBits<4> { using type = std::uint32_t; };
template <> struct GrainBits<8> { using type = uint2; };
template <> struct GrainBits<16> { using type = uint4; };

/// Reduces `v` over the kLanes lanes of this lane's group (an aligned run of the warp's lanes);
/// every lane of the warp calls it.
template <int kLanes, typename Op>
__device__ __forceinline__ float group_allreduce(float v, Op op) {
#pragma unroll
  for (int offset = kLanes / 2; offset > 0; offset >>= 1) v = op(v, __shfl_xor_sync(0xffffffffu, v, offset));
  return v;
}

/// Warp w of the grid takes rows [w x kGroups x kRows, +kGroups x kRows): in step r, group g takes
/// row r x kGroups + g of them. Lane l of a group holds its row's grains l + k x kLanes, k <
/// kGrains. Rows past `rows` and grains past the row's end are masked: their lanes load and store
/// nothing but still take part in the shuffles. Offsets are 32-bit from the warp's first row.
template <typename T, int kGrain, int kLanes, int kGrains, int kRows>
__global__ void __launch_bounds__(kGrainRowsBlock)
    softmax_grain_rows_kernel(const T* __restrict__ x, T* __restrict__ y, std::int64_t rows, int cols) {
  using Grain = typename GrainBits<kGrain * static_cast<int>(sizeof(T))>::type;
  using Place = LaneGroupRows<kGrainRowsBlock, kLanes, kRows>;
  constexpr int kGroups = Place::kGroups;
  const Place place(rows);
  if (place.warp_row >= rows) return;  // the whole warp: no shuffle partner leaves alone
  const int lane = place.lane, group = place.group, rows_here = place.rows_here;
  const std::int64_t warp_row = place.warp_row;
  const int row_grains = cols / kGrain;
  const Grain* xs = reinterpret_cast<const Grain*>(x + warp_row * cols);
  Grain* ys = reinterpret_cast<Grain*>(y + warp_row * cols);

  auto slot = [&](int r, int k) { return (r * kGroups + group) * row_grains + lane + k * kLanes; };
  auto valid = [&](int r, int k) { return r * kGroups + group < rows_here && lane + k * kLanes < row_grains; };

  Grain held[kRows][kGrains];
#pragma unroll
  for (int r = 0; r < kRows; ++r) {
#pragma unroll
    for (int k = 0; k < kGrains; ++k) held[r][k] = valid(r, k) ? xs[slot(r, k)] : Grain{};
  }

#pragma unroll
  for (int r = 0; r < kRows; ++r) {
    // e^(x - max) = 2^(x log2 e - max log2 e): one fma and one ex2 per element.
    float v[kGrains][kGrain];
    float row_max = negative_infinity();
#pragma unroll
    for (int k = 0; k < kGrains; ++k) {
      T part[kGrain];
      memcpy(part, &held[r][k], sizeof(Grain));
#pragma unroll
      for (int j = 0; j < kGrain; ++j) {
        v[k][j] = to_float(part[j]);
        if (valid(r, k)) row_max = fmaxf(row_max, v[k][j]);
      }
    }
    const float shift = -group_allreduce<kLanes>(row_max, MaxOp{}) * kLog2e;
    float sum = 0.0f;
#pragma unroll
    for (int k = 0; k < kGrains; ++k) {
#pragma unroll
      for (int j = 0; j < kGrain; ++j) {
        v[k][j] = valid(r, k) ? fast_exp2(fmaf(v[k][j], kLog2e, shift)) : 0.0f;
        sum += v[k][j];
      }
    }
    const float inverse_sum = fast_reciprocal(group_allreduce<kLanes>(sum, SumOp{}));
#pragma unroll
    for (int k = 0; k < kGrains; ++k) {
      if (!valid(r, k)) continue;
      T part[kGrain];
#pragma unroll
      for (int j = 0; j < kGrain; ++j) part[j] = from_float<T>(v[k][j] * inverse_sum);
      Grain out;
      memcpy(&out, part, sizeof(Grain));
      ys[slot(r, k)] = out;
    }
  }
}

template <typename T, int kGrain, int kLanes, int kGrains>
void launch_shape(const T* x, T* y, std::int64_t rows, std::int64_t cols, int shape_rows, cudaStream_t stream) {
  constexpr int kGrainBytes = kGrain * static_cast<int>(sizeof(T));
  constexpr int kRows = kGrains * kGrainBytes < kGrainRowsBytesInFlight ? kGrainRowsBytesInFlight / (kGrains * kGrainBytes) : 1;
  if (shape_rows != kRows) throw std::logic_error("softmax grain_rows: rows per group differ from grain_rows_shape's");
  constexpr std::int64_t kRowsPerBlock = kGrainRowsBlock / kLanes * kRows;
  const std::int64_t blocks = (rows + kRowsPerBlock - 1) / kRowsPerBlock;
  if (blocks > 0x7FFFFFFF) throw std::invalid_argument("softmax grain_rows: too many blocks for a 1-D grid");
  softmax_grain_rows_kernel<T, kGrain, kLanes, kGrains, kRows>
      <<<static_cast<unsigned>(blocks), kGrainRowsBlock, 0, stream>>>(x, y, rows, static_cast<int>(cols));
  KBENCH_CHECK_LAUNCH();
}

/// The instantiation for (grain, lanes, kGrains): only the shapes grain_rows_shape can give are
/// compiled (grain_rows_reachable).
template <typename T, int kGrain, int kLanes, int kGrains = 1>
void launch_grains(const T* x, T* y, std::int64_t rows, std::int64_t cols, const GrainRowsShape& s,
                   cudaStream_t stream) {
  if constexpr (kGrains <= 8) {
    if (s.grains == kGrains) {
      if constexpr (grain_rows_reachable(sizeof(T), kGrain, kLanes, kGrains)) {
        return launch_shape<T, kGrain, kLanes, kGrains>(x, y, rows, cols, s.rows, stream);
      }
    } else {
      return launch_grains<T, kGrain, kLanes, kGrains + 1>(x, y, rows, cols, s, stream);
    }
  }
  throw std::logic_error("softmax grain_rows: a shape grain_rows_shape does not give");
}

template <typename T, int kGrain>
void launch_lanes(const T* x, T* y, std::int64_t rows, std::int64_t cols, const GrainRowsShape& s,
                  cudaStream_t stream) {
  switch (s.lanes) {
    case 1: return launch_grains<T, kGrain, 1>(x, y, rows, cols, s, stream);
    case 2: return launch_grains<T, kGrain, 2>(x, y, rows, cols, s, stream);
    case 4: return launch_grains<T, kGrain, 4>(x, y, rows, cols, s, stream);
    case 8: return launch_grains<T, kGrain, 8>(x, y, rows, cols, s, stream);
    case 16: return launch_grains<T, kGrain, 16>(x, y, rows, cols, s, stream);
    case 32: return launch_grains<T, kGrain, 32>(x, y, rows, cols, s, stream);
    default: throw std::logic_error("softmax grain_rows: lanes per row not a power of two up to 32");
  }
}

template <typename T>
void launch_for_shape(const T* x, T* y, std::int64_t rows, std::int64_t cols, const GrainRowsShape& s,
                      cudaStream_t stream) {
  switch (s.grain) {
    case 1: return launch_lanes<T, 1>(x, y, rows, cols, s, stream);
    case 2: return launch_lanes<T, 2>(x, y, rows, cols, s, stream);
    case 4: return launch_lanes<T, 4>(x, y, rows, cols, s, stream);
    default: break;
  }
  if constexpr (sizeof(T) == 2) {
    if (s.grain == 8) return launch_lanes<T, 8>(x, y, rows, cols, s, stream);
  }
  throw std::logic_error("softmax grain_rows: a grain wider than 16 bytes");
}

/// The largest power of two, up to 16, dividing the address.
int alignment_of(const void* p) {
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  int alignment = 16;
  while (alignment > 1 && a % static_cast<std::uintptr_t>(alignment) != 0) alignment /= 2;
  return alignment;
}

}  // namespace

template <typename T>
void launch_grain_rows(const T* x, T* y, std::int64_t rows, std::int64_t cols, cudaStream_t stream) {
  if (cols > kGrainRowsMaxCols) {
    launch_short_rows(x, y, rows, cols, stream);
    return;
  }
  const int alignment = alignment_of(x) < alignment_of(y) ? alignment_of(x) : alignment_of(y);
  launch_for_shape(x, y, rows, cols, grain_rows_shape(cols, sizeof(T), alignment), stream);
}

template void launch_grain_rows<float>(const float*, float*, std::int64_t, std::int64_t, cudaStream_t);
template void launch_grain_rows<__half>(const __half*, __half*, std::int64_t, std::int64_t, cudaStream_t);
template void launch_grain_rows<__nv_bfloat16>(const __nv_bfloat16*, __nv_bfloat16*, std::int64_t, std::int64_t,
                                               cudaStream_t);

}  // namespace kbench::softmax
