// The GEMV kernels (matmul_gemv.hpp): C = A·B for M <= 8, read as M weighted column sums of B.
//
// Block (strip x, chunk y): 256 threads, L column lanes (32 for 16-byte loads, 64 for 8-byte ones,
// kGemvColumnLanes: a 512-byte stretch of each row) by 256 / L row lanes, over a strip of L × Cols
// columns and the chunk's rows of K; row lane w walks rows w, w + 256 / L, ... of the chunk, and
// multiplies each B element by the Rows values of A's column k, which the block first copies (as
// fp32, transposed: A[.., k] is one 16-byte read) into shared memory. Two ways to read B:
// - vector path (N % Cols == 0, B aligned): column lane l owns Cols consecutive columns, read as one
//   8- or 16-byte vector a row, kGemvRowsInFlight rows loaded before any is used;
// - ring path (otherwise): each warp keeps a ring of its stretch of kRingSlots rows in shared
//   memory, copied as the aligned 16-byte vectors that cover the stretch (cp.async: nothing held in
//   registers while in flight), and lane l reads columns l, l + 32, ... of each row from its slot.
// The block adds its row lanes' sums in order in shared memory; one chunk writes C, several write
// fp32 slices that the strip's last block (a ticket per strip) adds in chunk order, or that
// launch_split_k_reduce adds past kGemvInKernelMaxChunks chunks.
#include "kernels/matmul/matmul_gemv.hpp"

#include "harness/device/cuda_check.hpp"
#include "kernels/common/dtype_convert.cuh"
#include "kernels/common/vector16.cuh"
#include "kernels/matmul/cp_async.cuh"
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
/// Slices a thread loads before adding any, in the in-kernel combine: all of them, one round trip.
constexpr int kCombineBatch = kGemvInKernelMaxChunks;

/// Bytes of B rows a warp keeps in flight on the ring path.
constexpr int kRingBytesPerWarp = 3072;

/// The ring path's shared memory: a warp's stretch of one row is 32 × Cols elements, and a slot
/// holds the 16-byte vectors covering it (one more than the stretch where a row starts off a vector
/// boundary).
template <typename T, int Cols>
struct WarpRing {
  static constexpr int kStretchBytes = 32 * Cols * static_cast<int>(sizeof(T));
  static constexpr int kSlotBytes = kStretchBytes + 16;
  static constexpr int kSlots = kRingBytesPerWarp / kStretchBytes;
  static constexpr int kBlockBytes = kGemvWarps * kSlots * kSlotBytes;
};

/// The strip position of a column lane's j-th column: Cols consecutive columns on the vector
/// path; on the ring path each warp covers a stretch of 32 × Cols columns, lane l columns l, l + 32, ...
template <int Cols, bool Vector>
__device__ __forceinline__ int strip_index(int lane, int j) {
  return Vector ? lane * Cols + j : (lane / 32) * 32 * Cols + lane % 32 + 32 * j;
}

/// One row of B as the vector path loads it: the lane's Cols elements, kept in their own type until
/// they are used (16-bit rows stay packed, half the registers of fp32 copies), zeros past N.
template <typename T, int Cols>
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

/// Copies the aligned 16-byte vectors covering `live` elements from `first` (a warp's stretch of
/// one row) into `slot`, lane by lane; a vector that starts before B (`begin`) or ends past it
/// (`end`) is read an element at a time, zeros outside B.
template <typename T>
__device__ __forceinline__ void copy_stretch(unsigned char* slot, const T* first, int live, const T* begin,
                                             const T* end, int lane32) {
  const auto address = reinterpret_cast<std::uintptr_t>(first);
  const std::uintptr_t aligned = address & ~std::uintptr_t{15};
  const auto lowest = reinterpret_cast<std::uintptr_t>(begin), past = reinterpret_cast<std::uintptr_t>(end);
  const int vectors = static_cast<int>((address - aligned + static_cast<std::uintptr_t>(live) * sizeof(T) + 15) / 16);
  for (int v = lane32; v < vectors; v += 32) {
    const std::uintptr_t src = aligned + 16u * static_cast<unsigned>(v);
    if (src >= lowest && src + 16 <= past) {
      cp_async_16(slot + 16 * v, reinterpret_cast<const void*>(src), true);
      continue;
    }
    T elements[16 / sizeof(T)];
#pragma unroll
    for (int e = 0; e < static_cast<int>(16 / sizeof(T)); ++e) {
      const std::uintptr_t at = src + e * sizeof(T);
      elements[e] = at >= lowest && at < past ? *reinterpret_cast<const T*>(at) : T{};
    }
    uint4 packed;
    memcpy(&packed, elements, 16);
    *reinterpret_cast<uint4*>(slot + 16 * v) = packed;
  }
}

/// The ring path's walk of one stage: this warp's rows row_lane, row_lane + row_lanes, ... of the
/// `rows` rows from `stage_rows` (B's row of the stage's first k), over the stretch from column
/// `stretch_col`; a ring of WarpRing::kSlots rows in flight, refilled as each is used.
template <typename T, int Rows, int Cols>
__device__ __forceinline__ void walk_ring(unsigned char* ring, const T* b, long long b_elements, const T* stage_rows,
                                          int n, int rows, int row_lane, int row_lanes, int stretch_col,
                                          const float* staged_a, float (&acc)[Rows][Cols]) {
  using Ring = WarpRing<T, Cols>;
  const int lane32 = static_cast<int>(threadIdx.x) % 32;
  const int live = min(32 * Cols, n - stretch_col);  // columns of the stretch before N
  if (live <= 0 || row_lane >= rows) return;
  const int my_rows = (rows - row_lane + row_lanes - 1) / row_lanes;
  const T* end = b + b_elements;
  const auto stretch_of = [&](int i) {
    return stage_rows + static_cast<long long>(row_lane + i * row_lanes) * n + stretch_col;
  };
#pragma unroll 1
  for (int s = 0; s < Ring::kSlots; ++s) {
    if (s < my_rows) copy_stretch(ring + s * Ring::kSlotBytes, stretch_of(s), live, b, end, lane32);
    cp_async_commit();
  }
  int slot_index = 0;
#pragma unroll 1
  for (int i = 0; i < my_rows; ++i) {
    unsigned char* slot = ring + slot_index * Ring::kSlotBytes;
    cp_async_wait<Ring::kSlots - 1>();  // row i's copies (this lane's) have landed
    __syncwarp();                       // and every lane's
    const T* first = stretch_of(i);
    const T* row = reinterpret_cast<const T*>(slot + (reinterpret_cast<std::uintptr_t>(first) & 15));
    float v[Cols];
#pragma unroll
    for (int j = 0; j < Cols; ++j) {
      const int e = lane32 + 32 * j;
      v[j] = e < live ? to_float(row[e]) : 0.0f;
    }
    multiply_add<Rows, Cols>(staged_a + (row_lane + i * row_lanes) * Rows, v, acc);
    __syncwarp();  // every lane has read the slot before it is refilled
    if (i + Ring::kSlots < my_rows) copy_stretch(slot, stretch_of(i + Ring::kSlots), live, b, end, lane32);
    cp_async_commit();
    slot_index = slot_index + 1 == Ring::kSlots ? 0 : slot_index + 1;
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
  constexpr int kUnroll = kGemvRowsInFlight<Rows * Cols, Cols * static_cast<int>(sizeof(T))>;
  constexpr int kLaneSumsBytes = kRowLanes * kStrip * static_cast<int>(sizeof(float));
  constexpr int kScratchBytes =
      Vector ? kLaneSumsBytes : (WarpRing<T, Cols>::kBlockBytes > kLaneSumsBytes ? WarpRing<T, Cols>::kBlockBytes
                                                                                 : kLaneSumsBytes);
  __shared__ __align__(16) float staged_a[kStagedRows * Rows];  // [k][row of A], fp32
  // The ring path's rows of B while the block walks its chunk, then the row lanes' sums.
  __shared__ __align__(16) unsigned char scratch[kScratchBytes];
  auto lane_sums = reinterpret_cast<float (*)[kStrip]>(scratch);
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
    if constexpr (!Vector) {
      const int warp = static_cast<int>(threadIdx.x) / 32;
      walk_ring<T, Rows, Cols>(scratch + warp * WarpRing<T, Cols>::kSlots * WarpRing<T, Cols>::kSlotBytes, b,
                               static_cast<long long>(k) * n, b_rows, n, rows, row_lane, kRowLanes,
                               first_col + lane / 32 * 32 * Cols, staged_a, acc);
    } else {
      int kk = row_lane;
      for (; kk + (kUnroll - 1) * kRowLanes < rows; kk += kUnroll * kRowLanes) {
        RowLoad<T, Cols> loads[kUnroll];
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
        RowLoad<T, Cols> row;
        row.load(b_rows + static_cast<long long>(kk) * n, first_col, lane, n);
        float v[Cols];
        row.widen(v);
        multiply_add<Rows, Cols>(staged_a + kk * Rows, v, acc);
      }
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
    for (int j = 0; j < Cols; ++j) lane_sums[row_lane][strip_index<Cols, Vector>(lane, j)] = acc[r][j];
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

  __threadfence();  // this block's slice is visible device-wide before its ticket is taken
  __syncthreads();
  if (threadIdx.x == 0) last_block = atomicAdd(tickets + blockIdx.x, 1u) == gridDim.y - 1;
  __syncthreads();
  if (!last_block) return;
  __threadfence();
  const int chunks = static_cast<int>(gridDim.y);
  const long long slice_stride = static_cast<long long>(m) * n;
  for (int o = static_cast<int>(threadIdx.x); o < m * kStrip; o += kThreads) {
    const int r = o / kStrip, col = first_col + o % kStrip;
    if (col >= n) continue;
    const float* p = slices + static_cast<long long>(r) * n + col;
    float sum = 0.0f;
    for (int s = 0; s < chunks; s += kCombineBatch) {
      float v[kCombineBatch];
#pragma unroll
      for (int u = 0; u < kCombineBatch; ++u) v[u] = s + u < chunks ? __ldcg(p + (s + u) * slice_stride) : 0.0f;
#pragma unroll
      for (int u = 0; u < kCombineBatch; ++u) {
        if (s + u < chunks) sum += v[u];  // chunk order; L2 reads (other blocks wrote them)
      }
    }
    c[static_cast<long long>(r) * n + col] = from_float<T>(sum);
  }
  if (threadIdx.x == 0) tickets[blockIdx.x] = 0;
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
