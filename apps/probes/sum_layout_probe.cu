// sum_layout_probe: how fast can a sum read its input, by access layout? A probe behind
// kernels/sum/NOTES.md, outside kbench's ops: it times read-only kernels of several layouts over
// one rows x cols tensor in kbench's cold method (kbench's L2Flusher before each sample, one call
// per event pair, median of the samples) and prints GB/s of the tensor's bytes,
// once with random contents and once with zeros.
//
//   sum_layout_probe [rows cols [samples]]      (default 8192 8192 50; fp32 and fp16 both)
//
// Layouts:
//   grid_stride  persistent grid (4 or 8 blocks of 256 per SM), 16-byte vectors, 4 in flight
//   chunks       persistent grid, one contiguous chunk per block (one_pass's earlier large path)
//   tiles V      one contiguous tile of 256 x V vectors per block, as many blocks as tiles
//   rows B       inner sum, one block of B threads per row (row_parallel's long-row kernel)
//   cols XxY B   outer sum, X column lanes x Y row lanes, B blocks per SM (two_stage's stage 1
//                is 32 x 8)
//   cols 256x1 B outer sum, 256 column lanes x 1 row lane (a block reads 4 KB of a row per load)
//   copy         cudaMemcpyAsync device to device of half the tensor (same bytes moved)
// The full-sum layouts end in one atomicAdd per block (the probe needs no deterministic order);
// the column layouts write one partial per column and row chunk, as stage 1 does.
#include "apps/probes/probe_support.cuh"

#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

namespace {

constexpr int kBlock = 256;

__device__ __forceinline__ float lane_sum(float v) {
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_xor_sync(0xffffffffu, v, offset);
  return v;
}

__device__ __forceinline__ void block_add(float v, float* out) {
  __shared__ float warps[32];
  v = lane_sum(v);
  if (threadIdx.x % 32 == 0) warps[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x < 32) {
    v = threadIdx.x < blockDim.x / 32 ? warps[threadIdx.x] : 0.0f;
    v = lane_sum(v);
    if (threadIdx.x == 0) atomicAdd(out, v);
  }
}

template <typename T>
__device__ __forceinline__ float vector_sum(uint4 v) {
  constexpr int kPer = 16 / sizeof(T);
  T e[kPer];
  memcpy(e, &v, 16);
  float s = 0.0f;
#pragma unroll
  for (int i = 0; i < kPer; ++i) s += static_cast<float>(e[i]);
  return s;
}

template <typename T>
__global__ void __launch_bounds__(kBlock) grid_stride(const uint4* in, std::int64_t vectors, float* out) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * kBlock;
  std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * kBlock + threadIdx.x;
  float acc = 0.0f;
  for (; i + 3 * stride < vectors; i += 4 * stride) {
    uint4 v[4];
#pragma unroll
    for (int u = 0; u < 4; ++u) v[u] = in[i + u * stride];
#pragma unroll
    for (int u = 0; u < 4; ++u) acc += vector_sum<T>(v[u]);
  }
  for (; i < vectors; i += stride) acc += vector_sum<T>(in[i]);
  block_add(acc, out);
}

template <typename T>
__global__ void __launch_bounds__(kBlock) chunks(const uint4* in, std::int64_t vectors, float* out) {
  const std::int64_t chunk = (vectors + gridDim.x - 1) / gridDim.x;
  const std::int64_t begin = blockIdx.x * chunk, end = min(vectors, begin + chunk);
  float acc = 0.0f;
  std::int64_t i = begin + threadIdx.x;
  for (; i + 3 * kBlock < end; i += 4 * kBlock) {
    uint4 v[4];
#pragma unroll
    for (int u = 0; u < 4; ++u) v[u] = in[i + u * kBlock];
#pragma unroll
    for (int u = 0; u < 4; ++u) acc += vector_sum<T>(v[u]);
  }
  for (; i < end; i += kBlock) acc += vector_sum<T>(in[i]);
  block_add(acc, out);
}

template <typename T, int V>
__global__ void __launch_bounds__(kBlock) tiles(const uint4* in, std::int64_t vectors, float* out) {
  const std::int64_t base = static_cast<std::int64_t>(blockIdx.x) * kBlock * V + threadIdx.x;
  uint4 v[V];
#pragma unroll
  for (int u = 0; u < V; ++u) v[u] = base + u * kBlock < vectors ? in[base + u * kBlock] : make_uint4(0, 0, 0, 0);
  float acc = 0.0f;
#pragma unroll
  for (int u = 0; u < V; ++u) acc += vector_sum<T>(v[u]);
  block_add(acc, out);
}

/// Row sums, one block of B threads per row: 16-byte vectors, 4 in flight per thread.
template <typename T, int B>
__global__ void __launch_bounds__(B) rows_block(const uint4* in, std::int64_t row_vectors, float* out) {
  const uint4* row = in + static_cast<std::int64_t>(blockIdx.x) * row_vectors;
  float acc[4] = {};
  std::int64_t i = threadIdx.x;
  for (; i + 3 * B < row_vectors; i += 4 * B) {
    uint4 v[4];
#pragma unroll
    for (int u = 0; u < 4; ++u) v[u] = row[i + u * B];
#pragma unroll
    for (int u = 0; u < 4; ++u) acc[u] += vector_sum<T>(v[u]);
  }
  for (; i < row_vectors; i += B) acc[0] += vector_sum<T>(row[i]);
  __shared__ float warps[32];
  float v = lane_sum((acc[0] + acc[1]) + (acc[2] + acc[3]));
  if (threadIdx.x % 32 == 0) warps[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x < 32) {
    v = lane_sum(threadIdx.x < B / 32 ? warps[threadIdx.x] : 0.0f);
    if (threadIdx.x == 0) out[blockIdx.x] = v;
  }
}

/// Column sums over row chunk blockIdx.y: LX column lanes of 16-byte vectors x LY row lanes,
/// 4 rows in flight per thread, one partial per column per chunk.
template <typename T, int LX, int LY>
__global__ void __launch_bounds__(LX* LY) columns(const T* in, std::int64_t rows, std::int64_t cols, float* partials) {
  constexpr int W = 16 / sizeof(T);
  __shared__ float strip[LY][LX * W + 1];
  const int tx = threadIdx.x % LX, ty = threadIdx.x / LX;
  const std::int64_t col = (static_cast<std::int64_t>(blockIdx.x) * LX + tx) * W;
  const std::int64_t per_chunk = (rows + gridDim.y - 1) / gridDim.y;
  const std::int64_t begin = blockIdx.y * per_chunk, end = min(rows, begin + per_chunk);
  float acc[W] = {};
  std::int64_t r = begin + ty;
  for (; r + 3 * LY < end; r += 4 * LY) {
    uint4 v[4];
#pragma unroll
    for (int u = 0; u < 4; ++u) v[u] = *reinterpret_cast<const uint4*>(in + (r + u * LY) * cols + col);
#pragma unroll
    for (int u = 0; u < 4; ++u) {
      T e[W];
      memcpy(e, &v[u], 16);
#pragma unroll
      for (int w = 0; w < W; ++w) acc[w] += static_cast<float>(e[w]);
    }
  }
  for (; r < end; r += LY) {
    const uint4 v = *reinterpret_cast<const uint4*>(in + r * cols + col);
    T e[W];
    memcpy(e, &v, 16);
#pragma unroll
    for (int w = 0; w < W; ++w) acc[w] += static_cast<float>(e[w]);
  }
  if constexpr (LY == 1) {
#pragma unroll
    for (int w = 0; w < W; ++w) partials[blockIdx.y * cols + col + w] = acc[w];
  } else {
#pragma unroll
    for (int w = 0; w < W; ++w) strip[ty][tx * W + w] = acc[w];
    __syncthreads();
    const std::int64_t block_col = static_cast<std::int64_t>(blockIdx.x) * LX * W;
    for (int j = threadIdx.x; j < LX * W; j += LX * LY) {
      float s = 0.0f;
      for (int y = 0; y < LY; ++y) s += strip[y][j];
      partials[blockIdx.y * cols + block_col + j] = s;
    }
  }
}

template <typename T>
void run_dtype(probe::Session& session, const char* dtype, std::int64_t rows, std::int64_t cols, double peak_gbps, bool zeros) {
  const std::int64_t n = rows * cols;
  const double bytes = static_cast<double>(n) * sizeof(T);
  const std::int64_t vectors = n * static_cast<std::int64_t>(sizeof(T)) / 16;
  T* in = nullptr;
  float *out = nullptr, *partials = nullptr;
  void* copy_dst = nullptr;
  KBENCH_CUDA_CALL(cudaMalloc(&in, n * sizeof(T)));
  // Random mantissas and signs, exponents kept small: fp32 0xBF7FFFFF, fp16 pairs 0xBBFFBBFF.
  probe::fill_hashed<<<4 * session.device.sm_count, 256>>>(reinterpret_cast<unsigned*>(in), n * sizeof(T) / 4,
                                                      zeros ? 0u : (sizeof(T) == 4 ? 0xBF7FFFFFu : 0xBBFFBBFFu), 0u);
  KBENCH_CHECK_LAUNCH();
  KBENCH_CUDA_CALL(cudaDeviceSynchronize());
  KBENCH_CUDA_CALL(cudaMalloc(&out, sizeof(float)));
  KBENCH_CUDA_CALL(cudaMalloc(&partials, 64ull << 20));
  KBENCH_CUDA_CALL(cudaMalloc(&copy_dst, n * sizeof(T) / 2));
  const auto* in4 = reinterpret_cast<const uint4*>(in);
  auto report = [&](const std::string& name, double us) {
    std::printf("%-5s %-6s %6lldx%-6lld %-22s %9.2f us %8.1f GB/s %6.1f %% of peak\n", dtype, zeros ? "zeros" : "random", static_cast<long long>(rows),
                static_cast<long long>(cols), name.c_str(), us, bytes / us * 1e-3, 100.0 * bytes / us * 1e-3 / peak_gbps);
  };
  report("copy (half, d2d)", session.cold_us([&] {
    KBENCH_CUDA_CALL(cudaMemcpyAsync(copy_dst, in, n * sizeof(T) / 2, cudaMemcpyDeviceToDevice));
  }));
  for (int per_sm : {4, 8}) {
    const int grid = per_sm * session.device.sm_count;
    report("grid_stride " + std::to_string(per_sm) + "/SM", session.cold_us([&] { grid_stride<T><<<grid, kBlock>>>(in4, vectors, out); }));
    report("chunks " + std::to_string(per_sm) + "/SM", session.cold_us([&] { chunks<T><<<grid, kBlock>>>(in4, vectors, out); }));
  }
  auto tile_run = [&](auto v_tag) {
    constexpr int V = decltype(v_tag)::value;
    const auto blocks = static_cast<unsigned>((vectors + kBlock * V - 1) / (kBlock * V));
    report("tiles " + std::to_string(V), session.cold_us([&] { tiles<T, V><<<blocks, kBlock>>>(in4, vectors, out); }));
  };
  tile_run(std::integral_constant<int, 4>{});
  tile_run(std::integral_constant<int, 8>{});
  tile_run(std::integral_constant<int, 16>{});
  if (cols * static_cast<std::int64_t>(sizeof(T)) % 16 == 0) {
    const std::int64_t row_vectors = cols * static_cast<std::int64_t>(sizeof(T)) / 16;
    const auto grid = static_cast<unsigned>(rows);
    report("rows 128", session.cold_us([&] { rows_block<T, 128><<<grid, 128>>>(in4, row_vectors, partials); }));
    report("rows 256", session.cold_us([&] { rows_block<T, 256><<<grid, 256>>>(in4, row_vectors, partials); }));
    report("rows 512", session.cold_us([&] { rows_block<T, 512><<<grid, 512>>>(in4, row_vectors, partials); }));
  }
  constexpr int W = 16 / sizeof(T);
  auto column_run = [&](auto lx_tag, auto ly_tag, int per_sm) {
    constexpr int LX = decltype(lx_tag)::value, LY = decltype(ly_tag)::value;
    if (cols % (LX * W) != 0) return;
    const std::int64_t strips = cols / (LX * W);
    const std::int64_t chunk_count = std::clamp<std::int64_t>((per_sm * session.device.sm_count + strips - 1) / strips, 1, rows / 4);
    if (chunk_count * cols * 4 > (64ll << 20)) return;
    const dim3 grid(static_cast<unsigned>(strips), static_cast<unsigned>(chunk_count));
    report("cols " + std::to_string(LX) + "x" + std::to_string(LY) + " " + std::to_string(per_sm) + "/SM (" +
               std::to_string(chunk_count) + ")",
           session.cold_us([&] { columns<T, LX, LY><<<grid, LX * LY>>>(in, rows, cols, partials); }));
  };
  {
    for (int per_sm : {2, 3, 4, 8}) column_run(std::integral_constant<int, 32>{}, std::integral_constant<int, 8>{}, per_sm);
    for (int per_sm : {2, 4}) column_run(std::integral_constant<int, 32>{}, std::integral_constant<int, 16>{}, per_sm);
    for (int per_sm : {2, 4}) column_run(std::integral_constant<int, 64>{}, std::integral_constant<int, 4>{}, per_sm);
    for (int per_sm : {4, 8}) column_run(std::integral_constant<int, 16>{}, std::integral_constant<int, 16>{}, per_sm);
    for (int per_sm : {1, 2, 4}) column_run(std::integral_constant<int, 256>{}, std::integral_constant<int, 1>{}, per_sm);
    for (int per_sm : {2, 4}) column_run(std::integral_constant<int, 128>{}, std::integral_constant<int, 2>{}, per_sm);
  }
  KBENCH_CUDA_CALL(cudaFree(in));
  KBENCH_CUDA_CALL(cudaFree(out));
  KBENCH_CUDA_CALL(cudaFree(partials));
  KBENCH_CUDA_CALL(cudaFree(copy_dst));
}

}  // namespace

int main(int argc, char** argv) try {
  const probe::Args args =
      probe::parse_args(argc, argv, "sum_layout_probe [rows cols [samples]]: rows >= 4, rows x cols a multiple of 8", 4);
  probe::Session session(args.samples);
  session.print_banner();
  for (const bool zeros : {false, true}) {
    run_dtype<float>(session, "fp32", args.rows, args.cols, session.device.peak_gbps, zeros);
    run_dtype<__half>(session, "fp16", args.rows, args.cols, session.device.peak_gbps, zeros);
  }
  return 0;
} catch (const std::exception& error) {
  return probe::fail(error);
}
