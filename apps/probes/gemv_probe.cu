// gemv_probe: where does matmul's GEMV route (kernels/matmul/matmul_gemv.cu) lose time against a
// bare read of B? A probe behind kernels/matmul/NOTES.md ("GEMV"), outside kbench's ops, in
// kbench's cold method (kbench's L2Flusher before each sample, one call per event pair, median).
//
//   gemv_probe [M N K [samples]]     (default 1 4096 4096 50; M of 1 to 8; fp32, then bf16)
//
// Rows, per dtype:
//   bare read, B/SM        B streamed once with 16-byte loads by B blocks of 256 threads per SM
//                          (a grid-stride loop, 4 loads in flight per thread), each block storing
//                          one word: the floor for reading B's bytes, with no A, no sums kept per
//                          column and no hand-off
//   gemv, chunks C         launch_gemv over C chunks of K: 1 (C written directly), 2 to 32 (the
//                          last block of each strip adds the slices), 33 and 64 (slices, then
//                          launch_split_k_reduce); "(plan)" marks gemv_chunks' choice
// Each gemv row's C is compared with the one-chunk call's (the sums differ only in their order).
#include "apps/probes/probe_support.cuh"
#include "harness/device/current_device.hpp"
#include "kernels/matmul/matmul_gemv.hpp"
#include "kernels/matmul/matmul_kernels.hpp"

#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

constexpr int kBlock = 256;

/// Reads `vectors` 16-byte vectors once (grid-stride, 4 in flight per thread) and stores one word
/// per block, so that the loads cannot be dropped.
__global__ void bare_read(const uint4* __restrict__ data, std::size_t vectors, unsigned* __restrict__ out) {
  unsigned acc = 0;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  for (; i + 3 * stride < vectors; i += 4 * stride) {
    uint4 v[4];
#pragma unroll
    for (int u = 0; u < 4; ++u) v[u] = __ldcs(data + i + u * stride);
#pragma unroll
    for (int u = 0; u < 4; ++u) acc ^= v[u].x ^ v[u].y ^ v[u].z ^ v[u].w;
  }
  for (; i < vectors; i += stride) {
    const uint4 v = __ldcs(data + i);
    acc ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  __shared__ unsigned block_acc;
  if (threadIdx.x == 0) block_acc = 0;
  __syncthreads();
  atomicXor(&block_acc, acc);
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = block_acc;
}

template <typename T>
float widen(T x) {
  if constexpr (sizeof(T) == 4) {
    return x;
  } else {
    return __bfloat162float(x);
  }
}

template <typename T>
std::vector<float> download(const kbench::DeviceBuffer& c, std::size_t count) {
  std::vector<T> host(count);
  KBENCH_CUDA_CALL(cudaMemcpy(host.data(), c.get(), count * sizeof(T), cudaMemcpyDeviceToHost));
  std::vector<float> out(count);
  for (std::size_t i = 0; i < count; ++i) out[i] = widen(host[i]);
  return out;
}

/// The largest |a - b| / (1 + |b|) over the elements; NaN where any is NaN.
double worst_difference(const std::vector<float>& a, const std::vector<float>& b) {
  double worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const double d = std::fabs(static_cast<double>(a[i]) - b[i]) / (1.0 + std::fabs(static_cast<double>(b[i])));
    if (std::isnan(d) || d > worst) worst = d;  // a NaN (an element never written) stays
  }
  return worst;
}

template <typename T>
void run_dtype(probe::Session& session, kbench::matmul::Dims dims, const char* dtype) {
  namespace mm = kbench::matmul;
  const std::size_t a_count = static_cast<std::size_t>(dims.m) * dims.k;
  const std::size_t b_count = static_cast<std::size_t>(dims.k) * dims.n;
  const std::size_t c_count = static_cast<std::size_t>(dims.m) * dims.n;
  kbench::DeviceBuffer a(a_count * sizeof(T) + 16), b(b_count * sizeof(T) + 16), c(c_count * sizeof(T));
  // Small exponents: finite fp32 and bf16 values whatever the hash.
  const unsigned mask = sizeof(T) == 4 ? 0x3E7FFFFFu : 0x3E7F3E7Fu;
  probe::fill_hashed<<<1024, kBlock>>>(a.as<unsigned>(), a.bytes() / 4, mask, 1);
  probe::fill_hashed<<<1024, kBlock>>>(b.as<unsigned>(), b.bytes() / 4, mask, 2);
  KBENCH_CHECK_LAUNCH();
  const double b_bytes = static_cast<double>(b_count) * sizeof(T);
  std::printf("\n%s %dx%dx%d: B %.1f MB\n", dtype, dims.m, dims.n, dims.k, b_bytes / 1e6);
  auto report = [&](const char* what, double us) {
    std::printf("  %-28s %9.2f us  %7.0f GB/s  %5.1f %% of peak\n", what, us, b_bytes / us / 1e3,
                100.0 * b_bytes / us / 1e3 / session.device.peak_gbps);
  };

  kbench::DeviceBuffer words(static_cast<std::size_t>(session.device.sm_count) * 8 * sizeof(unsigned));
  for (int per_sm : {2, 4, 8}) {
    const int blocks = per_sm * session.device.sm_count;
    const double us = session.cold_us([&] { bare_read<<<blocks, kBlock>>>(b.as<uint4>(), b.bytes() / 16, words.as<unsigned>()); });
    char label[64];
    std::snprintf(label, sizeof label, "bare read, %d/SM", per_sm);
    report(label, us);
  }

  const int planned =
      mm::gemv_chunks(dims, sizeof(T), session.device.sm_count, kbench::current_shared_memory_per_sm());
  kbench::DeviceBuffer workspace(std::max<std::size_t>(mm::gemv_workspace_bytes(dims, sizeof(T), mm::kMaxSplitK), 1));
  KBENCH_CUDA_CALL(cudaMemset(workspace.get(), 0, workspace.bytes()));
  KBENCH_CUDA_CALL(cudaDeviceSynchronize());
  auto call = [&](int chunks) {
    mm::launch_gemv(a.as<T>(), b.as<T>(), c.as<T>(), dims, chunks, workspace.get(), nullptr);
  };
  call(1);
  KBENCH_CUDA_CALL(cudaDeviceSynchronize());
  const std::vector<float> one_chunk = download<T>(c, c_count);
  std::vector<int> counts{1, 2, 4, 8, 16, 24, 32, 33, 64, planned};
  std::sort(counts.begin(), counts.end());
  counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
  for (int chunks : counts) {
    KBENCH_CUDA_CALL(cudaMemset(c.get(), 0xFF, c.bytes()));  // NaN until written
    const double us = session.cold_us([&] { call(chunks); });
    char label[64];
    std::snprintf(label, sizeof label, "gemv, chunks %d%s", chunks, chunks == planned ? " (plan)" : "");
    report(label, us);
    const double worst = worst_difference(download<T>(c, c_count), one_chunk);
    if (!(worst <= 1e-2)) std::printf("    C differs from the one-chunk call's: worst relative difference %.3g\n", worst);
  }
}

}  // namespace

int main(int argc, char** argv) {
  try {
    kbench::matmul::Dims dims{1, 4096, 4096};
    int samples = 50;
    if (argc > 1) dims.m = std::atoi(argv[1]);
    if (argc > 2) dims.n = std::atoi(argv[2]);
    if (argc > 3) dims.k = std::atoi(argv[3]);
    if (argc > 4) samples = std::atoi(argv[4]);
    if (dims.m < 1 || dims.m > kbench::matmul::kGemvMaxRows || dims.n < 1 || dims.k < 1 || samples < 1 ||
        static_cast<double>(dims.n) * dims.k >= 2147483648.0) {
      std::fprintf(stderr, "usage: gemv_probe [M N K [samples]]  (M of 1 to 8, N x K below 2^31)\n");
      return 2;
    }
    probe::Session session(samples);
    session.print_banner();
    run_dtype<float>(session, dims, "fp32");
    run_dtype<__nv_bfloat16>(session, dims, "bf16");
    return 0;
  } catch (const std::exception& error) {
    return probe::fail(error);
  }
}
