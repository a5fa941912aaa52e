// The GEMV kernels (matmul_gemv.hpp): C = A·B for M <= 8, read as M weighted column sums of B.
// launch_gemv hands 16-bit B with whole 16-byte rows to the tensor-core kernel
// (matmul_gemv_mma.cu); the SIMT kernels below take fp32 and the rest.
//
// Block (strip x, chunk y): 256 threads, L column lanes (32 for 16-byte loads, 64 for 8-byte ones,
// kGemvColumnLanes: a 512-byte stretch of each row) by 256 / L row lanes, over a strip of L × Cols
// columns and the chunk's rows of K. Column lane l owns Cols columns of the strip: Cols consecutive
// ones read as one 8- or 16-byte vector when every row of B is aligned to it (N % Cols == 0 and B
// aligned), else columns l, l + L, ... read one element at a time (still one coalesced stretch per
// warp and row). Row lane w walks rows w, w + 256 / L, ... of the chunk, kUnroll rows loaded before
// any is used (kGemvRowsInFlight), and multiplies each B element by the Rows values of A's column
// k, which the block first copies (as fp32, transposed: A[.., k] is one 16-byte read) into shared
// memory.
// The block adds its row lanes' sums in order in shared memory; one chunk writes C, several write
// fp32 slices that the strip's last block (a ticket per strip) adds in chunk order, or that
// launch_split_k_reduce adds past kGemvInKernelMaxChunks chunks.
#include "kernels/matmul/matmul_gemv.hpp"

#include "harness/device/cuda_check.hpp"
#include "harness/device/current_device.hpp"
#include "kernels/common/dtype_convert.cuh"
#include "kernels/common/vector16.cuh"
#include "kernels/matmul/matmul_gemv_combine.cuh"
#include "kernels/matmul/matmul_kernels.hpp"

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>

namespace kbench::matmul {

namespace {

constexpr int kThreads = kGemvThreads;
/// Floats of A staged at a time: up to 4096 rows of K at 1 row of A, 512 at 8.
constexpr int kStagedFloats = 4096;

/// The strip position of a column lane's j-th column, of `Lanes` column lanes.
template <int Lanes, int Cols, bool Vector>
__device__ __forceinline__ int strip_index(int lane, int j) {
  return Vector ? lane * Cols + j : lane + Lanes * j;
}

/// One row of B as loaded: the lane's Cols elements, kept in their own type until they are used
/// (16-bit rows stay packed, half the registers of fp32 copies), zeros past N.
template <typename T, int Lanes, int Cols, bool Vector>
struct RowLoad {
  typename LoadOf<Cols * sizeof(T)>::type packed;

  __device__ __forceinline__ void load(const T* __restrict__ row, int first_col, int lane, int n) {
    using Load = typename LoadOf<Cols * sizeof(T)>::type;
    const int col = first_col + lane * Cols;
    packed = col < n ? __ldcs(reinterpret_cast<const Load*>(row + col)) : Load{};
  }
  __device__ __forceinline__ void widen(float (&out)[Cols]) const {
    T elements[Cols];
    memcpy(elements, &packed, sizeof(packed));
#pragma unroll
    for (int j = 0; j < Cols; ++j) out[j] = to_float(elements[j]);
  }
};

template <typename T, int Lanes, int Cols>
struct RowLoad<T, Lanes, Cols, false> {
  T elements[Cols];

  __device__ __forceinline__ void load(const T* __restrict__ row, int first_col, int lane, int n) {
#pragma unroll
    for (int j = 0; j < Cols; ++j) {
      const int col = first_col + lane + Lanes * j;
      elements[j] = col < n ? row[col] : T{};
    }
  }
  __device__ __forceinline__ void widen(float (&out)[Cols]) const {
#pragma unroll
    for (int j = 0; j < Cols; ++j) out[j] = to_float(elements[j]);
  }
};

/// acc[r][j] += A[r, k] · B[k, col j] for the staged A column `a_col` (Rows floats).
template <int Rows, int Cols>
__device__ __forceinline__ void multiply_add(const float* a_col, const float (&b)[Cols], float (&acc)[Rows][Cols]) {
  float a[Rows];
  if constexpr (Rows % 4 == 0) {
#pragma unroll
    for (int r = 0; r < Rows; r += 4) {
      const float4 v = *reinterpret_cast<const float4*>(a_col + r);
      a[r] = v.x, a[r + 1] = v.y, a[r + 2] = v.z, a[r + 3] = v.w;
    }
  } else {
#pragma unroll
    for (int r = 0; r < Rows; ++r) a[r] = a_col[r];
  }
#pragma unroll
  for (int r = 0; r < Rows; ++r) {
#pragma unroll
    for (int j = 0; j < Cols; ++j) acc[r][j] = fmaf(a[r], b[j], acc[r][j]);
  }
}

template <typename T, int Rows, int Cols, bool Vector>
__global__ void __launch_bounds__(kThreads, gemv_blocks_per_sm(Rows * Cols))
    gemv_kernel(const T* __restrict__ a, const T* __restrict__ b, T* __restrict__ c, float* __restrict__ slices,
                unsigned* __restrict__ tickets, int m, int n, int k, int chunk_rows) {
  constexpr int kLanes = kGemvColumnLanes<Cols * static_cast<int>(sizeof(T))>;  // column lanes
  constexpr int kRowLanes = kThreads / kLanes;
  constexpr int kStrip = kLanes * Cols;
  constexpr int kStagedRows = kStagedFloats / Rows;
  constexpr int kUnroll = Vector ? kGemvRowsInFlight<Rows * Cols, Cols * static_cast<int>(sizeof(T))> : 4;
  __shared__ __align__(16) float staged_a[kStagedRows * Rows];  // [k][row of A], fp32
  __shared__ float lane_sums[kRowLanes][kStrip];
  __shared__ bool last_block;

  const int lane = static_cast<int>(threadIdx.x) % kLanes;
  const int row_lane = static_cast<int>(threadIdx.x) / kLanes;
  const int first_col = static_cast<int>(blockIdx.x) * kStrip;
  const int chunk_begin = static_cast<int>(blockIdx.y) * chunk_rows;
  const int chunk_end = min(k, chunk_begin + chunk_rows);

  float acc[Rows][Cols];
#pragma unroll
  for (int r = 0; r < Rows; ++r) {
#pragma unroll
    for (int j = 0; j < Cols; ++j) acc[r][j] = 0.0f;
  }

  for (int stage = chunk_begin; stage < chunk_end; stage += kStagedRows) {
    const int rows = min(kStagedRows, chunk_end - stage);
    __syncthreads();  // every warp is done with the previous stage's A
    // Consecutive threads read consecutive k of one row of A; rows of A past m stage zeros.
#pragma unroll
    for (int r = 0; r < Rows; ++r) {
      for (int kk = static_cast<int>(threadIdx.x); kk < rows; kk += kThreads) {
        staged_a[kk * Rows + r] = r < m ? to_float(a[static_cast<long long>(r) * k + stage + kk]) : 0.0f;
      }
    }
    __syncthreads();

    const T* b_rows = b + static_cast<long long>(stage) * n;
    int kk = row_lane;
    for (; kk + (kUnroll - 1) * kRowLanes < rows; kk += kUnroll * kRowLanes) {
      RowLoad<T, kLanes, Cols, Vector> loads[kUnroll];
#pragma unroll
      for (int u = 0; u < kUnroll; ++u) {
        loads[u].load(b_rows + static_cast<long long>(kk + u * kRowLanes) * n, first_col, lane, n);
      }
#pragma unroll
      for (int u = 0; u < kUnroll; ++u) {
        float v[Cols];
        loads[u].widen(v);
        multiply_add<Rows, Cols>(staged_a + (kk + u * kRowLanes) * Rows, v, acc);
      }
    }
    for (; kk < rows; kk += kRowLanes) {
      RowLoad<T, kLanes, Cols, Vector> row;
      row.load(b_rows + static_cast<long long>(kk) * n, first_col, lane, n);
      float v[Cols];
      row.widen(v);
      multiply_add<Rows, Cols>(staged_a + kk * Rows, v, acc);
    }
  }

  // The row lanes' sums of each row of C, added in row-lane order; one chunk stores C, several a slice.
  const bool one_chunk = gridDim.y == 1;
  float* slice = slices + static_cast<long long>(blockIdx.y) * m * n;
#pragma unroll
  for (int r = 0; r < Rows; ++r) {
    if (r >= m) break;
    __syncthreads();  // lane_sums is free again
#pragma unroll
    for (int j = 0; j < Cols; ++j) lane_sums[row_lane][strip_index<kLanes, Cols, Vector>(lane, j)] = acc[r][j];
    __syncthreads();
    for (int t = static_cast<int>(threadIdx.x); t < kStrip; t += kThreads) {
      float sum = 0.0f;
#pragma unroll
      for (int w = 0; w < kRowLanes; ++w) sum += lane_sums[w][t];
      const int col = first_col + t;
      if (col >= n) continue;
      if (one_chunk) {
        c[static_cast<long long>(r) * n + col] = from_float<T>(sum);
      } else {
        slice[static_cast<long long>(r) * n + col] = sum;
      }
    }
  }
  if (one_chunk || tickets == nullptr) return;
  combine_strip_slices<T, kStrip>(slices, tickets, c, m, n, first_col, last_block);
}

template <typename T, int Rows, int Cols>
void launch_rows_cols(const T* a, const T* b, T* c, Dims dims, int chunks, float* slices, unsigned* tickets,
                      cudaStream_t stream) {
  const bool vector = dims.n % Cols == 0 && reinterpret_cast<std::uintptr_t>(b) % (Cols * sizeof(T)) == 0;
  const dim3 grid(static_cast<unsigned>(gemv_strips(dims, sizeof(T))), static_cast<unsigned>(chunks));
  const int chunk_rows = gemv_chunk_rows(dims, chunks);
  if (vector) {
    gemv_kernel<T, Rows, Cols, true><<<grid, kThreads, 0, stream>>>(a, b, c, slices, tickets, dims.m, dims.n, dims.k,
                                                                    chunk_rows);
  } else {
    gemv_kernel<T, Rows, Cols, false><<<grid, kThreads, 0, stream>>>(a, b, c, slices, tickets, dims.m, dims.n, dims.k,
                                                                     chunk_rows);
  }
  KBENCH_CHECK_LAUNCH();
}

template <typename T, int Rows>
void launch_rows(const T* a, const T* b, T* c, Dims dims, int chunks, float* slices, unsigned* tickets,
                 cudaStream_t stream) {
  if constexpr (sizeof(T) == 4 || Rows > 4) {
    launch_rows_cols<T, Rows, 4>(a, b, c, dims, chunks, slices, tickets, stream);
  } else {
    launch_rows_cols<T, Rows, 8>(a, b, c, dims, chunks, slices, tickets, stream);
  }
}

template <typename T>
void launch(const T* a, const T* b, T* c, Dims dims, int chunks, void* workspace, cudaStream_t stream) {
  if (const std::string why = gemv_unsupported(dims); !why.empty()) throw std::invalid_argument("matmul gemv: " + why);
  if (chunks < 1 || chunks > kMaxSplitK) {
    throw std::invalid_argument("matmul gemv: chunks must be in 1.." + std::to_string(kMaxSplitK) + "; got " +
                                std::to_string(chunks));
  }
  if (chunks > 1 && workspace == nullptr) throw std::invalid_argument("matmul gemv: several chunks need a workspace");
  float* slices = static_cast<float*>(workspace);
  const std::size_t slice_bytes =
      static_cast<std::size_t>(chunks) * static_cast<std::size_t>(dims.m) * static_cast<std::size_t>(dims.n) * 4;
  const bool in_kernel = chunks <= kGemvInKernelMaxChunks;
  unsigned* tickets =
      chunks > 1 && in_kernel
          ? reinterpret_cast<unsigned*>(static_cast<char*>(workspace) + (slice_bytes + 255) / 256 * 256)
          : nullptr;
  if constexpr (sizeof(T) == 2) {
    // Read once, not inside every timed call (kbench uses one device per process).
    static const std::int64_t shared_memory_per_sm = current_shared_memory_per_sm();
    if (gemv_mma_reads(dims, sizeof(T), b, shared_memory_per_sm)) {
      launch_gemv_mma(a, b, c, dims, chunks, slices, tickets, stream);
      if (chunks > 1 && !in_kernel) launch_split_k_reduce(slices, chunks, c, dims, stream);
      return;
    }
  }
  switch (gemv_rows(dims.m)) {
    case 1: launch_rows<T, 1>(a, b, c, dims, chunks, slices, tickets, stream); break;
    case 2: launch_rows<T, 2>(a, b, c, dims, chunks, slices, tickets, stream); break;
    case 4: launch_rows<T, 4>(a, b, c, dims, chunks, slices, tickets, stream); break;
    default: launch_rows<T, 8>(a, b, c, dims, chunks, slices, tickets, stream); break;
  }
  if (chunks > 1 && !in_kernel) launch_split_k_reduce(slices, chunks, c, dims, stream);
}

}  // namespace

void launch_gemv(const float* a, const float* b, float* c, Dims dims, int chunks, void* workspace,
                 cudaStream_t stream) {
  launch(a, b, c, dims, chunks, workspace, stream);
}
void launch_gemv(const __half* a, const __half* b, __half* c, Dims dims, int chunks, void* workspace,
                 cudaStream_t stream) {
  launch(a, b, c, dims, chunks, workspace, stream);
}
void launch_gemv(const __nv_bfloat16* a, const __nv_bfloat16* b, __nv_bfloat16* c, Dims dims, int chunks,
                 void* workspace, cudaStream_t stream) {
  launch(a, b, c, dims, chunks, workspace, stream);
}

}  // namespace kbench::matmul
