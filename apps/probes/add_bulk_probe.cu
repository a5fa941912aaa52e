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
#include "apps/probes/bulk_copy.cuh"
#include "apps/probes/probe_support.cuh"
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
    probe::barrier_init(&landed, 1);
    probe::fence_barrier_init();
    probe::barrier_expect(&landed, 2 * bytes);
    probe::bulk_copy(tiles, a + first, bytes, &landed);
    probe::bulk_copy(tiles + kTile, b + first, bytes, &landed);
  }
  __syncthreads();  // the barrier is initialised before anyone waits on it
  while (!probe::barrier_try_wait(&landed, 0)) {
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

template <typename T>
void run_dtype(probe::Session& session, const char* dtype, std::int64_t rows, std::int64_t cols, double peak_gbps) {
  const std::int64_t n = rows * cols;
  const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(T);
  const std::int64_t vectors = static_cast<std::int64_t>(bytes / 16);
  T *a = nullptr, *b = nullptr, *c = nullptr, *reference = nullptr;
  KBENCH_CUDA_CALL(cudaMalloc(&a, bytes));
  KBENCH_CUDA_CALL(cudaMalloc(&b, bytes));
  KBENCH_CUDA_CALL(cudaMalloc(&c, bytes));
  KBENCH_CUDA_CALL(cudaMalloc(&reference, bytes));
  const unsigned mask = sizeof(T) == 4 ? 0xBF7FFFFFu : 0xBBFFBBFFu;
  probe::fill_hashed<<<512, 256>>>(reinterpret_cast<unsigned*>(a), bytes / 4, mask, 1u);
  probe::fill_hashed<<<512, 256>>>(reinterpret_cast<unsigned*>(b), bytes / 4, mask, 2u);
  KBENCH_CHECK_LAUNCH();
  KBENCH_CUDA_CALL(cudaDeviceSynchronize());
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
    KBENCH_CUDA_CALL(cudaMemcpy(got.data(), c, bytes, cudaMemcpyDeviceToHost));
    return std::memcmp(got.data(), expected.data(), bytes) == 0 ? "(same bits as blocked)" : "(OUTPUT DIFFERS)";
  };
  kbench::add::launch_blocked<T>(a, b, reference, n, nullptr);
  KBENCH_CUDA_CALL(cudaMemcpy(expected.data(), reference, bytes, cudaMemcpyDeviceToHost));

  // Timed first, checked after: a call's arguments may be evaluated in any order.
  KBENCH_CUDA_CALL(cudaMemset(c, 0xFF, bytes));
  const double blocked_us = session.cold_us([&] { kbench::add::launch_blocked<T>(a, b, c, n, nullptr); });
  report("blocked (shipped)", blocked_us, check());
  KBENCH_CUDA_CALL(cudaMemset(c, 0xFF, bytes));
  const double cub_us = session.cold_us([&] { kbench::add::launch_cub_transform<T>(a, b, c, n, nullptr); });
  report("cub_transform", cub_us, check());
  auto bulk_run = [&](auto items_tag) {
    constexpr int Items = decltype(items_tag)::value;
    constexpr int kShared = 2 * kBlock * Items * 16;
    KBENCH_CUDA_CALL(cudaFuncSetAttribute(add_bulk<T, Items>, cudaFuncAttributeMaxDynamicSharedMemorySize, kShared));
    const auto grid = static_cast<unsigned>((vectors + kBlock * Items - 1) / (kBlock * Items));
    KBENCH_CUDA_CALL(cudaMemset(c, 0xFF, bytes));
    const double us = session.cold_us([&] { add_bulk<T, Items><<<grid, kBlock, kShared>>>(a4, b4, c4, vectors); });
    report("bulk " + std::to_string(Items), us, check());
  };
  bulk_run(std::integral_constant<int, 2>{});
  bulk_run(std::integral_constant<int, 4>{});
  bulk_run(std::integral_constant<int, 8>{});
  bulk_run(std::integral_constant<int, 16>{});
  auto regs_run = [&](auto u_tag, auto threads_tag) {
    constexpr int U = decltype(u_tag)::value, Threads = decltype(threads_tag)::value;
    const auto grid = static_cast<unsigned>((vectors + Threads * U - 1) / (Threads * U));
    KBENCH_CUDA_CALL(cudaMemset(c, 0xFF, bytes));
    const double us = session.cold_us([&] { add_regs<T, U, Threads><<<grid, Threads>>>(a4, b4, c4, vectors); });
    report("regs " + std::to_string(U) + " x " + std::to_string(Threads), us, check());
  };
  regs_run(std::integral_constant<int, 4>{}, std::integral_constant<int, 256>{});
  regs_run(std::integral_constant<int, 2>{}, std::integral_constant<int, 256>{});
  regs_run(std::integral_constant<int, 8>{}, std::integral_constant<int, 128>{});
  regs_run(std::integral_constant<int, 4>{}, std::integral_constant<int, 128>{});
  for (T* p : {a, b, c, reference}) KBENCH_CUDA_CALL(cudaFree(p));
}

}  // namespace

int main(int argc, char** argv) try {
  const probe::Args args = probe::parse_args(argc, argv, "add_bulk_probe [rows cols [samples]]: rows x cols a multiple of 8");
  probe::Session session(args.samples);
  session.require_hopper("add_bulk_probe: the bulk copies need compute capability 9.0 or later");
  session.print_banner();
  run_dtype<float>(session, "fp32", args.rows, args.cols, session.device.peak_gbps);
  run_dtype<__half>(session, "fp16", args.rows, args.cols, session.device.peak_gbps);
  return 0;
} catch (const std::exception& error) {
  return probe::fail(error);
}
