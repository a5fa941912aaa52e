// softmax_phase_probe: for few long rows, does a softmax lose its ~5 µs over the copy roof to
// the phase structure itself (read all of a row, meet, then write all of it), or to its math and
// its exchange? A probe behind kernels/softmax/NOTES.md (issue 22, sixth round), outside kbench's
// ops. Everything is timed in one process, in kbench's cold method (kbench's L2Flusher before each
// sample, one call per event pair, median), on fp32 tensors of 4, 8, 16 and 32 MiB:
//
//   softmax_phase_probe [samples]     (default 50)
//
//   d2d copy                 cudaMemcpyAsync device to device: kbench's copy roof
//   copy16                   a grid-stride kernel copy, 16-byte vectors, 4 per thread in flight
//   read only                every 16-byte vector read, one float atomicAdd per block (the sum)
//   write only               every 16-byte vector written (a fill)
//   bulk C/row, <barrier>, <store>
//                            each row over C blocks of 256 threads (one slice each, rows in
//                            order, as the removed cluster_bulk_row cut them); thread 0 asks for the whole
//                            slice at once with bulk copies (8 KiB pieces, an mbarrier each), every
//                            thread waits for all of it, then <barrier>: none (each block writes as
//                            soon as its own slice landed), cluster (clusters of the row's C
//                            blocks: a cluster barrier) or grid (one cooperative grid, every
//                            block resident: a global counter), then the slice goes back
//                            unchanged to the output by <store>: bulk (thread 0's cp.async.bulk
//                            stores) or st.v4 (every thread stores its vectors)
//
// No math and no state exchange: what the phase kernels cost over copy16 is the phase structure.
// A shape whose slices or clusters the device cannot hold prints "does not fit". Every phase
// kernel's output is compared with its input, bit for bit.
#include "apps/probes/probe_support.cuh"
#include "kernels/common/bulk_copy.cuh"

#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

namespace {

constexpr int kBlock = 256;
constexpr int kPieceVectors = 8 * 1024 / 16;
constexpr int kMaxPieces = 32;                       ///< 256 KiB of 8 KiB pieces, past any block's shared memory
constexpr std::int64_t kMaxSliceBytes = 224 * 1024;  ///< within Hopper's 227 KiB per block, with the static part

enum class Meet { none, cluster, grid };

__global__ void __launch_bounds__(kBlock) copy16(const uint4* __restrict__ in, uint4* __restrict__ out, std::int64_t vectors) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * kBlock;
  std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * kBlock + threadIdx.x;
  for (; i + 3 * stride < vectors; i += 4 * stride) {
    uint4 v[4];
#pragma unroll
    for (int u = 0; u < 4; ++u) v[u] = in[i + u * stride];
#pragma unroll
    for (int u = 0; u < 4; ++u) out[i + u * stride] = v[u];
  }
  for (; i < vectors; i += stride) out[i] = in[i];
}

__global__ void __launch_bounds__(kBlock) read_sum(const uint4* __restrict__ in, std::int64_t vectors, float* sum) {
  __shared__ float warps[kBlock / 32];
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * kBlock;
  std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * kBlock + threadIdx.x;
  float acc = 0.0f;
  auto add = [&](uint4 v) {
    acc += (__uint_as_float(v.x) + __uint_as_float(v.y)) + (__uint_as_float(v.z) + __uint_as_float(v.w));
  };
  for (; i + 3 * stride < vectors; i += 4 * stride) {
    uint4 v[4];
#pragma unroll
    for (int u = 0; u < 4; ++u) v[u] = in[i + u * stride];
#pragma unroll
    for (int u = 0; u < 4; ++u) add(v[u]);
  }
  for (; i < vectors; i += stride) add(in[i]);
  for (int offset = 16; offset > 0; offset >>= 1) acc += __shfl_xor_sync(0xffffffffu, acc, offset);
  if (threadIdx.x % 32 == 0) warps[threadIdx.x / 32] = acc;
  __syncthreads();
  if (threadIdx.x == 0) {
    float total = 0.0f;
    for (int w = 0; w < kBlock / 32; ++w) total += warps[w];
    atomicAdd(sum, total);
  }
}

__global__ void __launch_bounds__(kBlock) fill(uint4* __restrict__ out, std::int64_t vectors) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * kBlock;
  const uint4 value = make_uint4(0x3F800000u, 0x3F800000u, 0x3F800000u, 0x3F800000u);
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * kBlock + threadIdx.x; i < vectors; i += stride) out[i] = value;
}

/// Block b holds vectors [b x slice, +slice) of the tensor in shared memory: requested at once,
/// waited for, then (after the barrier `M`) written back unchanged. With Meet::grid, `arrived`
/// counts every block's arrival over all calls and `target` is this call's total.
template <Meet M, bool BulkStore>
__global__ void __launch_bounds__(kBlock)
    phase_bulk(const uint4* __restrict__ in, uint4* __restrict__ out, std::int64_t vectors, std::int64_t slice,
               unsigned* arrived, unsigned target) {
  extern __shared__ uint4 held[];
  __shared__ alignas(8) std::uint64_t landed[kMaxPieces];
  const std::int64_t begin = static_cast<std::int64_t>(blockIdx.x) * slice;
  const std::int64_t left = vectors - begin;
  const int count = static_cast<int>(left < 0 ? 0 : (left < slice ? left : slice));
  const int pieces = (count + kPieceVectors - 1) / kPieceVectors;
  if (threadIdx.x == 0) {
    for (int p = 0; p < pieces; ++p) kbench::bulk::barrier_init(&landed[p]);
    kbench::bulk::fence_barrier_init();
    for (int p = 0; p < pieces; ++p) {
      const int first = p * kPieceVectors;
      const auto bytes = static_cast<std::uint32_t>(min(kPieceVectors, count - first)) * 16u;
      kbench::bulk::arrive_expect_bytes(&landed[p], bytes);
      kbench::bulk::load_bulk(held + first, in + begin + first, bytes, &landed[p]);
    }
  }
  __syncthreads();
  for (int p = 0; p < pieces; ++p) kbench::bulk::wait_phase(&landed[p], 0);
  if constexpr (M == Meet::cluster) {
    cooperative_groups::this_cluster().sync();
  } else if constexpr (M == Meet::grid) {
    if (threadIdx.x == 0) {
      __threadfence();
      atomicAdd(arrived, 1u);
      const long long start = clock64();
      while (*static_cast<volatile unsigned*>(arrived) < target) {
        if (clock64() - start > (1ll << 33)) __trap();  // a block not resident: fail, not hang
      }
    }
    __syncthreads();
  }
  if constexpr (BulkStore) {
    if (threadIdx.x == 0) {
      for (int p = 0; p < pieces; ++p) {
        const int first = p * kPieceVectors;
        kbench::bulk::store_bulk(out + begin + first, held + first, static_cast<std::uint32_t>(min(kPieceVectors, count - first)) * 16u);
      }
      kbench::bulk::commit_bulk();
      kbench::bulk::wait_bulk_reads<0>();
    }
  } else {
    for (int v = threadIdx.x; v < count; v += kBlock) out[begin + v] = held[v];
  }
}

struct Shape {
  std::int64_t rows, cols;
};

struct Tensors {
  std::int64_t vectors = 0;
  uint4* in = nullptr;
  uint4* out = nullptr;
  float* sum = nullptr;
  unsigned* arrived = nullptr;
  explicit Tensors(probe::Session& session, std::int64_t bytes) : vectors(bytes / 16) {
    KBENCH_CUDA_CALL(cudaMalloc(&in, bytes));
    KBENCH_CUDA_CALL(cudaMalloc(&out, bytes));
    KBENCH_CUDA_CALL(cudaMalloc(&sum, sizeof(float)));
    KBENCH_CUDA_CALL(cudaMalloc(&arrived, sizeof(unsigned)));
    KBENCH_CUDA_CALL(cudaMemset(arrived, 0, sizeof(unsigned)));
    probe::fill_hashed<<<4 * session.device.sm_count, 256>>>(reinterpret_cast<unsigned*>(in), bytes / 4, 0xBF7FFFFFu, 0u);
    KBENCH_CHECK_LAUNCH();
    KBENCH_CUDA_CALL(cudaDeviceSynchronize());
  }
  ~Tensors() {
    cudaFree(in);
    cudaFree(out);
    cudaFree(sum);
    cudaFree(arrived);
  }
  Tensors(const Tensors&) = delete;
  Tensors& operator=(const Tensors&) = delete;

  /// "(output = input)" or how many bytes differ, after poisoning the output and one more call.
  std::string check(const std::function<void()>& launch) const {
    const std::size_t bytes = static_cast<std::size_t>(vectors) * 16;
    KBENCH_CUDA_CALL(cudaMemset(out, 0xFF, bytes));
    launch();
    KBENCH_CHECK_LAUNCH();
    KBENCH_CUDA_CALL(cudaDeviceSynchronize());
    std::vector<unsigned char> a(bytes), b(bytes);
    KBENCH_CUDA_CALL(cudaMemcpy(a.data(), in, bytes, cudaMemcpyDeviceToHost));
    KBENCH_CUDA_CALL(cudaMemcpy(b.data(), out, bytes, cudaMemcpyDeviceToHost));
    std::size_t differ = 0;
    for (std::size_t i = 0; i < bytes; ++i) differ += a[i] != b[i];
    return differ == 0 ? "(output = input)" : "(OUTPUT DIFFERS in " + std::to_string(differ) + " bytes)";
  }
};

void report(const Shape& s, const std::string& name, double us, double bytes, double copy_us, const std::string& check = "") {
  std::printf("fp32 %3lldx%-8lld %-34s %8.2f us %7.0f GB/s %6.1f %% of the d2d copy's time %s\n",
              static_cast<long long>(s.rows), static_cast<long long>(s.cols), name.c_str(), us, bytes / us * 1e-3,
              100.0 * copy_us / us, check.c_str());
  std::fflush(stdout);
}

void report_unfit(const Shape& s, const std::string& name, const std::string& why) {
  std::printf("fp32 %3lldx%-8lld %-34s does not fit: %s\n", static_cast<long long>(s.rows), static_cast<long long>(s.cols),
              name.c_str(), why.c_str());
  std::fflush(stdout);
}

template <Meet M, bool BulkStore>
void run_phases(probe::Session& session, Tensors& t, const Shape& s, int blocks_per_row, double copy_us) {
  const char* meet = M == Meet::none ? "none" : M == Meet::cluster ? "cluster" : "grid";
  const std::string name = "bulk " + std::to_string(blocks_per_row) + "/row, " + meet + ", " + (BulkStore ? "bulk" : "st.v4");
  const std::int64_t row_vectors = s.cols / 4;
  const std::int64_t slice = (row_vectors + blocks_per_row - 1) / blocks_per_row;
  const std::int64_t blocks = (t.vectors + slice - 1) / slice;  // rows x blocks_per_row where the slices divide rows
  const auto smem = static_cast<std::size_t>(slice * 16);
  if ((M == Meet::cluster && row_vectors % blocks_per_row != 0) || static_cast<std::int64_t>(smem) > kMaxSliceBytes) {
    report_unfit(s, name, std::to_string(smem / 1024) + " KiB slices");
    return;
  }
  const auto kernel = phase_bulk<M, BulkStore>;
  KBENCH_CUDA_CALL(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem)));
  if (M == Meet::cluster) KBENCH_CUDA_CALL(cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(static_cast<unsigned>(blocks));
  config.blockDim = dim3(kBlock);
  config.dynamicSmemBytes = smem;
  cudaLaunchAttribute attribute{};
  if (M == Meet::cluster) {
    attribute.id = cudaLaunchAttributeClusterDimension;
    attribute.val.clusterDim.x = static_cast<unsigned>(blocks_per_row);
    attribute.val.clusterDim.y = 1;
    attribute.val.clusterDim.z = 1;
    config.attrs = &attribute;
    config.numAttrs = 1;
    int clusters = 0;
    KBENCH_CUDA_CALL(cudaOccupancyMaxActiveClusters(&clusters, kernel, &config));
    if (clusters < 1) {
      report_unfit(s, name, "no cluster of " + std::to_string(blocks_per_row) + " fits");
      return;
    }
  } else if (M == Meet::grid) {
    int per_sm = 0;
    KBENCH_CUDA_CALL(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kBlock, smem));
    if (static_cast<std::int64_t>(per_sm) * session.device.sm_count < blocks) {
      report_unfit(s, name, std::to_string(blocks) + " blocks, " + std::to_string(per_sm) + " per SM resident");
      return;
    }
    attribute.id = cudaLaunchAttributeCooperative;  // every block resident at once, or the launch fails
    attribute.val.cooperative = 1;
    config.attrs = &attribute;
    config.numAttrs = 1;
  }
  unsigned calls = 0;  // the grid counter only grows: call k waits for (k + 1) x blocks arrivals
  auto launch = [&] {
    ++calls;
    KBENCH_CUDA_CALL(cudaLaunchKernelEx(&config, kernel, static_cast<const uint4*>(t.in), t.out, t.vectors, slice,
                                        t.arrived, static_cast<unsigned>(calls * blocks)));
  };
  const double us = session.cold_us(launch);
  report(s, name, us, 2.0 * t.vectors * 16, copy_us, t.check(launch));
}

void run_shape(probe::Session& session, const Shape& s) {
  const std::int64_t bytes = s.rows * s.cols * 4;
  Tensors t(session, bytes);
  const double copy_us = session.cold_us([&] {
    KBENCH_CUDA_CALL(cudaMemcpyAsync(t.out, t.in, static_cast<std::size_t>(bytes), cudaMemcpyDeviceToDevice));
  });
  report(s, "d2d copy", copy_us, 2.0 * bytes, copy_us);
  const unsigned stream_grid = static_cast<unsigned>(8 * session.device.sm_count);  // 2048 threads per SM
  auto copy_launch = [&] { copy16<<<stream_grid, kBlock>>>(t.in, t.out, t.vectors); };
  report(s, "copy16", session.cold_us(copy_launch), 2.0 * bytes, copy_us, t.check(copy_launch));
  report(s, "read only (sum)", session.cold_us([&] { read_sum<<<stream_grid, kBlock>>>(t.in, t.vectors, t.sum); }), bytes,
         copy_us);
  report(s, "write only (fill)", session.cold_us([&] { fill<<<stream_grid, kBlock>>>(t.out, t.vectors); }), bytes, copy_us);
  for (int c : {8, 16}) {
    run_phases<Meet::none, true>(session, t, s, c, copy_us);
    run_phases<Meet::cluster, true>(session, t, s, c, copy_us);
    run_phases<Meet::cluster, false>(session, t, s, c, copy_us);
    run_phases<Meet::grid, true>(session, t, s, c, copy_us);
  }
  // The grid barrier with the fewest slices the resident grid holds (2 blocks per SM).
  const std::int64_t grid_blocks = 2 * session.device.sm_count;
  const std::int64_t per_row = grid_blocks / s.rows;
  if (per_row > 16) run_phases<Meet::grid, true>(session, t, s, static_cast<int>(per_row), copy_us);
}

}  // namespace

int main(int argc, char** argv) try {
  const int samples = argc > 1 ? std::atoi(argv[1]) : 50;
  if (samples < 1 || argc > 2) {
    std::fprintf(stderr, "usage: softmax_phase_probe [samples]: samples >= 1 (default 50)\n");
    return 2;
  }
  probe::Session session(samples);
  session.require_hopper("softmax_phase_probe: the bulk copies and clusters need compute capability 9.0 or later");
  session.print_banner();
  // fp32 tensors of 4, 8, 16, 16 and 32 MiB: rows x cols of the few-long-rows class.
  for (const Shape& s : {Shape{4, 262144}, Shape{8, 262144}, Shape{32, 131072}, Shape{4, 1048576}, Shape{16, 524288}}) {
    run_shape(session, s);
  }
  return 0;
} catch (const std::exception& error) {
  return probe::fail(error);
}
