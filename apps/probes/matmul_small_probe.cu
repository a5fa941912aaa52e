// matmul_small_probe: where did register_blocked's small-problem kernel (matmul_small_simt.cu,
// fp32, 16×32 tiles, 8 warps splitting K) spend its 3.4 µs at 256³, and what cuts it? A probe
// behind kernels/matmul/NOTES.md. It times, in one process and a hot method like kbench's (a CUDA
// graph of 100 back-to-back calls replayed 21 times, median per call; inputs stay in L2; no clock
// check), the
// shipped launcher and kernels beside it. The "step" kernels copy the version before 2026-11-23
// (sixth session): every warp takes 4 k of each block-wide step of 32 k, a 4-stage cp.async
// pipeline with a __syncthreads per step:
//   step: copy     that kernel, whole tiles only
//   step: loads    its copies, barriers and waits, no shared loads or FMAs
//   step: math     its shared loads, FMAs and barriers, no copies (the stages hold garbage)
//   step: neither  its barriers, partial tiles and stores alone
//   cluster CN×CM  the step kernel's tile, layout and arithmetic order, but a cluster of CN blocks
//                  along N and CM along M loads each stage once: every block fetches its share of
//                  the cluster's A rows (shared along N) and B rows (shared along M) with 128-byte
//                  bulk copies multicast to the blocks that need them, completing on per-stage
//                  mbarriers; per-stage "empty" barriers that every block of the cluster arrives
//                  on keep a slot from being refilled before all blocks are done with it
//   warp slices    no block barrier in the main loop: warp w owns the K chunks w, w + 8, ... and
//                  fills a ring of its own (the design that ships since; chunk size and ring depth
//                  as named). A copy, not a shared template: moving the shipped kernel into a
//                  header templated on chunk and ring, with its FMA step and epilogue as helpers
//                  shared with the step kernel here, changed its machine code and cost 0.13-0.15 µs
//                  per call at 256³ on the H100 (3.00-3.03 against 2.86-2.89 µs, both compiled
//                  alike and timed in the same device call; 1024³ 71.2-71.7 against 70.4-70.8), so
//                  the shipped kernel keeps its own file and this copy follows it by hand
// Whole-tile shapes only (M % 64, N % 64, K % 32 all 0). Every variant that computes is compared
// with the shipped kernel's output: positive inputs, so every output is a sum of positive products
// and a relative difference is well defined. Each must agree within 1e-5 relative; the line says
// "bit-identical" where it is (a copy that adds in the shipped kernel's order should be).
//
//   matmul_small_probe [m n k [variant]]      (default 256 256 256, every variant)
// A wait in a cluster variant that spins too long traps; on the first, plain call of the variant
// the probe then prints which barrier, step and block it was (a stall inside a timed graph ends
// the probe through KBENCH_CUDA_CALL's error without that report).
#include "apps/probes/bulk_copy.cuh"
#include "apps/probes/probe_support.cuh"
#include "kernels/matmul/cp_async.cuh"
#include "kernels/matmul/matmul_kernels.hpp"

#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <vector>

namespace {

namespace cg = cooperative_groups;
using kbench::matmul::cp_async_16;
using kbench::matmul::cp_async_commit;
using kbench::matmul::cp_async_wait;

// The step kernel's constants (matmul_small_simt.cu before 2026-11-23).
constexpr int kBM = 16, kBN = 32, kBK = 32, kThreads = 256, kSlices = 8, kSliceK = 4, kStages = 4;
constexpr int kALd = kBK + 4, kBLd = kBN;
constexpr int kAStage = kBM * kALd, kBStage = kBK * kBLd, kStage = kAStage + kBStage;

/// One step's FMAs of one K-slice, as the step kernel does them.
__device__ __forceinline__ void step_fmas(const float* stage, int slice, int ty, int tx, float (&acc)[4][4]) {
  const float* a_rows = stage + ty * kALd + slice * kSliceK;
  const float* b_rows = stage + kAStage + slice * kSliceK * kBLd + 4 * tx;
  float4 av[4], bv[4];
#pragma unroll
  for (int i = 0; i < 4; ++i) av[i] = *reinterpret_cast<const float4*>(a_rows + 4 * i * kALd);
#pragma unroll
  for (int j = 0; j < 4; ++j) bv[j] = *reinterpret_cast<const float4*>(b_rows + j * kBLd);
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    const float a_frag[4] = {av[i].x, av[i].y, av[i].z, av[i].w};
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      acc[i][0] = fmaf(a_frag[j], bv[j].x, acc[i][0]);
      acc[i][1] = fmaf(a_frag[j], bv[j].y, acc[i][1]);
      acc[i][2] = fmaf(a_frag[j], bv[j].z, acc[i][2]);
      acc[i][3] = fmaf(a_frag[j], bv[j].w, acc[i][3]);
    }
  }
}

/// The slices' partial tiles meet in shared memory (`partial`, 8 × 16 × 32 floats); each thread
/// adds two outputs' partials in slice order and stores them.
__device__ __forceinline__ void reduce_and_store(float* partial, const float (&acc)[4][4], int slice, int ty, int tx,
                                                 float* c, int m, int n, int block_row, int block_col) {
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    *reinterpret_cast<float4*>(partial + (slice * kBM + ty + 4 * i) * kBN + 4 * tx) =
        make_float4(acc[i][0], acc[i][1], acc[i][2], acc[i][3]);
  }
  __syncthreads();
  const int r = static_cast<int>(threadIdx.x) / 16, col = 2 * (static_cast<int>(threadIdx.x) % 16);
  float2 sum = make_float2(0.0f, 0.0f);
#pragma unroll
  for (int s = 0; s < kSlices; ++s) {
    const float2 p = *reinterpret_cast<const float2*>(partial + (s * kBM + r) * kBN + col);
    sum.x += p.x;
    sum.y += p.y;
  }
  const int row = block_row + r, out_col = block_col + col;
  if (row < m && out_col < n) *reinterpret_cast<float2*>(c + static_cast<long long>(row) * n + out_col) = sum;
}

/// The step kernel (shipped before 2026-11-23) with its copies (Loads) or its shared loads and FMAs
/// (Math) switched off.
/// Whole tiles only: no zero fill.
template <bool Loads, bool Math>
__global__ void __launch_bounds__(kThreads) split_pipeline(const float* __restrict__ a, const float* __restrict__ b,
                                                           float* __restrict__ c, int m, int n, int k) {
  __shared__ __align__(16) float stages[kStages][kStage];
  const int tiles_n = n / kBN;
  const int block_row = static_cast<int>(blockIdx.x) / tiles_n * kBM;
  const int block_col = static_cast<int>(blockIdx.x) % tiles_n * kBN;
  const int tid = static_cast<int>(threadIdx.x);
  const int slice = tid / 32, lane = tid % 32, ty = lane / 8, tx = lane % 8;
  const int r_a = tid / (kBK / 4), a_k = (tid % (kBK / 4)) * 4;
  const int b_k = tid / (kBN / 4), b_col = (tid % (kBN / 4)) * 4;
  const float* a_src = a + static_cast<long long>(block_row + r_a) * k + a_k;
  const float* b_src = b + static_cast<long long>(b_k) * n + block_col + b_col;
  auto issue = [&](int slot, int k0) {
    if (!Loads) return;
    if (tid < kBM * kBK / 4) cp_async_16(stages[slot] + r_a * kALd + a_k, a_src + k0, true);
    cp_async_16(stages[slot] + kAStage + b_k * kBLd + b_col, b_src + static_cast<long long>(k0) * n, true);
  };
  float acc[4][4] = {};
  const int steps = k / kBK;
  for (int s = 0; s < kStages - 1; ++s) {
    if (s < steps) issue(s, s * kBK);
    cp_async_commit();
  }
  for (int step = 0; step < steps; ++step) {
    cp_async_wait<kStages - 2>();
    __syncthreads();
    const int ahead = step + kStages - 1;
    if (ahead < steps) issue(ahead % kStages, ahead * kBK);
    cp_async_commit();
    if (Math) step_fmas(stages[step % kStages], slice, ty, tx, acc);
  }
  cp_async_wait<0>();
  __syncthreads();
  reduce_and_store(&stages[0][0], acc, slice, ty, tx, c, m, n, block_row, block_col);
}

/// No block barriers in the main loop: warp w owns the K chunks w, w + 8, w + 16, ... (ChunkK k
/// each) and fills a ring of Ring buffers of its own with cp.async, waiting only for its own
/// copies; the tile, the lanes' outputs and the epilogue are the shipped kernel's. Whole tiles
/// only. Dynamic shared memory: 8 × Ring × (16 × (ChunkK + 4) + ChunkK × 32) floats.
template <int ChunkK, int Ring>
__global__ void __launch_bounds__(kThreads) warp_slices(const float* __restrict__ a, const float* __restrict__ b,
                                                        float* __restrict__ c, int m, int n, int k) {
  constexpr int kLdA = ChunkK + 4;  // rows ty + 4i of one float4 column fall in distinct banks
  constexpr int kAPiece = kBM * kLdA, kBPiece = ChunkK * kBN, kPiece = kAPiece + kBPiece;
  constexpr int kACopies = kBM * ChunkK / 4 / 32, kBCopies = ChunkK * kBN / 4 / 32;  // per lane
  static_assert(kACopies >= 1 && kBCopies >= 1, "every lane copies");
  extern __shared__ __align__(16) float dynamic_shared[];
  const int tiles_n = n / kBN;
  const int block_row = static_cast<int>(blockIdx.x) / tiles_n * kBM;
  const int block_col = static_cast<int>(blockIdx.x) % tiles_n * kBN;
  const int tid = static_cast<int>(threadIdx.x);
  const int warp = tid / 32, lane = tid % 32, ty = lane / 8, tx = lane % 8;
  float* ring = dynamic_shared + warp * Ring * kPiece;
  const int chunks = k / ChunkK;
  auto issue = [&](int buffer, int chunk) {
    float* piece = ring + buffer * kPiece;
    const int k0 = chunk * ChunkK;
#pragma unroll
    for (int i = 0; i < kACopies; ++i) {
      const int e = lane + 32 * i, r = e / (ChunkK / 4), kk = (e % (ChunkK / 4)) * 4;
      cp_async_16(piece + r * kLdA + kk, a + static_cast<long long>(block_row + r) * k + k0 + kk, true);
    }
#pragma unroll
    for (int i = 0; i < kBCopies; ++i) {
      const int e = lane + 32 * i, r = e / (kBN / 4), col = (e % (kBN / 4)) * 4;
      cp_async_16(piece + kAPiece + r * kBN + col, b + static_cast<long long>(k0 + r) * n + block_col + col, true);
    }
  };
  float acc[4][4] = {};
  // This warp's chunks: warp, warp + 8, ...; chunk i of them goes to buffer i % Ring.
#pragma unroll
  for (int i = 0; i < Ring - 1; ++i) {
    if (warp + kSlices * i < chunks) issue(i, warp + kSlices * i);
    cp_async_commit();
  }
  for (int i = 0; warp + kSlices * i < chunks; ++i) {
    const int ahead = i + Ring - 1;
    if (warp + kSlices * ahead < chunks) issue(ahead % Ring, warp + kSlices * ahead);
    cp_async_commit();
    cp_async_wait<Ring - 1>();  // this lane's copies of chunk i have landed
    __syncwarp();               // and every lane's
    const float* piece = ring + (i % Ring) * kPiece;
#pragma unroll
    for (int kk = 0; kk < ChunkK; kk += 4) {
      float4 av[4], bv[4];
#pragma unroll
      for (int r = 0; r < 4; ++r) av[r] = *reinterpret_cast<const float4*>(piece + (ty + 4 * r) * kLdA + kk);
#pragma unroll
      for (int j = 0; j < 4; ++j) bv[j] = *reinterpret_cast<const float4*>(piece + kAPiece + (kk + j) * kBN + 4 * tx);
#pragma unroll
      for (int r = 0; r < 4; ++r) {
        const float a_frag[4] = {av[r].x, av[r].y, av[r].z, av[r].w};
#pragma unroll
        for (int j = 0; j < 4; ++j) {
          acc[r][0] = fmaf(a_frag[j], bv[j].x, acc[r][0]);
          acc[r][1] = fmaf(a_frag[j], bv[j].y, acc[r][1]);
          acc[r][2] = fmaf(a_frag[j], bv[j].z, acc[r][2]);
          acc[r][3] = fmaf(a_frag[j], bv[j].w, acc[r][3]);
        }
      }
    }
    __syncwarp();  // every lane is done with the buffer before it is refilled
  }
  cp_async_wait<0>();
  __syncthreads();
  reduce_and_store(dynamic_shared, acc, warp, ty, tx, c, m, n, block_row, block_col);
}

template <int ChunkK, int Ring>
void launch_warp_slices(const float* a, const float* b, float* c, int m, int n, int k, cudaStream_t stream) {
  constexpr int kBytes = kSlices * Ring * (kBM * (ChunkK + 4) + ChunkK * kBN) * static_cast<int>(sizeof(float));
  static_assert(kBytes >= kSlices * kBM * kBN * static_cast<int>(sizeof(float)), "the partials fit");
  KBENCH_CUDA_CALL(
      cudaFuncSetAttribute(warp_slices<ChunkK, Ring>, cudaFuncAttributeMaxDynamicSharedMemorySize, kBytes));
  warp_slices<ChunkK, Ring><<<static_cast<unsigned>((m / kBM) * (n / kBN)), kThreads, kBytes, stream>>>(a, b, c, m, n, k);
}

/// Where a stuck wait reports before trapping (host-mapped memory: it survives the trap).
__device__ int* g_stuck = nullptr;

/// Records which barrier block `blockIdx` waited on too long, then traps.
__device__ __noinline__ void report_stuck(int kind, int step) {
  if (g_stuck != nullptr && atomicCAS(g_stuck, 0, 1) == 0) {
    g_stuck[1] = kind;
    g_stuck[2] = step;
    g_stuck[3] = static_cast<int>(blockIdx.x);
    g_stuck[4] = static_cast<int>(blockIdx.y);
    g_stuck[5] = static_cast<int>(threadIdx.x);
    __threadfence_system();
  }
  __trap();
}

constexpr long long kSpinLimit = 1ll << 22;  // try_waits before a wait is reported stuck

/// The step kernel's tile and arithmetic, stages loaded once per cluster of CN × CM blocks (grid: x
/// along N, y along M; cluster dims CN × CM × 1).
template <int CN, int CM>
__global__ void __launch_bounds__(kThreads) cluster_multicast(const float* __restrict__ a, const float* __restrict__ b,
                                                              float* __restrict__ c, int m, int n, int k) {
  constexpr int kClusterSize = CN * CM;
  constexpr int kARows = kBM / CN, kBRows = kBK / CM;  // rows of a stage this block fetches
  constexpr unsigned kStageBytes = (kBM * kBK + kBK * kBN) * sizeof(float);
  static_assert(kARows <= 32 && kBRows <= 32, "one warp issues a stage");
  __shared__ __align__(128) float stages[kStages][kStage];
  __shared__ __align__(8) unsigned long long full[kStages], empty[kStages];
  const cg::cluster_group cluster = cg::this_cluster();
  const int cx = static_cast<int>(blockIdx.x) % CN, cy = static_cast<int>(blockIdx.y) % CM;
  const int block_row = static_cast<int>(blockIdx.y) * kBM, block_col = static_cast<int>(blockIdx.x) * kBN;
  const int tid = static_cast<int>(threadIdx.x);
  const int slice = tid / 32, lane = tid % 32, ty = lane / 8, tx = lane % 8;
  unsigned short a_mask = 0, b_mask = 0;  // ranks sharing this block's rows of M (A) / columns of N (B)
  for (int x = 0; x < CN; ++x) a_mask |= static_cast<unsigned short>(1u << (x + cy * CN));
  for (int y = 0; y < CM; ++y) b_mask |= static_cast<unsigned short>(1u << (cx + y * CN));
  if (tid == 0) {
    for (int s = 0; s < kStages; ++s) {
      probe::barrier_init(&full[s], 1);
      probe::barrier_init(&empty[s], kClusterSize);
    }
    probe::fence_barrier_init();
  }
  cluster.sync();  // every block's barriers exist before any copy or arrival names them

  // Warp 0 issues: lane i fetches A row cx * kARows + i of the tile and B row cy * kBRows + i of
  // the step, 128 bytes each, into every block that shares them.
  auto issue = [&](int slot, int k0) {
    if (lane == 0) probe::barrier_expect(&full[slot], kStageBytes);
    __syncwarp();
    float* stage = stages[slot];
    if (lane < kARows) {
      const int r = cx * kARows + lane;
      const float* src = a + static_cast<long long>(block_row + r) * k + k0;
      if (CN == 1) {
        probe::bulk_copy(stage + r * kALd, src, kBK * sizeof(float), &full[slot]);
      } else {
        probe::multicast_copy(stage + r * kALd, src, kBK * sizeof(float), &full[slot], a_mask);
      }
    }
    if (lane < kBRows) {
      const int r = cy * kBRows + lane;
      const float* src = b + static_cast<long long>(k0 + r) * n + block_col;
      if (CM == 1) {
        probe::bulk_copy(stage + kAStage + r * kBLd, src, kBN * sizeof(float), &full[slot]);
      } else {
        probe::multicast_copy(stage + kAStage + r * kBLd, src, kBN * sizeof(float), &full[slot], b_mask);
      }
    }
  };

  float acc[4][4] = {};
  const int steps = k / kBK;
  if (slice == 0) {
    for (int s = 0; s < kStages && s < steps; ++s) issue(s, s * kBK);  // every slot starts empty
  }
  for (int step = 0; step < steps; ++step) {
    if (step > 0) {
      const int freed = (step - 1) % kStages;
      __syncthreads();  // this block is done with step - 1's slot
      if (tid == 0) {
        for (int rank = 0; rank < kClusterSize; ++rank) probe::arrive_remote(&empty[freed], static_cast<unsigned>(rank));
      }
      const int ahead = step + kStages - 1;
      if (slice == 0 && ahead < steps) {
        // Every block of the cluster is done with the slot before anyone refills it.
        long long spins = 0;
        while (!probe::barrier_try_wait<true>(&empty[freed], static_cast<unsigned>((step - 1) / kStages) & 1u)) {
          if (++spins > kSpinLimit) report_stuck(1, step);
        }
        issue(freed, ahead * kBK);
      }
    }
    long long spins = 0;
    while (!probe::barrier_try_wait(&full[step % kStages], static_cast<unsigned>(step / kStages) & 1u)) {
      if (++spins > kSpinLimit) report_stuck(2, step);
    }
    step_fmas(stages[step % kStages], slice, ty, tx, acc);
  }
  __syncthreads();
  reduce_and_store(&stages[0][0], acc, slice, ty, tx, c, m, n, block_row, block_col);
  cluster.sync();  // no block leaves while another may still arrive on its barriers
}

/// kbench's hot method: `calls` launches captured in a graph, replayed `replays` times between two
/// events; the median per call.
double hot_us(const std::function<void(cudaStream_t)>& launch, int calls = 100, int replays = 21) {
  cudaStream_t stream;
  KBENCH_CUDA_CALL(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  launch(stream);
  KBENCH_CHECK_LAUNCH();
  KBENCH_CUDA_CALL(cudaStreamSynchronize(stream));
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  KBENCH_CUDA_CALL(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  for (int i = 0; i < calls; ++i) launch(stream);
  KBENCH_CUDA_CALL(cudaStreamEndCapture(stream, &graph));
  KBENCH_CUDA_CALL(cudaGraphInstantiate(&exec, graph, 0));
  cudaEvent_t begin, end;
  KBENCH_CUDA_CALL(cudaEventCreate(&begin));
  KBENCH_CUDA_CALL(cudaEventCreate(&end));
  KBENCH_CUDA_CALL(cudaGraphLaunch(exec, stream));  // warm-up replay
  std::vector<float> per_call;
  for (int r = 0; r < replays; ++r) {
    KBENCH_CUDA_CALL(cudaEventRecord(begin, stream));
    KBENCH_CUDA_CALL(cudaGraphLaunch(exec, stream));
    KBENCH_CUDA_CALL(cudaEventRecord(end, stream));
    KBENCH_CUDA_CALL(cudaEventSynchronize(end));
    float ms = 0;
    KBENCH_CUDA_CALL(cudaEventElapsedTime(&ms, begin, end));
    per_call.push_back(ms * 1000.0f / calls);
  }
  KBENCH_CHECK_LAUNCH();
  std::sort(per_call.begin(), per_call.end());
  KBENCH_CUDA_CALL(cudaEventDestroy(begin));
  KBENCH_CUDA_CALL(cudaEventDestroy(end));
  KBENCH_CUDA_CALL(cudaGraphExecDestroy(exec));
  KBENCH_CUDA_CALL(cudaGraphDestroy(graph));
  KBENCH_CUDA_CALL(cudaStreamDestroy(stream));
  return per_call[per_call.size() / 2];
}

template <int CN, int CM>
void launch_cluster(const float* a, const float* b, float* c, int m, int n, int k, cudaStream_t stream) {
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(static_cast<unsigned>(n / kBN), static_cast<unsigned>(m / kBM), 1);
  config.blockDim = dim3(kThreads, 1, 1);
  config.stream = stream;
  cudaLaunchAttribute attribute{};
  attribute.id = cudaLaunchAttributeClusterDimension;
  attribute.val.clusterDim.x = CN;
  attribute.val.clusterDim.y = CM;
  attribute.val.clusterDim.z = 1;
  config.attrs = &attribute;
  config.numAttrs = 1;
  KBENCH_CUDA_CALL(cudaLaunchKernelEx(&config, cluster_multicast<CN, CM>, a, b, c, m, n, k));
}

}  // namespace

int main(int argc, char** argv) try {
  const int m = argc > 1 ? std::atoi(argv[1]) : 256;
  const int n = argc > 2 ? std::atoi(argv[2]) : 256;
  const int k = argc > 3 ? std::atoi(argv[3]) : 256;
  const int only = argc > 4 ? std::atoi(argv[4]) : -1;
  if (m < 64 || n < 64 || k < kBK || m % (4 * kBM) != 0 || n % (2 * kBN) != 0 || k % kBK != 0) {
    std::fprintf(stderr, "usage: matmul_small_probe [m n k [variant]]: m a multiple of 64, n of 64, k of 32\n");
    return 2;
  }
  const probe::Device device = probe::current_device();
  if (device.cc_major != 9) {
    std::fprintf(stderr, "the cluster copies are built for sm_90a: this probe needs compute capability 9.0\n");
    return 2;
  }
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  int* stuck = nullptr;
  KBENCH_CUDA_CALL(cudaHostAlloc(&stuck, 8 * sizeof(int), cudaHostAllocMapped));
  std::memset(stuck, 0, 8 * sizeof(int));
  int* stuck_device = nullptr;
  KBENCH_CUDA_CALL(cudaHostGetDevicePointer(&stuck_device, stuck, 0));
  KBENCH_CUDA_CALL(cudaMemcpyToSymbol(g_stuck, &stuck_device, sizeof(stuck_device)));
  std::printf("%s, %d SMs; hot: graph of 100 calls, median of 21 replays; %dx%dx%d fp32\n", device.name.c_str(),
              device.sm_count, m, n, k);
  float *a, *b, *c_ref, *c;
  const std::size_t a_words = static_cast<std::size_t>(m) * k, b_words = static_cast<std::size_t>(k) * n,
                    c_words = static_cast<std::size_t>(m) * n;
  KBENCH_CUDA_CALL(cudaMalloc(&a, a_words * 4));
  KBENCH_CUDA_CALL(cudaMalloc(&b, b_words * 4));
  KBENCH_CUDA_CALL(cudaMalloc(&c_ref, c_words * 4));
  KBENCH_CUDA_CALL(cudaMalloc(&c, c_words * 4));
  // 0x3F7FFFFF: positive floats below 1 (exponent at most 126), so every sum is finite.
  probe::fill_hashed<<<256, 256>>>(reinterpret_cast<unsigned*>(a), a_words, 0x3F7FFFFFu, 1u);
  probe::fill_hashed<<<256, 256>>>(reinterpret_cast<unsigned*>(b), b_words, 0x3F7FFFFFu, 2u);
  KBENCH_CHECK_LAUNCH();
  const kbench::matmul::Dims dims{m, n, k};
  kbench::matmul::launch_small_simt(a, b, c_ref, dims, nullptr);
  KBENCH_CUDA_CALL(cudaDeviceSynchronize());
  std::vector<float> want(c_words), got(c_words);
  KBENCH_CUDA_CALL(cudaMemcpy(want.data(), c_ref, c_words * 4, cudaMemcpyDeviceToHost));

  const unsigned tiles = static_cast<unsigned>((m / kBM) * (n / kBN));
  struct Variant {
    const char* name;
    bool computes;
    std::function<void(cudaStream_t)> launch;
  };
  const std::vector<Variant> variants = {
      {"shipped (launch_small_simt)", true, [&](cudaStream_t s) { kbench::matmul::launch_small_simt(a, b, c, dims, s); }},
      {"step: loads", false, [&](cudaStream_t s) { split_pipeline<true, false><<<tiles, kThreads, 0, s>>>(a, b, c, m, n, k); }},
      {"step: math", false, [&](cudaStream_t s) { split_pipeline<false, true><<<tiles, kThreads, 0, s>>>(a, b, c, m, n, k); }},
      {"step: copy", true,
       [&](cudaStream_t s) { split_pipeline<true, true><<<tiles, kThreads, 0, s>>>(a, b, c, m, n, k); }},
      {"cluster 1x2 (B shared by 2)", true, [&](cudaStream_t s) { launch_cluster<1, 2>(a, b, c, m, n, k, s); }},
      {"cluster 1x4 (B shared by 4)", true, [&](cudaStream_t s) { launch_cluster<1, 4>(a, b, c, m, n, k, s); }},
      {"cluster 2x2 (A by 2, B by 2)", true, [&](cudaStream_t s) { launch_cluster<2, 2>(a, b, c, m, n, k, s); }},
      {"cluster 1x1 (bulk copies, no sharing)", true, [&](cudaStream_t s) { launch_cluster<1, 1>(a, b, c, m, n, k, s); }},
      {"warp slices, chunks of 16 k, ring of 2", true, [&](cudaStream_t s) { launch_warp_slices<16, 2>(a, b, c, m, n, k, s); }},
      {"warp slices, chunks of 16 k, ring of 3", true, [&](cudaStream_t s) { launch_warp_slices<16, 3>(a, b, c, m, n, k, s); }},
      {"warp slices, chunks of 8 k, ring of 4", true, [&](cudaStream_t s) { launch_warp_slices<8, 4>(a, b, c, m, n, k, s); }},
      {"warp slices, chunks of 32 k, ring of 2", true, [&](cudaStream_t s) { launch_warp_slices<32, 2>(a, b, c, m, n, k, s); }},
      {"step: neither (barriers, partials, stores)", false,
       [&](cudaStream_t s) { split_pipeline<false, false><<<tiles, kThreads, 0, s>>>(a, b, c, m, n, k); }},
  };
  int failures = 0;
  for (std::size_t i = 0; i < variants.size(); ++i) {
    const Variant& v = variants[i];
    if (only >= 0 && static_cast<int>(i) != only) continue;
    std::printf("  [%zu] %s ...\n", i, v.name);
    if (v.name[0] == 'c' && v.name[1] == 'l') {  // a cluster variant: one plain call first, watched
      v.launch(nullptr);
      const cudaError_t status = cudaDeviceSynchronize();
      if (status != cudaSuccess) {
        std::printf("  %s failed: %s; stuck report: kind %d (1 empty, 2 full) step %d block (%d,%d) thread %d\n", v.name,
                    cudaGetErrorString(status), stuck[1], stuck[2], stuck[3], stuck[4], stuck[5]);
        return 1;
      }
    }
    KBENCH_CUDA_CALL(cudaMemset(c, 0xFF, c_words * 4));  // NaN poison
    const double us = hot_us(v.launch);
    char check[64] = "not compared";
    if (v.computes) {
      KBENCH_CUDA_CALL(cudaMemcpy(got.data(), c, c_words * 4, cudaMemcpyDeviceToHost));
      // The inputs are positive: every output is a sum of positive products, so a relative
      // difference is well defined. Copies that add in another order differ in rounding only.
      double worst = 0;
      for (std::size_t i = 0; i < c_words; ++i) {
        const double diff = std::fabs(static_cast<double>(got[i]) - want[i]) / want[i];
        worst = std::isfinite(got[i]) ? std::max(worst, diff) : 1e30;
      }
      if (std::memcmp(got.data(), want.data(), c_words * 4) == 0) {
        std::snprintf(check, sizeof check, "bit-identical");
      } else {
        std::snprintf(check, sizeof check, "max rel diff %.2e%s", worst, worst > 1e-5 ? " FAILS" : "");
        failures += worst > 1e-5 ? 1 : 0;
      }
    }
    std::printf("  %-40s %7.2f us/call  %s\n", v.name, us, check);
  }
  KBENCH_CUDA_CALL(cudaFree(a));
  KBENCH_CUDA_CALL(cudaFree(b));
  KBENCH_CUDA_CALL(cudaFree(c_ref));
  KBENCH_CUDA_CALL(cudaFree(c));
  return failures == 0 ? 0 : 1;
} catch (const std::exception& error) {
  return probe::fail(error);
}
