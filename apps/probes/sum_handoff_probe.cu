// sum_handoff_probe: what do the one-pass sums lose between the bare read of their layout and
// kbench's shipped kernel, and which candidate closes the gap? A probe behind
// kernels/sum/NOTES.md, outside kbench's ops. Everything is timed in one process, in kbench's
// cold method (kbench's L2Flusher before each sample, one call per event pair, median), so the
// shipped kernels and the candidates meet on the same GPU in the same minute.
//
//   sum_handoff_probe [rows cols [samples]]     (default 8192 8192 50; fp32 and fp16)
//
// Full sum (rows x cols elements into one):
//   shipped one_pass        sum::launch_full_one_pass (tiles of 256 x 4 vectors, collector block)
//   tiles, atomic [hint]    the bare tile read: each block ends in one float atomicAdd (no order)
//   tiles, store  [hint]    the same, each block only stores its sum (no hand-off at all)
//   tiles, collector [hint] the shipped kernel's hand-off with the loads above
//   bulk S x B KB, P/SM     persistent blocks (P per SM) that stream tiles of B KB into a ring of S
//                           shared-memory stages with the bulk copy engine (cp.async.bulk,
//                           completing on an mbarrier), every thread adding the landed tile from
//                           shared memory; one float atomicAdd per block at the end
// Outer sum (a sum per column):
//   shipped one_pass        sum::launch_columns_one_pass (one wave of row chunks, tickets)
//   window R, store [hint]  blocks of 32 x 8 threads over R rows of a 16-byte column strip, strips
//                           fastest, so the blocks in flight read one band of whole rows; each
//                           block stores its column sums (no hand-off)
//   window R, collector [hint]  the same with collector blocks that fold each band of rows as
//                           soon as its counter is full, in band order (deterministic), and write
//                           out
//   chunks XxY P/SM U, E    the shipped layout (X column lanes x Y row lanes, a wave of P blocks
//                           per SM, each walking a chunk of rows, U rows in flight per thread;
//                           the shipped U is 4) ending E: store (column sums
//                           only), ticket (the shipped hand-off: a fence per thread, a ticket, the
//                           last block of a strip folds the chunks 4 loads at a time) or fast
//                           ticket (one fence after a barrier; the last block loads every chunk's
//                           partial before adding any)
// [hint]: ld.global.nc.L1::no_allocate.L2::256B (bypass L1, ask L2 for 256-byte sectors), else a
// plain ld.global.v4.
// Each candidate that writes the sum is checked against the shipped kernel's output. The order is
// the output's: full sum (fp32), outer sum (fp32), then the same in fp16.
#include "apps/probes/bulk_copy.cuh"
#include "apps/probes/probe_support.cuh"
#include "kernels/sum/sum_kernels.hpp"

#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

namespace {

constexpr int kBlock = 256;
constexpr int kTileVectors = 4;       ///< vectors per thread of a full-sum tile (the shipped 256 x 4)
constexpr int kGroupWorkers = 1024;   ///< full-sum workers per counter, as shipped
constexpr int kLanesX = 32, kLanesY = 8;
constexpr int kInFlight = 8;          ///< rows a window thread loads before adding any
constexpr int kCollectorColumns = 2048;  ///< columns one outer-sum collector block folds (8 per thread)

template <bool Hint>
__device__ __forceinline__ uint4 load16(const uint4* p) {
  if constexpr (Hint) {
    uint4 v;
    asm("ld.global.nc.L1::no_allocate.L2::256B.v4.u32 {%0, %1, %2, %3}, [%4];"
        : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
        : "l"(p));
    return v;
  } else {
    return *p;
  }
}

__device__ __forceinline__ void add_release(unsigned* counter) {
  asm volatile("red.release.gpu.global.add.u32 [%0], 1;" ::"l"(counter) : "memory");
}

__device__ __forceinline__ unsigned load_acquire(const unsigned* counter) {
  unsigned value;
  asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(value) : "l"(counter) : "memory");
  return value;
}

__device__ __forceinline__ float lane_sum(float v) {
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_xor_sync(0xffffffffu, v, offset);
  return v;
}

/// The block's sum in thread 0 (blockDim.x == kBlock).
__device__ __forceinline__ float block_sum(float v) {
  __shared__ float warps[kBlock / 32];
  v = lane_sum(v);
  if (threadIdx.x % 32 == 0) warps[threadIdx.x / 32] = v;
  __syncthreads();
  v = threadIdx.x < kBlock / 32 ? warps[threadIdx.x] : 0.0f;
  if (threadIdx.x < 32) v = lane_sum(v);
  return v;
}

template <typename T>
__device__ __forceinline__ void accumulate_vector(uint4 v, float* acc) {
  constexpr int kPer = 16 / sizeof(T);
  T e[kPer];
  memcpy(e, &v, 16);
#pragma unroll
  for (int i = 0; i < kPer; ++i) acc[i] += static_cast<float>(e[i]);
}

template <typename T>
__device__ __forceinline__ float vector_sum(uint4 v) {
  float acc[16 / sizeof(T)] = {};
  accumulate_vector<T>(v, acc);
  float s = 0.0f;
#pragma unroll
  for (int i = 0; i < 16 / static_cast<int>(sizeof(T)); ++i) s += acc[i];
  return s;
}

enum class FullEnd { atomic, store, collector };

/// Full sum over `vectors` 16-byte vectors, one tile of kBlock x kTileVectors per worker block.
/// With FullEnd::collector, block 0 is the shipped kernel's collector and the workers are
/// blocks 1.., each counting on its group's counter with a release add.
template <typename T, bool Hint, FullEnd End>
__global__ void __launch_bounds__(kBlock)
    full_tiles(const uint4* __restrict__ in, std::int64_t vectors, float* __restrict__ partials,
               unsigned* __restrict__ counters, float* __restrict__ out) {
  const unsigned first_worker = End == FullEnd::collector ? 1 : 0;
  if (End == FullEnd::collector && blockIdx.x == 0) {
    const unsigned workers = gridDim.x - 1;
    float acc = 0.0f;
    for (unsigned g = 0; g * kGroupWorkers < workers; ++g) {
      const unsigned count = min(workers - g * kGroupWorkers, static_cast<unsigned>(kGroupWorkers));
      if (threadIdx.x == 0) {
        while (load_acquire(counters + g) != count) __nanosleep(64);
        counters[g] = 0;
      }
      __syncthreads();
      const unsigned first = g * kGroupWorkers + 4 * threadIdx.x, end = g * kGroupWorkers + count;
      if (first + 4 <= end) {
        const float4 v = __ldcg(reinterpret_cast<const float4*>(partials + first));
        acc += (v.x + v.y) + (v.z + v.w);
      } else {
        for (unsigned i = first; i < end; ++i) acc += __ldcg(partials + i);
      }
    }
    const float total = block_sum(acc);
    if (threadIdx.x == 0) *out = total;
    return;
  }
  const std::int64_t worker = blockIdx.x - first_worker;
  const std::int64_t base = worker * kBlock * kTileVectors + threadIdx.x;
  uint4 v[kTileVectors];
#pragma unroll
  for (int u = 0; u < kTileVectors; ++u) {
    const std::int64_t i = base + u * kBlock;
    v[u] = i < vectors ? load16<Hint>(in + i) : make_uint4(0, 0, 0, 0);
  }
  float acc = 0.0f;
#pragma unroll
  for (int u = 0; u < kTileVectors; ++u) acc += vector_sum<T>(v[u]);
  const float sum = block_sum(acc);
  if (threadIdx.x != 0) return;
  if constexpr (End == FullEnd::atomic) {
    atomicAdd(out, sum);
  } else if constexpr (End == FullEnd::store) {
    partials[worker] = sum;
  } else {
    partials[worker] = sum;
    add_release(counters + worker / kGroupWorkers);
  }
}

template <typename T, int TileBytes, int Stages>
__global__ void __launch_bounds__(kBlock) full_bulk(const uint4* __restrict__ in, std::int64_t vectors, float* out) {
  constexpr int kTile = TileBytes / 16;  // vectors per tile
  extern __shared__ __align__(128) uint4 ring[];
  __shared__ __align__(8) unsigned long long landed[Stages];
  const std::int64_t tiles = (vectors + kTile - 1) / kTile;
  if (threadIdx.x == 0) {
    for (int s = 0; s < Stages; ++s) probe::barrier_init(&landed[s], 1);
    probe::fence_barrier_init();
  }
  __syncthreads();
  auto issue = [&](std::int64_t tile, int stage) {
    const std::int64_t first = tile * kTile;
    const auto bytes = static_cast<unsigned>(min(static_cast<std::int64_t>(kTile), vectors - first) * 16);
    probe::barrier_expect(&landed[stage], bytes);
    probe::bulk_copy(ring + stage * kTile, in + first, bytes, &landed[stage]);
  };
  if (threadIdx.x == 0) {
    for (int s = 0; s < Stages; ++s) {
      const std::int64_t tile = blockIdx.x + static_cast<std::int64_t>(s) * gridDim.x;
      if (tile < tiles) issue(tile, s);
    }
  }
  float acc = 0.0f;
  int k = 0;
  for (std::int64_t tile = blockIdx.x; tile < tiles; tile += gridDim.x, ++k) {
    const int stage = k % Stages;
    while (!probe::barrier_try_wait(&landed[stage], (k / Stages) & 1)) {
    }
    const int count = static_cast<int>(min(static_cast<std::int64_t>(kTile), vectors - tile * kTile));
    const uint4* landed_tile = ring + stage * kTile;
    if (count == kTile) {
#pragma unroll
      for (int i = 0; i < kTile / kBlock; ++i) acc += vector_sum<T>(landed_tile[threadIdx.x + i * kBlock]);
    } else {
      for (int i = threadIdx.x; i < count; i += kBlock) acc += vector_sum<T>(landed_tile[i]);
    }
    __syncthreads();  // every thread is done with the stage before it is refilled
    if (threadIdx.x == 0) {
      const std::int64_t next = tile + static_cast<std::int64_t>(Stages) * gridDim.x;
      if (next < tiles) issue(next, stage);
    }
  }
  const float sum = block_sum(acc);
  if (threadIdx.x == 0) atomicAdd(out, sum);
}

/// Outer sum over R-row bands of 16-byte column strips (cols a multiple of the strip width,
/// 32 x 16 / sizeof(T) columns). Worker w covers strip w % strips of band w / strips and stores its
/// column sums as partials[band][col]. With Collect, blocks 0 .. collectors - 1 come first: block
/// c folds columns [c x kCollectorColumns, +kCollectorColumns) band by band, as soon as the band's
/// counter for its columns is full, and writes them to out; workers count with a release add after
/// a barrier (so every thread's partial store precedes thread 0's release).
template <typename T, int R, bool Hint, bool Collect>
__global__ void __launch_bounds__(kBlock)
    outer_window(const T* __restrict__ in, std::int64_t rows, std::int64_t cols, int collectors,
                 float* __restrict__ partials, unsigned* __restrict__ counters, T* __restrict__ out) {
  constexpr int W = 16 / sizeof(T);
  constexpr int kStrip = kLanesX * W;
  const int strips = static_cast<int>(cols / kStrip);
  const int bands = static_cast<int>((rows + R - 1) / R);
  if (Collect && static_cast<int>(blockIdx.x) < collectors) {
    const int c = blockIdx.x;
    const std::int64_t col0 = static_cast<std::int64_t>(c) * kCollectorColumns;
    const std::int64_t width = min(cols - col0, static_cast<std::int64_t>(kCollectorColumns));
    const unsigned count = static_cast<unsigned>(width / kStrip);
    float acc[2][4] = {};
    for (int band = 0; band < bands; ++band) {
      if (threadIdx.x == 0) {
        unsigned* counter = counters + static_cast<std::int64_t>(band) * collectors + c;
        while (load_acquire(counter) != count) __nanosleep(64);
        *counter = 0;
      }
      __syncthreads();
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const std::int64_t j = h * (kCollectorColumns / 2) + 4 * threadIdx.x;
        if (j < width) {
          const float4 p = __ldcg(reinterpret_cast<const float4*>(partials + band * cols + col0 + j));
          acc[h][0] += p.x, acc[h][1] += p.y, acc[h][2] += p.z, acc[h][3] += p.w;
        }
      }
    }
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const std::int64_t j = h * (kCollectorColumns / 2) + 4 * threadIdx.x;
      if (j < width) {
#pragma unroll
        for (int w = 0; w < 4; ++w) out[col0 + j + w] = static_cast<T>(acc[h][w]);
      }
    }
    return;
  }
  const int worker = blockIdx.x - (Collect ? collectors : 0);
  const int strip = worker % strips, band = worker / strips;
  const int tx = threadIdx.x % kLanesX, ty = threadIdx.x / kLanesX;
  const std::int64_t col = static_cast<std::int64_t>(strip) * kStrip + tx * W;
  const std::int64_t row_end = min(rows, static_cast<std::int64_t>(band + 1) * R);
  float acc[W] = {};
  for (std::int64_t r0 = static_cast<std::int64_t>(band) * R + ty; r0 < row_end; r0 += kInFlight * kLanesY) {
    uint4 v[kInFlight];
#pragma unroll
    for (int u = 0; u < kInFlight; ++u) {
      const std::int64_t r = r0 + u * kLanesY;
      v[u] = r < row_end ? load16<Hint>(reinterpret_cast<const uint4*>(in + r * cols + col)) : make_uint4(0, 0, 0, 0);
    }
#pragma unroll
    for (int u = 0; u < kInFlight; ++u) accumulate_vector<T>(v[u], acc);
  }
  __shared__ float lanes[kLanesY][kStrip + 1];
#pragma unroll
  for (int w = 0; w < W; ++w) lanes[ty][tx * W + w] = acc[w];
  __syncthreads();
  for (int j = threadIdx.x; j < kStrip; j += kBlock) {
    float s = 0.0f;
#pragma unroll
    for (int y = 0; y < kLanesY; ++y) s += lanes[y][j];
    partials[band * cols + static_cast<std::int64_t>(strip) * kStrip + j] = s;
  }
  if constexpr (Collect) {
    __syncthreads();
    if (threadIdx.x == 0) {
      add_release(counters + static_cast<std::int64_t>(band) * collectors + strip * kStrip / kCollectorColumns);
    }
  }
}

enum class OuterEnd { store, ticket, fast_ticket };
constexpr int kMaxFastChunks = 32;  ///< chunks the fast ticket's fold holds in registers

/// The shipped outer-sum layout: grid (strips, chunks), LX x LY threads, 16-byte column vectors,
/// U rows in flight per thread, one partial per column and chunk; then the ending End.
template <typename T, int LX, int LY, int U, OuterEnd End>
__global__ void __launch_bounds__(LX* LY)
    outer_chunks(const T* __restrict__ in, std::int64_t rows, std::int64_t cols, float* __restrict__ partials,
                 unsigned* __restrict__ tickets, T* __restrict__ out) {
  constexpr int W = 16 / sizeof(T);
  constexpr int kStrip = LX * W;
  __shared__ float lanes[LY][kStrip + 1];
  __shared__ bool last_block;
  const int tx = threadIdx.x % LX, ty = threadIdx.x / LX;
  const std::int64_t col = static_cast<std::int64_t>(blockIdx.x) * kStrip + tx * W;
  const std::int64_t per_chunk = (rows + gridDim.y - 1) / gridDim.y;
  const std::int64_t begin = blockIdx.y * per_chunk, end = min(rows, begin + per_chunk);
  float acc[W] = {};
  std::int64_t r = begin + ty;
  for (; r + (U - 1) * LY < end; r += U * LY) {
    uint4 v[U];
#pragma unroll
    for (int u = 0; u < U; ++u) v[u] = *reinterpret_cast<const uint4*>(in + (r + u * LY) * cols + col);
#pragma unroll
    for (int u = 0; u < U; ++u) accumulate_vector<T>(v[u], acc);
  }
  for (; r < end; r += LY) accumulate_vector<T>(*reinterpret_cast<const uint4*>(in + r * cols + col), acc);
#pragma unroll
  for (int w = 0; w < W; ++w) lanes[ty][tx * W + w] = acc[w];
  __syncthreads();
  const std::int64_t block_col = static_cast<std::int64_t>(blockIdx.x) * kStrip;
  for (int j = threadIdx.x; j < kStrip; j += LX * LY) {
    float s = 0.0f;
#pragma unroll
    for (int y = 0; y < LY; ++y) s += lanes[y][j];
    partials[blockIdx.y * cols + block_col + j] = s;
  }
  if constexpr (End == OuterEnd::store) return;
  if constexpr (End == OuterEnd::ticket) {
    __threadfence();
    __syncthreads();
  } else {
    __syncthreads();
    if (threadIdx.x == 0) __threadfence();
  }
  if (threadIdx.x == 0) last_block = atomicAdd(tickets + blockIdx.x, 1u) == gridDim.y - 1;
  __syncthreads();
  if (!last_block) return;
  __threadfence();
  for (int j = threadIdx.x; j < kStrip; j += LX * LY) {
    float total = 0.0f;
    if constexpr (End == OuterEnd::ticket) {
      for (unsigned k = 0; k < gridDim.y; ++k) total += __ldcg(partials + k * cols + block_col + j);
    } else {
      float p[kMaxFastChunks];
#pragma unroll
      for (int k = 0; k < kMaxFastChunks; ++k) p[k] = k < static_cast<int>(gridDim.y) ? __ldcg(partials + k * cols + block_col + j) : 0.0f;
#pragma unroll
      for (int k = 0; k < kMaxFastChunks; ++k) total += p[k];
    }
    out[block_col + j] = static_cast<T>(total);
  }
  if (threadIdx.x == 0) tickets[blockIdx.x] = 0;
}

template <typename T>
std::vector<float> download(const T* device, std::size_t count) {
  std::vector<T> raw(count);
  KBENCH_CUDA_CALL(cudaMemcpy(raw.data(), device, count * sizeof(T), cudaMemcpyDeviceToHost));
  std::vector<float> values(count);
  for (std::size_t i = 0; i < count; ++i) values[i] = static_cast<float>(raw[i]);
  return values;
}

/// Largest |a - b| / (1 + |b|) over the two vectors.
double worst_difference(const std::vector<float>& a, const std::vector<float>& b) {
  double worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i) worst = std::max(worst, std::fabs(double{a[i]} - b[i]) / (1.0 + std::fabs(double{b[i]})));
  return worst;
}

/// One dtype's tensor and scratch, shared by the full-sum and outer-sum runs.
template <typename T>
struct Case {
  probe::Session& session;
  const char* dtype;
  std::int64_t rows, cols;
  T* in = nullptr;           ///< rows x cols of hashed values
  T* out = nullptr;          ///< cols outputs of the candidates
  T* shipped_out = nullptr;  ///< cols outputs of the shipped kernels
  float* partials = nullptr;  ///< 64 MiB of scratch
  float* scalar = nullptr;    ///< the full-sum candidates' result
  unsigned* counters = nullptr;  ///< 1 MiB, zero, left zero by every kernel that uses it

  Case(probe::Session& s, const char* name, std::int64_t r, std::int64_t c) : session(s), dtype(name), rows(r), cols(c) {
    KBENCH_CUDA_CALL(cudaMalloc(&in, elements() * sizeof(T)));
    probe::fill_hashed<<<4 * session.device.sm_count, 256>>>(reinterpret_cast<unsigned*>(in), elements() * sizeof(T) / 4,
                                                          sizeof(T) == 4 ? 0xBF7FFFFFu : 0xBBFFBBFFu, 0u);
    KBENCH_CHECK_LAUNCH();
    KBENCH_CUDA_CALL(cudaMalloc(&out, cols * sizeof(T)));
    KBENCH_CUDA_CALL(cudaMalloc(&shipped_out, cols * sizeof(T)));
    KBENCH_CUDA_CALL(cudaMalloc(&scalar, sizeof(float)));
    KBENCH_CUDA_CALL(cudaMalloc(&partials, 64ull << 20));
    KBENCH_CUDA_CALL(cudaMalloc(&counters, 1 << 20));
    KBENCH_CUDA_CALL(cudaMemset(counters, 0, 1 << 20));
    KBENCH_CUDA_CALL(cudaDeviceSynchronize());
  }
  ~Case() {
    for (void* p : {static_cast<void*>(in), static_cast<void*>(out), static_cast<void*>(shipped_out),
                    static_cast<void*>(scalar), static_cast<void*>(partials), static_cast<void*>(counters)}) {
      cudaFree(p);
    }
  }
  Case(const Case&) = delete;
  Case& operator=(const Case&) = delete;

  std::int64_t elements() const { return rows * cols; }
  std::int64_t vectors() const { return elements() * static_cast<std::int64_t>(sizeof(T)) / 16; }
  const uint4* in4() const { return reinterpret_cast<const uint4*>(in); }
  /// Largest relative difference two orders of fp32 accumulation may leave after rounding to T.
  static double tolerance() { return sizeof(T) == 4 ? 1e-4 : 4e-3; }

  void report(const std::string& name, double us, const std::string& check = "") const {
    const double bytes = static_cast<double>(elements()) * sizeof(T);
    std::printf("%-5s %6lldx%-6lld %-40s %9.2f us %8.1f GB/s %6.1f %% of peak %s\n", dtype, static_cast<long long>(rows),
                static_cast<long long>(cols), name.c_str(), us, bytes / us * 1e-3,
                100.0 * bytes / us * 1e-3 / session.device.peak_gbps, check.c_str());
    std::fflush(stdout);
  }
};

/// "(sum matches shipped)" or what differs, for a full-sum result against the shipped one.
template <typename T>
std::string check_total(const Case<T>& c, float shipped_total) {
  const float total = download(c.scalar, 1)[0];
  const double relative = std::fabs(double{total} - shipped_total) / (1.0 + std::fabs(double{shipped_total}));
  if (relative < Case<T>::tolerance()) return "(sum matches shipped)";
  return "(SUM DIFFERS: " + std::to_string(total) + " vs " + std::to_string(shipped_total) + ")";
}

/// The full sum's copy roof, shipped kernel and candidates.
template <typename T>
void run_full(Case<T>& c) {
  {
    void* copy_dst = nullptr;
    KBENCH_CUDA_CALL(cudaMalloc(&copy_dst, c.elements() * sizeof(T) / 2));
    c.report("copy (half, d2d)", c.session.cold_us([&] {
      KBENCH_CUDA_CALL(cudaMemcpyAsync(copy_dst, c.in, c.elements() * sizeof(T) / 2, cudaMemcpyDeviceToDevice));
    }));
    KBENCH_CUDA_CALL(cudaFree(copy_dst));
  }
  const int cc_major = c.session.device.cc_major;
  const int one_pass_blocks = kbench::sum::full_one_pass_blocks<T>(c.elements(), cc_major, c.session.device.sm_count);
  c.report("full: shipped one_pass", c.session.cold_us([&] {
    kbench::sum::launch_full_one_pass<T>(c.in, c.shipped_out, c.elements(), c.partials, c.counters, one_pass_blocks,
                                         cc_major, nullptr);
  }));
  const float shipped_total = download(c.shipped_out, 1)[0];

  const auto tiles = static_cast<unsigned>((c.vectors() + kBlock * kTileVectors - 1) / (kBlock * kTileVectors));
  auto tiles_run = [&](auto hint_tag, auto end_tag, const std::string& name) {
    constexpr bool Hint = decltype(hint_tag)::value;
    constexpr FullEnd End = decltype(end_tag)::value;
    const unsigned grid = tiles + (End == FullEnd::collector ? 1 : 0);
    auto launch = [&] { full_tiles<T, Hint, End><<<grid, kBlock>>>(c.in4(), c.vectors(), c.partials, c.counters, c.scalar); };
    const double us = c.session.cold_us(launch);  // the atomic variant's scalar is not reset: timing only
    std::string check;
    if (End != FullEnd::store) {
      KBENCH_CUDA_CALL(cudaMemset(c.scalar, 0, sizeof(float)));
      launch();
      KBENCH_CUDA_CALL(cudaDeviceSynchronize());
      check = check_total(c, shipped_total);
    }
    c.report(name, us, check);
  };
  using Plain = std::false_type;
  using Hinted = std::true_type;
  using Atomic = std::integral_constant<FullEnd, FullEnd::atomic>;
  using Store = std::integral_constant<FullEnd, FullEnd::store>;
  using Collector = std::integral_constant<FullEnd, FullEnd::collector>;
  tiles_run(Plain{}, Atomic{}, "full: tiles, atomic");
  tiles_run(Hinted{}, Atomic{}, "full: tiles, atomic, hint");
  tiles_run(Plain{}, Store{}, "full: tiles, store");
  tiles_run(Hinted{}, Store{}, "full: tiles, store, hint");
  tiles_run(Plain{}, Collector{}, "full: tiles, collector");
  tiles_run(Hinted{}, Collector{}, "full: tiles, collector, hint");

  auto bulk_run = [&](auto tile_tag, auto stages_tag, int per_sm) {
    constexpr int TileBytes = decltype(tile_tag)::value, Stages = decltype(stages_tag)::value;
    constexpr int kShared = TileBytes * Stages;
    KBENCH_CUDA_CALL(
        cudaFuncSetAttribute(full_bulk<T, TileBytes, Stages>, cudaFuncAttributeMaxDynamicSharedMemorySize, kShared));
    const int grid = per_sm * c.session.device.sm_count;
    auto launch = [&] { full_bulk<T, TileBytes, Stages><<<grid, kBlock, kShared>>>(c.in4(), c.vectors(), c.scalar); };
    const double us = c.session.cold_us(launch);
    KBENCH_CUDA_CALL(cudaMemset(c.scalar, 0, sizeof(float)));
    launch();
    KBENCH_CUDA_CALL(cudaDeviceSynchronize());
    c.report("full: bulk " + std::to_string(Stages) + " x " + std::to_string(TileBytes / 1024) + " KB, " +
                 std::to_string(per_sm) + "/SM",
             us, check_total(c, shipped_total));
  };
  using K16 = std::integral_constant<int, 16384>;
  using K32 = std::integral_constant<int, 32768>;
  bulk_run(K16{}, std::integral_constant<int, 4>{}, 2);
  bulk_run(K16{}, std::integral_constant<int, 6>{}, 2);
  bulk_run(K16{}, std::integral_constant<int, 4>{}, 3);
  bulk_run(K32{}, std::integral_constant<int, 3>{}, 2);
  bulk_run(K32{}, std::integral_constant<int, 6>{}, 1);
  bulk_run(K16{}, std::integral_constant<int, 8>{}, 1);
}

/// The outer sum's shipped kernel and candidates; cols must be a multiple of the 16-byte strip.
template <typename T>
void run_outer(Case<T>& c) {
  constexpr int W = 16 / sizeof(T);
  if (c.cols % (kLanesX * W) != 0) {
    std::printf("%-5s outer: skipped (cols not a multiple of %d)\n", c.dtype, kLanesX * W);
    return;
  }
  const int cc_major = c.session.device.cc_major;
  const int chunks = kbench::sum::columns_one_pass_chunks(c.rows, c.cols, c.session.device.sm_count, sizeof(T), cc_major);
  c.report("outer: shipped one_pass (" + std::to_string(chunks) + " chunks)", c.session.cold_us([&] {
    kbench::sum::launch_columns_one_pass<T>(c.in, c.shipped_out, c.rows, c.cols, c.partials, c.counters, chunks, cc_major,
                                            nullptr);
  }));
  const std::vector<float> shipped_columns = download(c.shipped_out, static_cast<std::size_t>(c.cols));
  // Runs `launch` once more on a poisoned output and compares it with the shipped columns.
  auto check_columns = [&](const std::function<void()>& launch) -> std::string {
    KBENCH_CUDA_CALL(cudaMemset(c.out, 0xFF, c.cols * sizeof(T)));
    launch();
    KBENCH_CUDA_CALL(cudaDeviceSynchronize());
    const double worst = worst_difference(download(c.out, static_cast<std::size_t>(c.cols)), shipped_columns);
    return worst < Case<T>::tolerance() ? "(output matches shipped)" : "(OUTPUT DIFFERS: " + std::to_string(worst) + ")";
  };

  auto chunks_run = [&](auto lx_tag, auto ly_tag, auto u_tag, auto end_tag, int per_sm) {
    constexpr int LX = decltype(lx_tag)::value, LY = decltype(ly_tag)::value, U = decltype(u_tag)::value;
    constexpr OuterEnd End = decltype(end_tag)::value;
    if (c.cols % (LX * W) != 0 || c.rows < LY) return;
    const std::int64_t strips = c.cols / (LX * W);
    const std::int64_t chunk_count = std::clamp<std::int64_t>((per_sm * c.session.device.sm_count + strips - 1) / strips, 1,
                                                              std::min<std::int64_t>(kMaxFastChunks, c.rows / LY));
    if (chunk_count * c.cols * 4 > (64ll << 20)) return;
    const dim3 grid(static_cast<unsigned>(strips), static_cast<unsigned>(chunk_count));
    auto launch = [&] { outer_chunks<T, LX, LY, U, End><<<grid, LX * LY>>>(c.in, c.rows, c.cols, c.partials, c.counters, c.out); };
    const double us = c.session.cold_us(launch);
    const std::string check = End == OuterEnd::store ? std::string() : check_columns(launch);
    const char* end_name = End == OuterEnd::store ? "store" : End == OuterEnd::ticket ? "ticket" : "fast ticket";
    c.report("outer: chunks " + std::to_string(LX) + "x" + std::to_string(LY) + " " + std::to_string(per_sm) + "/SM (" +
                 std::to_string(chunk_count) + ") " + std::to_string(U) + ", " + end_name,
             us, check);
  };
  using L32 = std::integral_constant<int, 32>;
  using L16 = std::integral_constant<int, 16>;
  using L8 = std::integral_constant<int, 8>;
  using U4 = std::integral_constant<int, 4>;
  using U8 = std::integral_constant<int, 8>;
  using Store = std::integral_constant<OuterEnd, OuterEnd::store>;
  using Ticket = std::integral_constant<OuterEnd, OuterEnd::ticket>;
  using FastTicket = std::integral_constant<OuterEnd, OuterEnd::fast_ticket>;
  chunks_run(L32{}, L8{}, U4{}, Store{}, 4);
  chunks_run(L32{}, L8{}, U8{}, Store{}, 4);
  chunks_run(L32{}, L8{}, U8{}, Ticket{}, 4);
  chunks_run(L32{}, L8{}, U8{}, Store{}, 3);
  chunks_run(L32{}, L8{}, U8{}, Store{}, 2);
  chunks_run(L16{}, L16{}, U4{}, Store{}, 4);
  chunks_run(L16{}, L16{}, U4{}, Ticket{}, 4);
  chunks_run(L16{}, L16{}, U8{}, Store{}, 4);
  chunks_run(L16{}, L16{}, U8{}, Ticket{}, 4);
  chunks_run(L16{}, L16{}, U8{}, Store{}, 3);
  chunks_run(L16{}, L16{}, U8{}, Store{}, 2);
  chunks_run(L32{}, L8{}, U4{}, FastTicket{}, 4);
  chunks_run(L32{}, L8{}, U4{}, FastTicket{}, 3);
  chunks_run(L32{}, L8{}, U4{}, FastTicket{}, 6);
  chunks_run(L16{}, L16{}, U4{}, FastTicket{}, 4);
  chunks_run(L16{}, L16{}, U4{}, FastTicket{}, 3);

  const int collectors = static_cast<int>((c.cols + kCollectorColumns - 1) / kCollectorColumns);
  const int strips = static_cast<int>(c.cols / (kLanesX * W));
  auto window_run = [&](auto r_tag, auto hint_tag, auto collect_tag) {
    constexpr int R = decltype(r_tag)::value;
    constexpr bool Hint = decltype(hint_tag)::value, Collect = decltype(collect_tag)::value;
    const std::int64_t bands = (c.rows + R - 1) / R;
    if (bands * c.cols * 4 > (64ll << 20) || bands * collectors * 4 > (1 << 20)) return;
    const auto grid = static_cast<unsigned>(bands * strips + (Collect ? collectors : 0));
    auto launch = [&] {
      outer_window<T, R, Hint, Collect><<<grid, kBlock>>>(c.in, c.rows, c.cols, collectors, c.partials, c.counters, c.out);
    };
    const double us = c.session.cold_us(launch);
    const std::string check = Collect ? check_columns(launch) : std::string();
    c.report("outer: window " + std::to_string(R) + (Collect ? ", collector" : ", store") + (Hint ? ", hint" : ""), us, check);
  };
  using R64 = std::integral_constant<int, 64>;
  using R128 = std::integral_constant<int, 128>;
  using R256 = std::integral_constant<int, 256>;
  using Plain = std::false_type;
  using Hinted = std::true_type;
  using StoreOnly = std::false_type;
  using Collecting = std::true_type;
  window_run(R64{}, Plain{}, StoreOnly{});
  window_run(R128{}, Plain{}, StoreOnly{});
  window_run(R256{}, Plain{}, StoreOnly{});
  window_run(R128{}, Hinted{}, StoreOnly{});
  window_run(R64{}, Plain{}, Collecting{});
  window_run(R128{}, Plain{}, Collecting{});
  window_run(R256{}, Plain{}, Collecting{});
  window_run(R128{}, Hinted{}, Collecting{});
  window_run(R256{}, Hinted{}, Collecting{});
}

}  // namespace

int main(int argc, char** argv) try {
  // At least 16 rows: the 16 x 16 outer layouts need one row per row lane.
  const probe::Args args =
      probe::parse_args(argc, argv, "sum_handoff_probe [rows cols [samples]]: rows >= 16, rows x cols a multiple of 8", 16);
  if (args.cols > (64 << 20) / 4) {
    std::fprintf(stderr, "sum_handoff_probe: at most %d columns (the partials buffer holds 64 MiB)\n", (64 << 20) / 4);
    return 2;
  }
  probe::Session session(args.samples);
  session.require_hopper("sum_handoff_probe: needs compute capability 9.0 or later (bulk copies, the shipped cluster paths)");
  session.print_banner();
  {
    Case<float> fp32(session, "fp32", args.rows, args.cols);
    run_full(fp32);
    run_outer(fp32);
  }
  {
    Case<__half> fp16(session, "fp16", args.rows, args.cols);
    run_full(fp16);
    run_outer(fp16);
  }
  return 0;
} catch (const std::exception& error) {
  return probe::fail(error);
}
