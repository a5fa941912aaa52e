// two_stage's path for rows that are not whole 16-byte vectors in a 16-byte aligned tensor
// (kernels/sum/NOTES.md, "phase strips"): the rows are read as the aligned 16-byte vectors of the
// flat array. A thread's rows lie kLanesY = 8 rows apart, a multiple of the vector width, so every
// one of them starts at the same offset (its phase) from a 16-byte boundary: element j of the
// thread's vector is the same column in each row it reads, and it sums whole vectors as on
// aligned rows, with no shift, select or mask in the loop. Its columns are the strip's moved back
// by the phase, so a strip's partials carry one vector of entries before its own columns (the
// previous strip's last columns, from lane 0's first elements); entries outside the row (before
// column 0, past the last) belong to another row's thread and are never read back.
#include "kernels/sum/reduce_ops.cuh"
#include "kernels/sum/sum_column_strips.hpp"
#include "kernels/sum/sum_kernels.hpp"

#include "harness/device/cuda_check.hpp"
#include "kernels/common/launch_attributes.cuh"

#include <stdexcept>

namespace kbench::sum {

namespace {

constexpr int kLanesX = kStripLanesX;
constexpr int kLanesY = kStripLanesY;
constexpr int kRowUnroll = kStripRowUnroll;

template <typename T>
constexpr int kStripColumns = kLanesX * kVector<T>;
/// A strip's partial entries: the previous strip's last vector of columns, then its own.
template <typename T>
constexpr int kStripEntries = kStripColumns<T> + kVector<T>;

template <typename T>
__device__ __forceinline__ void add_vector(uint4 v, float (&acc)[kVector<T>]) {
  T elements[kVector<T>];
  memcpy(elements, &v, 16);
#pragma unroll
  for (int j = 0; j < kVector<T>; ++j) acc[j] += to_float(elements[j]);
}

/// Block (strip, chunk) sums its strip over the rows of its chunk (chunk as in two_stage) and
/// writes partials[(chunk x strips + strip) x kStripEntries + e], entry e holding column
/// strip x kStripColumns - kVector + e.
template <typename T>
__global__ void __launch_bounds__(kLanesX* kLanesY)
    columns_phase_stage1_kernel(const T* __restrict__ in, float* __restrict__ partials, std::int64_t rows,
                                std::int64_t cols) {
  constexpr int W = kVector<T>;
  __shared__ float strip[kLanesY][kStripEntries<T> + 1];
  allow_dependents();  // stage 2 (launch_dependent) may be placed once every block runs
  const int tx = threadIdx.x, ty = threadIdx.y;
  const std::int64_t rows_per_chunk = (rows + gridDim.y - 1) / gridDim.y;
  const std::int64_t row_begin = blockIdx.y * rows_per_chunk;
  const std::int64_t row_end = min(rows, row_begin + rows_per_chunk);
  const std::int64_t first_row = row_begin + ty;
  const int phase = static_cast<int>((first_row * cols) % W);
  // The column of the thread's element 0 in every row it reads: negative on lane 0 of strip 0
  // with a phase, past the row on lanes wholly beyond it.
  const std::int64_t col = static_cast<std::int64_t>(blockIdx.x) * kStripColumns<T> + tx * W - phase;

  float acc[W];
#pragma unroll
  for (int j = 0; j < W; ++j) acc[j] = 0.0f;
  if (col < cols) {
    // The vector that runs into the next row would pass the tensor's end in the last row; rows of
    // at least one vector's width (launch_columns_phase's contract) keep every earlier row's inside.
    const std::int64_t vector_end = col + W > cols && row_end == rows ? rows - 1 : row_end;
    std::int64_t r = first_row;
    for (; r + (kRowUnroll - 1) * kLanesY < vector_end; r += kRowUnroll * kLanesY) {
      uint4 v[kRowUnroll];
#pragma unroll
      for (int u = 0; u < kRowUnroll; ++u) v[u] = *reinterpret_cast<const uint4*>(in + (r + u * kLanesY) * cols + col);
#pragma unroll
      for (int u = 0; u < kRowUnroll; ++u) add_vector<T>(v[u], acc);
    }
    for (; r < vector_end; r += kLanesY) add_vector<T>(*reinterpret_cast<const uint4*>(in + r * cols + col), acc);
    if (r < row_end) {  // the tensor's last row, element by element within it
#pragma unroll
      for (int j = 0; j < W; ++j) {
        if (col + j >= 0 && col + j < cols) acc[j] += to_float(in[r * cols + col + j]);
      }
    }
  }

  float* entries = strip[ty];
#pragma unroll
  for (int j = 0; j < W; ++j) entries[tx * W + j + W - phase] = acc[j];
  if (tx == 0) {
    for (int e = 0; e < W - phase; ++e) entries[e] = 0.0f;
  }
  if (tx == kLanesX - 1) {
    for (int e = kStripEntries<T> - phase; e < kStripEntries<T>; ++e) entries[e] = 0.0f;
  }
  __syncthreads();
  float* out = partials + (static_cast<std::int64_t>(blockIdx.y) * gridDim.x + blockIdx.x) * kStripEntries<T>;
  for (int e = ty * kLanesX + tx; e < kStripEntries<T>; e += kLanesX * kLanesY) {
    float sum = 0.0f;
#pragma unroll
    for (int y = 0; y < kLanesY; ++y) sum += strip[y][e];
    out[e] = sum;
  }
}

/// 32 columns a block, 8 chunk lanes a column: lane y adds chunks y, y + 8, ... in order, taking
/// for each its column's entry in its own strip and, for a strip's last vector of columns, the
/// next strip's entry of it; then the 8 lanes' sums are added in order. A thread per column
/// walking every chunk alone waited out one L2 round trip per 4 chunks (8191x1025: 106 chunks).
template <typename T>
__global__ void __launch_bounds__(kLanesX* kLanesY)
    columns_phase_stage2_kernel(const float* __restrict__ partials, T* __restrict__ out, std::int64_t cols, int strips,
                                int chunks) {
  __shared__ float lane_sums[kLanesY][kLanesX + 1];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const std::int64_t col = static_cast<std::int64_t>(blockIdx.x) * kLanesX + tx;
  wait_for_primary();
  float acc = 0.0f;
  if (col < cols) {
    const auto s = static_cast<int>(col / kStripColumns<T>);
    const int e = static_cast<int>(col % kStripColumns<T>) + kVector<T>;
    const bool in_next = e >= kStripColumns<T> && s + 1 < strips;
    const std::int64_t chunk_floats = static_cast<std::int64_t>(strips) * kStripEntries<T>;
    const float* own = partials + s * kStripEntries<T> + e;
#pragma unroll 4
    for (int k = ty; k < chunks; k += kLanesY) {
      acc += own[k * chunk_floats];
      if (in_next) acc += own[k * chunk_floats + kStripEntries<T> - kStripColumns<T>];
    }
  }
  lane_sums[ty][tx] = acc;
  __syncthreads();
  if (ty == 0 && col < cols) {
    float total = 0.0f;
#pragma unroll
    for (int y = 0; y < kLanesY; ++y) total += lane_sums[y][tx];
    out[col] = from_float<T>(total);
  }
}

}  // namespace

std::int64_t column_phase_strips(std::int64_t cols, std::size_t element_size) {
  const auto vector = static_cast<std::int64_t>(16 / element_size);
  const std::int64_t strip_columns = kLanesX * vector;
  // Strip s, lane t reads columns [s x strip_columns + t x vector - phase, + vector): the strips
  // cover every column whatever the phase (at most vector - 1).
  return (cols + vector - 1 + strip_columns - 1) / strip_columns;
}

std::int64_t column_partial_floats(std::int64_t cols, std::size_t element_size) {
  const auto vector = static_cast<std::int64_t>(16 / element_size);
  const std::int64_t phase_floats = column_phase_strips(cols, element_size) * (kLanesX + 1) * vector;
  return phase_floats > cols ? phase_floats : cols;
}

template <typename T>
void launch_columns_phase(const T* in, T* out, std::int64_t rows, std::int64_t cols, float* partials, int chunks,
                          cudaStream_t stream) {
  if (!aligned16(in)) throw std::invalid_argument("sum_outer phase strips: the tensor is not 16-byte aligned");
  if (cols < kVector<T>) throw std::invalid_argument("sum_outer phase strips: rows narrower than a 16-byte vector");
  const std::int64_t strips = column_phase_strips(cols, sizeof(T));
  if (strips > 0x7FFFFFFF || chunks < 1 || chunks > 65535) {
    throw std::invalid_argument("sum_outer phase strips: grid out of range");
  }
  const dim3 grid(static_cast<unsigned>(strips), static_cast<unsigned>(chunks));
  columns_phase_stage1_kernel<T><<<grid, dim3(kLanesX, kLanesY), 0, stream>>>(in, partials, rows, cols);
  KBENCH_CHECK_LAUNCH();
  const auto blocks = static_cast<unsigned>((cols + kLanesX - 1) / kLanesX);
  launch_dependent<columns_phase_stage2_kernel<T>>(dim3(blocks), dim3(kLanesX, kLanesY), 0, stream, partials, out, cols,
                   static_cast<int>(strips), chunks);
}

template void launch_columns_phase<float>(const float*, float*, std::int64_t, std::int64_t, float*, int, cudaStream_t);
template void launch_columns_phase<__half>(const __half*, __half*, std::int64_t, std::int64_t, float*, int,
                                           cudaStream_t);
template void launch_columns_phase<__nv_bfloat16>(const __nv_bfloat16*, __nv_bfloat16*, std::int64_t, std::int64_t,
                                                  float*, int, cudaStream_t);

}  // namespace kbench::sum
