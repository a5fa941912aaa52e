// add_bulk_probe: does c = a + b get closer to CUB's DeviceTransform (which on Hopper loads its
// tiles with the bulk copy engine) when kbench's blocked kernel does the same? A probe behind
// kernels/add/NOTES.md: it times, in one process and kbench's cold method (kbench's L2Flusher
// before each sample, one call per event pair, median), kbench's `blocked` and `cub_transform`
// launchers and candidate kernels:
//   bulk I       one tile of 256 x I 16-byte vectors of each input per block, both tiles loaded
//                into shared memory by two bulk copies (cp.async.bulk, completing on one mbarrier),
//                then each thread adds its I vectors and stores them (STG.128)
//   regs U x B   the blocked kernel's layout with U vectors per thread and input in registers and
//                B threads per block
// Each candidate's output is compared with that of kbench's blocked kernel (called once before
// any timing), bit for bit.
//
//   add_bulk_probe [rows cols [samples]]       (default 8192 8192 50; fp32 and fp16)
#include "harness/l2_flush.hpp"
#include "kernels/add/add_kernels.hpp"

#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#define PROBE_CHECK(call)                                                                          \
  do {                                                                                             \
    cudaError_t status_ = (call);                                                                  \
    if (status_ != cudaSuccess) {                                                                  \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(status_)); \
      std::exit(1);                                                                                \
    }                                                                                              \
  } while (0)

namespace {

constexpr int kBlock = 256;

template <typename T>
__device__ __forceinline__ uint4 add_vector(uint4 x, uint4 y) {
  constexpr int kPer = 16 / sizeof(T);
  T ex[kPer], ey[kPer];
  memcpy(ex, &x, 16);
  memcpy(ey, &y, 16);
#pragma unroll
  for (int i = 0; i < kPer; ++i) ex[i] = ex[i] + ey[i];
  uint4 out;
  memcpy(&out, ex, 16);
  return out;
}

__device__ __forceinline__ unsigned shared_address(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ bool barrier_try_wait(unsigned long long* bar, unsigned parity) {
  unsigned done;
  asm volatile(
      "{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
      : "=r"(done)
      : "r"(shared_address(bar)), "r"(parity)
      : "memory");
  return done != 0;
}

template <typename T, int Items>
__global__ void __launch_bounds__(kBlock)
    add_bulk(const uint4* __restrict__ a, const uint4* __restrict__ b, uint4* __restrict__ c, std::int64_t vectors) {
  constexpr int kTile = kBlock * Items;
  extern __shared__ __align__(128) uint4 tiles[];  // a's tile, then b's
  __shared__ __align__(8) unsigned long long landed;
  const std::int64_t first = static_cast<std::int64_t>(blockIdx.x) * kTile;
  const int count = static_cast<int>(min(static_cast<std::int64_t>(kTile), vectors - first));
  if (threadIdx.x == 0) {
    const unsigned bytes = static_cast<unsigned>(count) * 16;
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(shared_address(&landed)) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(shared_address(&landed)), "r"(2 * bytes)
                 : "memory");
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                     shared_address(tiles)),
                 "l"(a + first), "r"(bytes), "r"(shared_address(&landed))
                 : "memory");
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                     shared_address(tiles + kTile)),
                 "l"(b + first), "r"(bytes), "r"(shared_address(&landed))
                 : "memory");
  }
  __syncthreads();  // the barrier is initialised before anyone waits on it
  while (!barrier_try_wait(&landed, 0)) {
  }
#pragma unroll
  for (int u = 0; u < Items; ++u) {
    const int i = threadIdx.x + u * kBlock;
    if (i < count) c[first + i] = add_vector<T>(tiles[i], tiles[kTile + i]);
  }
}

template <typename T, int U, int Threads>
__global__ void __launch_bounds__(Threads)
    add_regs(const uint4* __restrict__ a, const uint4* __restrict__ b, uint4* __restrict__ c, std::int64_t vectors) {
  const std::int64_t base = static_cast<std::int64_t>(blockIdx.x) * Threads * U + threadIdx.x;
  uint4 va[U], vb[U];
#pragma unroll
  for (int u = 0; u < U; ++u) {
    const std::int64_t i = base + u * Threads;
    if (i < vectors) {
      va[u] = a[i];
      vb[u] = b[i];
    }
  }
#pragma unroll
  for (int u = 0; u < U; ++u) {
    const std::int64_t i = base + u * Threads;
    if (i < vectors) c[i] = add_vector<T>(va[u], vb[u]);
  }
}

__global__ void fill(unsigned* data, std::size_t words, unsigned mask, unsigned salt) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < words;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    unsigned h = (static_cast<unsigned>(i) ^ salt) * 0x9E3779B1u;
    h ^= h >> 15;
    h *= 0x85EBCA77u;
    h ^= h >> 13;
    data[i] = h & mask;
  }
}

struct Probe {
  kbench::L2Flusher* flusher = nullptr;
  int samples = 50;
  cudaEvent_t begin{}, end{};

  double cold_us(const std::function<void()>& launch) {
    launch();
    PROBE_CHECK(cudaDeviceSynchronize());
    std::vector<float> times;
    for (int s = 0; s < samples; ++s) {
      flusher->flush(nullptr);
      PROBE_CHECK(cudaEventRecord(begin));
      launch();
      PROBE_CHECK(cudaEventRecord(end));
      PROBE_CHECK(cudaEventSynchronize(end));
      float ms = 0;
      PROBE_CHECK(cudaEventElapsedTime(&ms, begin, end));
      times.push_back(ms * 1000.0f);
    }
    PROBE_CHECK(cudaGetLastError());
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
  }
};

template <typename T>
void run_dtype(Probe& probe, const char* dtype, std::int64_t rows, std::int64_t cols, double peak_gbps) {
  const std::int64_t n = rows * cols;
  const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(T);
  const std::int64_t vectors = static_cast<std::int64_t>(bytes / 16);
  T *a = nullptr, *b = nullptr, *c = nullptr, *reference = nullptr;
  PROBE_CHECK(cudaMalloc(&a, bytes));
  PROBE_CHECK(cudaMalloc(&b, bytes));
  PROBE_CHECK(cudaMalloc(&c, bytes));
  PROBE_CHECK(cudaMalloc(&reference, bytes));
  const unsigned mask = sizeof(T) == 4 ? 0xBF7FFFFFu : 0xBBFFBBFFu;
  fill<<<512, 256>>>(reinterpret_cast<unsigned*>(a), bytes / 4, mask, 1u);
  fill<<<512, 256>>>(reinterpret_cast<unsigned*>(b), bytes / 4, mask, 2u);
  PROBE_CHECK(cudaDeviceSynchronize());
  const auto* a4 = reinterpret_cast<const uint4*>(a);
  const auto* b4 = reinterpret_cast<const uint4*>(b);
  auto* c4 = reinterpret_cast<uint4*>(c);
  const double traffic = 3.0 * static_cast<double>(bytes);
  auto report = [&](const std::string& name, double us, const std::string& check) {
    std::printf("%-5s %6lldx%-6lld %-28s %9.2f us %8.1f GB/s %6.1f %% of peak %s\n", dtype, static_cast<long long>(rows),
                static_cast<long long>(cols), name.c_str(), us, traffic / us * 1e-3, 100.0 * traffic / us * 1e-3 / peak_gbps,
                check.c_str());
    std::fflush(stdout);
  };
  std::vector<unsigned char> expected(bytes), got(bytes);
  auto check = [&]() -> std::string {
    PROBE_CHECK(cudaMemcpy(got.data(), c, bytes, cudaMemcpyDeviceToHost));
    return std::memcmp(got.data(), expected.data(), bytes) == 0 ? "(same bits as blocked)" : "(OUTPUT DIFFERS)";
  };
  kbench::add::launch_blocked<T>(a, b, reference, n, nullptr);
  PROBE_CHECK(cudaMemcpy(expected.data(), reference, bytes, cudaMemcpyDeviceToHost));

  // Timed first, checked after: a call's arguments may be evaluated in any order.
  PROBE_CHECK(cudaMemset(c, 0xFF, bytes));
  const double blocked_us = probe.cold_us([&] { kbench::add::launch_blocked<T>(a, b, c, n, nullptr); });
  report("blocked (shipped)", blocked_us, check());
  PROBE_CHECK(cudaMemset(c, 0xFF, bytes));
  const double cub_us = probe.cold_us([&] { kbench::add::launch_cub_transform<T>(a, b, c, n, nullptr); });
  report("cub_transform", cub_us, check());
  auto bulk_run = [&](auto items_tag) {
    constexpr int Items = decltype(items_tag)::value;
    constexpr int kShared = 2 * kBlock * Items * 16;
    PROBE_CHECK(cudaFuncSetAttribute(add_bulk<T, Items>, cudaFuncAttributeMaxDynamicSharedMemorySize, kShared));
    const auto grid = static_cast<unsigned>((vectors + kBlock * Items - 1) / (kBlock * Items));
    PROBE_CHECK(cudaMemset(c, 0xFF, bytes));
    const double us = probe.cold_us([&] { add_bulk<T, Items><<<grid, kBlock, kShared>>>(a4, b4, c4, vectors); });
    report("bulk " + std::to_string(Items), us, check());
  };
  bulk_run(std::integral_constant<int, 2>{});
  bulk_run(std::integral_constant<int, 4>{});
  bulk_run(std::integral_constant<int, 8>{});
  bulk_run(std::integral_constant<int, 16>{});
  auto regs_run = [&](auto u_tag, auto threads_tag) {
    constexpr int U = decltype(u_tag)::value, Threads = decltype(threads_tag)::value;
    const auto grid = static_cast<unsigned>((vectors + Threads * U - 1) / (Threads * U));
    PROBE_CHECK(cudaMemset(c, 0xFF, bytes));
    const double us = probe.cold_us([&] { add_regs<T, U, Threads><<<grid, Threads>>>(a4, b4, c4, vectors); });
    report("regs " + std::to_string(U) + " x " + std::to_string(Threads), us, check());
  };
  regs_run(std::integral_constant<int, 4>{}, std::integral_constant<int, 256>{});
  regs_run(std::integral_constant<int, 2>{}, std::integral_constant<int, 256>{});
  regs_run(std::integral_constant<int, 8>{}, std::integral_constant<int, 128>{});
  regs_run(std::integral_constant<int, 4>{}, std::integral_constant<int, 128>{});
  for (T* p : {a, b, c, reference}) PROBE_CHECK(cudaFree(p));
}

}  // namespace

int main(int argc, char** argv) {
  const std::int64_t rows = argc > 1 ? std::atoll(argv[1]) : 8192;
  const std::int64_t cols = argc > 2 ? std::atoll(argv[2]) : 8192;
  Probe probe;
  probe.samples = argc > 3 ? std::atoi(argv[3]) : 50;
  if (rows < 1 || cols < 1 || probe.samples < 1 || (rows * cols) % 8 != 0) {
    std::fprintf(stderr, "usage: add_bulk_probe [rows cols [samples]]: rows x cols a multiple of 8\n");
    return 2;
  }
  int device = 0, l2 = 0, mem_khz = 0, bus_bits = 0, major = 0;
  PROBE_CHECK(cudaGetDevice(&device));
  PROBE_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device));
  PROBE_CHECK(cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, device));
  PROBE_CHECK(cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, device));
  PROBE_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  if (major < 9) {
    std::fprintf(stderr, "add_bulk_probe: the bulk copies need compute capability 9.0 or later\n");
    return 2;
  }
  const double peak_gbps = 2.0 * mem_khz * 1e3 * bus_bits / 8 / 1e9;
  cudaDeviceProp prop{};
  PROBE_CHECK(cudaGetDeviceProperties(&prop, device));
  std::printf("%s, peak %.0f GB/s; cold: L2 evicted before each sample, median of %d\n", prop.name, peak_gbps,
              probe.samples);
  kbench::L2Flusher flusher(l2);
  probe.flusher = &flusher;
  PROBE_CHECK(cudaEventCreate(&probe.begin));
  PROBE_CHECK(cudaEventCreate(&probe.end));
  run_dtype<float>(probe, "fp32", rows, cols, peak_gbps);
  run_dtype<__half>(probe, "fp16", rows, cols, peak_gbps);
  return 0;
}
