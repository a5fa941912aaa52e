// matmul_small_probe: which shape of register_blocked's small-problem kernel is faster? A probe
// behind kernels/matmul/NOTES.md: it times each launcher on the same fp32 data in hot mode (a CUDA
// graph of kCallsPerGraph launches replayed, inputs resident in L2, median over replays, per
// launch) and checks each result against the shipped one. (At 9b73b4b it timed cluster K-splits.)
//
//   matmul_small_probe [size ...]       (default 256 512 1024: square M = N = K)
#include "kernels/matmul/matmul_kernels.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
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

constexpr int kCallsPerGraph = 100;
constexpr int kReplays = 21;

using Launcher = void (*)(const float*, const float*, float*, kbench::matmul::Dims, cudaStream_t);

struct Candidate {
  const char* name;
  Launcher launch;
};

const Candidate kCandidates[] = {
    {"shipped (8 warps, K steps of 32, 4 stages)", kbench::matmul::launch_small_simt},
    {"wide (16 warps, K steps of 64, 3 stages)", kbench::matmul::launch_small_simt_wide},
};

/// Median microseconds per launch, launches captured kCallsPerGraph to a graph.
double hot_us(const float* a, const float* b, float* c, kbench::matmul::Dims dims, Launcher launcher, cudaStream_t stream) {
  cudaGraph_t graph{};
  cudaGraphExec_t exec{};
  PROBE_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  for (int i = 0; i < kCallsPerGraph; ++i) launcher(a, b, c, dims, stream);
  PROBE_CHECK(cudaStreamEndCapture(stream, &graph));
  PROBE_CHECK(cudaGraphInstantiate(&exec, graph, 0));
  PROBE_CHECK(cudaGraphLaunch(exec, stream));  // warm-up
  cudaEvent_t begin{}, end{};
  PROBE_CHECK(cudaEventCreate(&begin));
  PROBE_CHECK(cudaEventCreate(&end));
  std::vector<float> per_call;
  for (int r = 0; r < kReplays; ++r) {
    PROBE_CHECK(cudaEventRecord(begin, stream));
    PROBE_CHECK(cudaGraphLaunch(exec, stream));
    PROBE_CHECK(cudaEventRecord(end, stream));
    PROBE_CHECK(cudaEventSynchronize(end));
    float ms = 0;
    PROBE_CHECK(cudaEventElapsedTime(&ms, begin, end));
    per_call.push_back(ms * 1000.0f / kCallsPerGraph);
  }
  PROBE_CHECK(cudaEventDestroy(begin));
  PROBE_CHECK(cudaEventDestroy(end));
  PROBE_CHECK(cudaGraphExecDestroy(exec));
  PROBE_CHECK(cudaGraphDestroy(graph));
  std::sort(per_call.begin(), per_call.end());
  return per_call[per_call.size() / 2];
}

void run_size(int size, cudaStream_t stream) {
  const kbench::matmul::Dims dims{size, size, size};
  const std::size_t count = static_cast<std::size_t>(size) * size;
  std::mt19937 random(7);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  std::vector<float> host(2 * count);
  for (float& x : host) x = uniform(random);
  float *a = nullptr, *b = nullptr, *c = nullptr;
  PROBE_CHECK(cudaMalloc(&a, count * sizeof(float)));
  PROBE_CHECK(cudaMalloc(&b, count * sizeof(float)));
  PROBE_CHECK(cudaMalloc(&c, count * sizeof(float)));
  PROBE_CHECK(cudaMemcpy(a, host.data(), count * sizeof(float), cudaMemcpyHostToDevice));
  PROBE_CHECK(cudaMemcpy(b, host.data() + count, count * sizeof(float), cudaMemcpyHostToDevice));
  std::vector<float> shipped(count), result(count);
  for (const Candidate& candidate : kCandidates) {
    PROBE_CHECK(cudaMemset(c, 0xFF, count * sizeof(float)));  // NaN: a tile left unwritten shows
    candidate.launch(a, b, c, dims, stream);
    PROBE_CHECK(cudaStreamSynchronize(stream));
    PROBE_CHECK(cudaMemcpy(result.data(), c, count * sizeof(float), cudaMemcpyDeviceToHost));
    if (&candidate == &kCandidates[0]) shipped = result;
    double worst = 0;
    for (std::size_t i = 0; i < count; ++i) {
      const double d = std::fabs(double{result[i]} - shipped[i]);
      worst = std::isnan(d) ? INFINITY : std::max(worst, d);
    }
    const double us = hot_us(a, b, c, dims, candidate.launch, stream);
    std::printf("%d^3 fp32 %-44s %7.2f us per call (hot), %7.2f TFLOP/s, max |C - C_shipped| %.2e\n", size,
                candidate.name, us, 2.0 * size * size * size / us * 1e-6, worst);
    std::fflush(stdout);
  }
  PROBE_CHECK(cudaFree(a));
  PROBE_CHECK(cudaFree(b));
  PROBE_CHECK(cudaFree(c));
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<int> sizes;
  for (int i = 1; i < argc; ++i) sizes.push_back(std::atoi(argv[i]));
  if (sizes.empty()) sizes = {256, 512, 1024};
  for (int size : sizes) {
    if (size < 4 || size % 4 != 0) {
      std::fprintf(stderr, "usage: matmul_small_probe [size ...]: sizes multiples of 4\n");
      return 2;
    }
  }
  int device = 0, sm_count = 0;
  PROBE_CHECK(cudaGetDevice(&device));
  PROBE_CHECK(cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, device));
  cudaDeviceProp prop{};
  PROBE_CHECK(cudaGetDeviceProperties(&prop, device));
  std::printf("%s, %d SMs; hot: graphs of %d launches, median of %d replays\n", prop.name, sm_count, kCallsPerGraph,
              kReplays);
  cudaStream_t stream{};
  PROBE_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  for (int size : sizes) run_size(size, stream);
  return 0;
}
