// Inner-axis reductions of short-to-medium rows of any width: the flat array read as coalesced
// 16-byte vectors, each vector cut at its row ends in registers, and the pieces of rows that cross
// vectors joined out of shared memory.
#include "kernels/common/flat_tile.hpp"
#include "kernels/sum/reduce_ops.cuh"
#include "kernels/sum/sum_kernels.hpp"

#include "harness/device/cuda_check.hpp"

#include <stdexcept>

namespace kbench::sum {

namespace {

constexpr int kFlatBlock = 256;
constexpr int kFlatUnroll = 4;  ///< 16-byte loads each thread issues before folding any: 16 KiB per block

/// Vector v (kVector<T> elements from element v * kVector<T>) of a tile of n elements, one 16-byte
/// load when the tile is 16-byte aligned and the vector whole, element by element otherwise
/// (elements past n read as zero bits; the fold never uses them).
template <typename T, bool kAligned>
__device__ __forceinline__ uint4 load_vector(const T* __restrict__ tile, int v, int n) {
  const int first = v * kVector<T>;
  if (kAligned && first + kVector<T> <= n) return reinterpret_cast<const uint4*>(tile)[v];
  T elements[kVector<T>];
#pragma unroll
  for (int i = 0; i < kVector<T>; ++i) elements[i] = first + i < n ? tile[first + i] : from_float<T>(0.0f);
  uint4 packed;
  memcpy(&packed, elements, 16);
  return packed;
}

/// Cuts vector v of the tile at the ends of its rows (rows of `cols` elements, the tile's element
/// e in row e / cols) and records two pieces for the join: head[v], the vector's part of the row
/// it starts in, and tail[v], its part of the row still open at its end (the whole vector when no
/// row ends inside it). A row that begins and ends inside this vector is written to out here.
/// Rows at least a vector long (kWide) end at most once per vector, so that path keeps both
/// pieces with selects and no branch; shorter rows walk the elements.
template <typename T, bool kWide, typename Op>
__device__ __forceinline__ void cut_vector(uint4 packed, int v, int n, int cols, T* __restrict__ tile_out,
                                           float* head, float* tail, Op op) {
  T elements[kVector<T>];
  memcpy(elements, &packed, 16);
  const int first = v * kVector<T>;
  int row = first / cols;
  const int offset = first - row * cols;
  if constexpr (kWide) {
    const int left_in_row = cols - offset;  // elements of `row` from this vector's first one on, >= 1
    float h = Op::identity(), t = Op::identity();
#pragma unroll
    for (int i = 0; i < kVector<T>; ++i) {
      const float x = first + i < n ? to_float(elements[i]) : Op::identity();
      if (i < left_in_row) h = op(h, x);
      else t = op(t, x);
    }
    if (offset == 0 && left_in_row <= kVector<T>) tile_out[row] = from_float<T>(h);  // cols == kVector: a whole row
    head[v] = h;
    tail[v] = left_in_row > kVector<T> ? h : t;
  } else {
    float open = Op::identity(), h = Op::identity();
    bool ended = false;
    int position = offset;
#pragma unroll
    for (int i = 0; i < kVector<T>; ++i) {
      if (first + i < n) {
        open = op(open, to_float(elements[i]));
        if (++position == cols) {  // `row` ends at element i
          if (i + 1 >= cols) tile_out[row] = from_float<T>(open);  // it began in this vector
          else h = open;                                           // it began in an earlier one
          open = Op::identity();
          position = 0;
          ++row;
          ended = true;
        }
      }
    }
    head[v] = ended ? h : open;
    tail[v] = open;
  }
}

/// Block b reduces rows [b * rows_per_tile, +rows_per_tile): one contiguous stretch of the flat
/// array (whole rows; 16-byte aligned when the tensor is, flat_tile.hpp). Each thread loads
/// vectors t, t + 256, ... with kFlatUnroll loads in flight, the same coalesced pattern as a copy,
/// whatever the row width, and cuts them at their row ends (cut_vector). After one barrier a group
/// of `lanes` lanes joins each row that crosses vectors: the tail piece of its first vector and
/// the head pieces of the others, in vector order (the same order whichever thread ran first).
template <typename T, bool kAligned, bool kWide, typename Op>
__global__ void __launch_bounds__(kFlatBlock)
    rows_flat_kernel(const T* __restrict__ in, T* __restrict__ out, std::int64_t rows, int cols, int rows_per_tile,
                     int lanes, Op op) {
  extern __shared__ float flat_rows_pieces[];
  const std::int64_t first_row = static_cast<std::int64_t>(blockIdx.x) * rows_per_tile;
  const int tile_rows = static_cast<int>(min(static_cast<std::int64_t>(rows_per_tile), rows - first_row));
  const int n = tile_rows * cols;
  const int vectors = (n + kVector<T> - 1) / kVector<T>;
  float* head = flat_rows_pieces;
  float* tail = flat_rows_pieces + (rows_per_tile * cols + kVector<T> - 1) / kVector<T>;
  const T* tile = in + first_row * cols;
  T* tile_out = out + first_row;

  for (int base = 0; base < vectors; base += kFlatUnroll * kFlatBlock) {
    uint4 held[kFlatUnroll];
#pragma unroll
    for (int u = 0; u < kFlatUnroll; ++u) {
      const int v = base + u * kFlatBlock + static_cast<int>(threadIdx.x);
      if (v < vectors) held[u] = load_vector<T, kAligned>(tile, v, n);
    }
#pragma unroll
    for (int u = 0; u < kFlatUnroll; ++u) {
      const int v = base + u * kFlatBlock + static_cast<int>(threadIdx.x);
      if (v < vectors) cut_vector<T, kWide>(held[u], v, n, cols, tile_out, head, tail, op);
    }
  }
  __syncthreads();

  // Every lane runs the same rounds, so the group's full-mask shuffles stay valid.
  const int groups = kFlatBlock / lanes;
  const int group = static_cast<int>(threadIdx.x) / lanes;
  const int lane = static_cast<int>(threadIdx.x) % lanes;
  for (int base = 0; base < tile_rows; base += groups) {
    const int r = base + group;
    float acc = Op::identity();
    bool crosses = false;
    if (r < tile_rows) {
      const int v_first = r * cols / kVector<T>;
      const int v_last = (r * cols + cols - 1) / kVector<T>;
      crosses = v_first < v_last;
      if (crosses) {
        if (lane == 0) acc = tail[v_first];
        for (int v = v_first + 1 + lane; v <= v_last; v += lanes) acc = op(acc, head[v]);
      }
    }
    for (int offset = lanes / 2; offset > 0; offset >>= 1) acc = op(acc, __shfl_xor_sync(0xffffffffu, acc, offset));
    if (crosses && lane == 0) tile_out[r] = from_float<T>(acc);
  }
}

template <typename T, bool kAligned, bool kWide, typename Op>
void launch_flat(const T* in, T* out, std::int64_t rows, std::int64_t cols, Op op, cudaStream_t stream) {
  const std::int64_t rows_per_tile = tile_rows(cols, sizeof(T));
  const std::int64_t tiles = tile_count(rows, rows_per_tile);
  if (tiles > 0x7FFFFFFF) throw std::invalid_argument("sum flat rows: too many tiles for a 1-D grid");
  const auto bytes = static_cast<std::size_t>(flat_rows_piece_bytes(cols, sizeof(T)));
  const int lanes = flat_rows_join_lanes(rows_per_tile);
  rows_flat_kernel<T, kAligned, kWide><<<static_cast<unsigned>(tiles), kFlatBlock, bytes, stream>>>(
      in, out, rows, static_cast<int>(cols), static_cast<int>(rows_per_tile), lanes, op);
  KBENCH_CHECK_LAUNCH();
}

template <typename T, typename Op>
void rows_flat(const T* in, T* out, std::int64_t rows, std::int64_t cols, Op op, cudaStream_t stream) {
  const bool aligned = aligned16(in);
  const bool wide = cols >= kVector<T>;
  if (aligned && wide) launch_flat<T, true, true>(in, out, rows, cols, op, stream);
  else if (aligned) launch_flat<T, true, false>(in, out, rows, cols, op, stream);
  else if (wide) launch_flat<T, false, true>(in, out, rows, cols, op, stream);
  else launch_flat<T, false, false>(in, out, rows, cols, op, stream);
}

}  // namespace

template <typename T>
void launch_rows_flat(const T* in, T* out, std::int64_t rows, std::int64_t cols, Reduction reduction,
                      cudaStream_t stream) {
  if (cols > kFlatRowsMaxCols) {
    launch_rows_parallel(in, out, rows, cols, reduction, stream);  // 8 such rows pass a 32 KiB tile
    return;
  }
  if (rows == 0) return;
  if (reduction == Reduction::sum) rows_flat(in, out, rows, cols, SumOp{}, stream);
  else rows_flat(in, out, rows, cols, MaxOp{}, stream);
}

template void launch_rows_flat<float>(const float*, float*, std::int64_t, std::int64_t, Reduction, cudaStream_t);
template void launch_rows_flat<__half>(const __half*, __half*, std::int64_t, std::int64_t, Reduction, cudaStream_t);
template void launch_rows_flat<__nv_bfloat16>(const __nv_bfloat16*, __nv_bfloat16*, std::int64_t, std::int64_t,
                                              Reduction, cudaStream_t);

}  // namespace kbench::sum
