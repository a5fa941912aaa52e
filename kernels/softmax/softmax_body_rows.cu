// Softmax of many short rows of any width (16-bit up to 2048 columns, fp32 up to 1024) with
// 16-byte loads (kernels/softmax/NOTES.md, "body_rows"): grain_rows' structure (a group of lanes
// per row, the groups of a warp on consecutive rows, every load issued before the first shuffle,
// no shared memory, no barrier), but a row of odd width is not read element by element. Each row
// is cut where the tensor's 16-byte boundaries fall: its aligned body goes by 16-byte vectors, 1-8
// per lane, and the head before it and the tail after it (at most 7 16-bit or 3 fp32 elements
// each) by element loads spread over the group's lanes. Where the row starts moves by cols elements from row to row, so
// the cut is computed per row from the row's first element; x and y must be 16-byte aligned.
#include "kernels/softmax/softmax_auto.hpp"
#include "kernels/softmax/softmax_kernels.hpp"

#include "harness/device/cuda_check.hpp"
#include "kernels/common/row_ring.cuh"
#include "kernels/softmax/softmax_device.cuh"

#include <cstdint>
#include <stdexcept>

namespace kbench::softmax {

namespace {

constexpr int kBodyRowsBlock = 256;

/// Where one row's elements lie, from its first element's phase (its offset in elements from a
/// 16-byte boundary): `head` elements up to the first boundary, `vectors` whole 16-byte vectors of
/// kVec elements, then the tail. Edge slot i (< head + tail) is element i of the row when i <
/// head, else the tail's element i - head, at i + kVec x vectors.
template <int kVec>
struct RowCut {
  int head;
  int vectors;
  int edges;  ///< head + tail
  __device__ __forceinline__ int edge_element(int i) const { return i < head ? i : i + kVec * vectors; }
};

template <int kVec>
__device__ __forceinline__ RowCut<kVec> cut_row(int start_phase, int cols) {
  RowCut<kVec> cut;
  cut.head = (kVec - start_phase) & (kVec - 1);
  cut.vectors = (cols - cut.head) / kVec;
  cut.edges = cols - kVec * cut.vectors;
  return cut;
}

/// Lanes of up to this many body vectors a row hold the row's values as floats from the max to the
/// write (one ex2 an element); lanes of more keep only the loaded vectors (the file's kernel).
constexpr int kBodyRowsStoredMaxVectors = 4;

/// Turns a lane's edge values (log2 units) into 2^(value - row_max) where `inside(e)`, 0 elsewhere,
/// and returns their sum.
template <int kEdges, int kSlots, typename Inside>
__device__ __forceinline__ float edge_exponentials(float (&e_v)[kSlots], float row_max, Inside inside) {
  float sum = 0.0f;
#pragma unroll
  for (int e = 0; e < kEdges; ++e) {
    e_v[e] = inside(e) ? fast_exp2(e_v[e] - row_max) : 0.0f;
    sum += e_v[e];
  }
  return sum;
}

/// Stores a lane's edge exponentials times `scale` at their elements of the row at `row`.
template <int kEdges, typename T, int kSlots, int kVec>
__device__ __forceinline__ void store_edges(T* row, const float (&e_v)[kSlots], float scale, const RowCut<kVec>& cut,
                                            int lane, bool live, int lanes) {
#pragma unroll
  for (int e = 0; e < kEdges; ++e) {
    const int slot = lane + e * lanes;
    if (live && slot < cut.edges) row[cut.edge_element(slot)] = from_float<T>(e_v[e] * scale);
  }
}

/// Warp w of the grid takes rows [w x kGroups x kRows, +kGroups x kRows): in step r, group g takes
/// row r x kGroups + g of them. Lane l of a group holds its row's body vectors l + k x kLanes, k <
/// kVectors (each k a contiguous stretch of the row), and edge slots l + e x kLanes, e < kEdges.
/// Rows past `rows`, vectors past the body and slots past the edges are masked: their lanes load
/// and store nothing but still take part in the shuffles. Offsets are 32-bit from the warp's first
/// row; `phase0` is that row's first element's offset from a 16-byte boundary (x and y are 16-byte
/// aligned, so it is the same in both).
template <typename T, int kLanes, int kVectors, int kEdges, int kRows>
__global__ void __launch_bounds__(kBodyRowsBlock)
    softmax_body_rows_kernel(const T* __restrict__ x, T* __restrict__ y, std::int64_t rows, int cols) {
  constexpr int kVec = kVector<T>;
  using Place = LaneGroupRows<kBodyRowsBlock, kLanes, kRows>;
  constexpr int kGroups = Place::kGroups;
  constexpr int kSlots = kEdges > 0 ? kEdges : 1;
  const Place place(rows);
  if (place.warp_row >= rows) return;  // the whole warp: no shuffle partner leaves alone
  const int lane = place.lane, group = place.group, rows_here = place.rows_here;
  const std::int64_t warp_row = place.warp_row;
  const T* xs = x + warp_row * cols;
  T* ys = y + warp_row * cols;
  const int phase0 = static_cast<int>((warp_row * cols) & (kVec - 1));

  auto start_of = [&](int r) { return (r * kGroups + group) * cols; };
  auto live = [&](int r) { return r * kGroups + group < rows_here; };
  auto vector_of = [&](int k) { return lane + k * kLanes; };

  uint4 body[kRows][kVectors];
  T edge[kRows][kSlots];
#pragma unroll
  for (int r = 0; r < kRows; ++r) {
    const int start = start_of(r);
    const RowCut<kVec> cut = cut_row<kVec>((phase0 + start) & (kVec - 1), cols);
#pragma unroll
    for (int k = 0; k < kVectors; ++k) {
      body[r][k] = live(r) && vector_of(k) < cut.vectors
                       ? *reinterpret_cast<const uint4*>(xs + start + cut.head + kVec * vector_of(k))
                       : make_uint4(0u, 0u, 0u, 0u);
    }
#pragma unroll
    for (int e = 0; e < kEdges; ++e) {
      const int slot = lane + e * kLanes;
      edge[r][e] = live(r) && slot < cut.edges ? xs[start + cut.edge_element(slot)] : T{};
    }
  }

#pragma unroll
  for (int r = 0; r < kRows; ++r) {
    const int start = start_of(r);
    const RowCut<kVec> cut = cut_row<kVec>((phase0 + start) & (kVec - 1), cols);
    bool body_valid[kVectors];
#pragma unroll
    for (int k = 0; k < kVectors; ++k) body_valid[k] = live(r) && vector_of(k) < cut.vectors;
    // The edges, in log2 units (x log2 e), so that each exponential is one subtract and one ex2.
    float e_v[kSlots];
    float row_max = negative_infinity();
#pragma unroll
    for (int e = 0; e < kEdges; ++e) {
      e_v[e] = to_float(edge[r][e]) * kLog2e;
      if (live(r) && lane + e * kLanes < cut.edges) row_max = fmaxf(row_max, e_v[e]);
    }
    if constexpr (kVectors <= kBodyRowsStoredMaxVectors) {
      // The body's values in log2 units, held as floats from the max to the write.
      float v[kVectors][kVec];
#pragma unroll
      for (int k = 0; k < kVectors; ++k) {
        unpack<T>(body[r][k], v[k]);
#pragma unroll
        for (int j = 0; j < kVec; ++j) {
          v[k][j] *= kLog2e;
          if (body_valid[k]) row_max = fmaxf(row_max, v[k][j]);
        }
      }
      row_max = ring::group_allreduce<kLanes>(row_max, MaxOp{});
      float sum = 0.0f;
#pragma unroll
      for (int k = 0; k < kVectors; ++k) {
#pragma unroll
        for (int j = 0; j < kVec; ++j) {
          v[k][j] = body_valid[k] ? fast_exp2(v[k][j] - row_max) : 0.0f;
          sum += v[k][j];
        }
      }
      sum += edge_exponentials<kEdges>(e_v, row_max, [&](int e) { return live(r) && lane + e * kLanes < cut.edges; });
      const float inverse_sum = fast_reciprocal(ring::group_allreduce<kLanes>(sum, SumOp{}));
#pragma unroll
      for (int k = 0; k < kVectors; ++k) {
        if (!body_valid[k]) continue;
#pragma unroll
        for (int j = 0; j < kVec; ++j) v[k][j] *= inverse_sum;
        *reinterpret_cast<uint4*>(ys + start + cut.head + kVec * vector_of(k)) = pack<T>(v[k]);
      }
      store_edges<kEdges>(ys + start, e_v, inverse_sum, cut, lane, live(r), kLanes);
    } else {
      // Only the loaded vectors are held (floats of 8 vectors would take ~100 registers): the
      // max reads them, the sum takes 2^(x log2 e - max), and the write 2^(x log2 e - max -
      // log2 sum), so each body element costs two ex2 and the write no multiply. The three passes
      // are written out: through a helper taking a lambda, ptxas (CUDA 13.0) spilled 12 bytes in fp16.
#pragma unroll
      for (int k = 0; k < kVectors; ++k) {
        if (!body_valid[k]) continue;
        float t[kVec];
        unpack<T>(body[r][k], t);
#pragma unroll
        for (int j = 0; j < kVec; ++j) row_max = fmaxf(row_max, t[j] * kLog2e);
      }
      row_max = ring::group_allreduce<kLanes>(row_max, MaxOp{});
      float sum = 0.0f;
#pragma unroll
      for (int k = 0; k < kVectors; ++k) {
        if (!body_valid[k]) continue;
        float t[kVec];
        unpack<T>(body[r][k], t);
#pragma unroll
        for (int j = 0; j < kVec; ++j) sum += fast_exp2(fmaf(t[j], kLog2e, -row_max));
      }
      sum += edge_exponentials<kEdges>(e_v, row_max, [&](int e) { return live(r) && lane + e * kLanes < cut.edges; });
      sum = ring::group_allreduce<kLanes>(sum, SumOp{});
      const float offset = row_max + fast_log2(sum);
#pragma unroll
      for (int k = 0; k < kVectors; ++k) {
        if (!body_valid[k]) continue;
        float t[kVec];
        unpack<T>(body[r][k], t);
#pragma unroll
        for (int j = 0; j < kVec; ++j) t[j] = fast_exp2(fmaf(t[j], kLog2e, -offset));
        *reinterpret_cast<uint4*>(ys + start + cut.head + kVec * vector_of(k)) = pack<T>(t);
      }
      store_edges<kEdges>(ys + start, e_v, fast_reciprocal(sum), cut, lane, live(r), kLanes);
    }
  }
}

template <typename T, int kBytesInFlight, int kLanes, int kVectors, int kEdges>
void launch_shape(const T* x, T* y, std::int64_t rows, std::int64_t cols, const BodyRowsShape& s,
                  cudaStream_t stream) {
  constexpr int kRows = body_rows_rows_in_flight(kVectors, kBytesInFlight);
  if constexpr (body_rows_reachable(sizeof(T), kLanes, kVectors, kEdges, kRows, kBytesInFlight)) {
    if (s.rows != kRows) throw std::logic_error("softmax body_rows: rows per group differ from body_rows_shape's");
    constexpr std::int64_t kRowsPerBlock = kBodyRowsBlock / kLanes * kRows;
    const std::int64_t blocks = (rows + kRowsPerBlock - 1) / kRowsPerBlock;
    if (blocks > 0x7FFFFFFF) throw std::invalid_argument("softmax body_rows: too many blocks for a 1-D grid");
    softmax_body_rows_kernel<T, kLanes, kVectors, kEdges, kRows>
        <<<static_cast<unsigned>(blocks), kBodyRowsBlock, 0, stream>>>(x, y, rows, static_cast<int>(cols));
    KBENCH_CHECK_LAUNCH();
  } else {
    throw std::logic_error("softmax body_rows: a shape body_rows_shape does not give");
  }
}

template <typename T, int kBytesInFlight, int kLanes, int kVectors>
void launch_edges(const T* x, T* y, std::int64_t rows, std::int64_t cols, const BodyRowsShape& s,
                  cudaStream_t stream) {
  switch (s.edges) {
    case 0: return launch_shape<T, kBytesInFlight, kLanes, kVectors, 0>(x, y, rows, cols, s, stream);
    case 1: return launch_shape<T, kBytesInFlight, kLanes, kVectors, 1>(x, y, rows, cols, s, stream);
    case 2: return launch_shape<T, kBytesInFlight, kLanes, kVectors, 2>(x, y, rows, cols, s, stream);
    case 3: return launch_shape<T, kBytesInFlight, kLanes, kVectors, 3>(x, y, rows, cols, s, stream);
    case 4: return launch_shape<T, kBytesInFlight, kLanes, kVectors, 4>(x, y, rows, cols, s, stream);
    default: throw std::logic_error("softmax body_rows: more than 4 edge elements per lane");
  }
}

template <typename T, int kBytesInFlight>
void launch_wide(const T* x, T* y, std::int64_t rows, std::int64_t cols, const BodyRowsShape& s, cudaStream_t stream) {
  switch (s.vectors) {
    case 1: return launch_edges<T, kBytesInFlight, 32, 1>(x, y, rows, cols, s, stream);
    case 2: return launch_edges<T, kBytesInFlight, 32, 2>(x, y, rows, cols, s, stream);
    case 4: return launch_edges<T, kBytesInFlight, 32, 4>(x, y, rows, cols, s, stream);
    case 8: return launch_edges<T, kBytesInFlight, 32, 8>(x, y, rows, cols, s, stream);
    default: throw std::logic_error("softmax body_rows: body vectors per lane not 1, 2, 4 or 8");
  }
}

template <typename T, int kBytesInFlight>
void launch_for_shape(const T* x, T* y, std::int64_t rows, std::int64_t cols, cudaStream_t stream) {
  const BodyRowsShape s = body_rows_shape(cols, sizeof(T), kBytesInFlight);
  switch (s.lanes) {
    case 4: return launch_edges<T, kBytesInFlight, 4, 1>(x, y, rows, cols, s, stream);
    case 8: return launch_edges<T, kBytesInFlight, 8, 1>(x, y, rows, cols, s, stream);
    case 16: return launch_edges<T, kBytesInFlight, 16, 1>(x, y, rows, cols, s, stream);
    case 32: return launch_wide<T, kBytesInFlight>(x, y, rows, cols, s, stream);
    default: throw std::logic_error("softmax body_rows: lanes per row not 4, 8, 16 or 32");
  }
}

bool aligned16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

}  // namespace

template <typename T>
void launch_body_rows(const T* x, T* y, std::int64_t rows, std::int64_t cols, cudaStream_t stream) {
  if (cols >= body_rows_min_cols(sizeof(T)) && cols <= body_rows_max_cols(sizeof(T)) && aligned16(x) && aligned16(y)) {
    if (rows > 0) launch_for_shape<T, kBodyRowsBytesInFlight>(x, y, rows, cols, stream);
    return;
  }
  launch_grain_rows(x, y, rows, cols, stream);
}

template void launch_body_rows<float>(const float*, float*, std::int64_t, std::int64_t, cudaStream_t);
template void launch_body_rows<__half>(const __half*, __half*, std::int64_t, std::int64_t, cudaStream_t);
template void launch_body_rows<__nv_bfloat16>(const __nv_bfloat16*, __nv_bfloat16*, std::int64_t, std::int64_t,
                                              cudaStream_t);

}  // namespace kbench::softmax
