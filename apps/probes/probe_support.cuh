#pragma once
// What every probe in apps/probes/ shares: an error check that exits, the device's figures, a
// hashed fill for input data, and kbench's cold timing method (kbench's L2Flusher before each
// sample, one call per event pair, median of the samples).

#include "harness/measure/l2_flush.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
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

namespace probe {

/// The current device's figures the probes print and size their grids by.
struct Device {
  std::string name;
  int sm_count = 0;
  int l2_bytes = 0;
  int cc_major = 0;
  double peak_gbps = 0;  ///< 2 x memory clock x bus width / 8, from the attributes
};

inline Device current_device() {
  Device d;
  int device = 0, mem_khz = 0, bus_bits = 0;
  PROBE_CHECK(cudaGetDevice(&device));
  PROBE_CHECK(cudaDeviceGetAttribute(&d.sm_count, cudaDevAttrMultiProcessorCount, device));
  PROBE_CHECK(cudaDeviceGetAttribute(&d.l2_bytes, cudaDevAttrL2CacheSize, device));
  PROBE_CHECK(cudaDeviceGetAttribute(&d.cc_major, cudaDevAttrComputeCapabilityMajor, device));
  PROBE_CHECK(cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, device));
  PROBE_CHECK(cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, device));
  cudaDeviceProp prop{};
  PROBE_CHECK(cudaGetDeviceProperties(&prop, device));
  d.name = prop.name;
  d.peak_gbps = 2.0 * mem_khz * 1e3 * bus_bits / 8 / 1e9;
  return d;
}

namespace {  // a kernel defined in a header: one copy per probe, no clash at link time

/// Fills `words` 32-bit words with a hash of their index and `salt`, masked by `mask` (a mask that
/// keeps the exponents small gives finite fp16/fp32 values; a mask of 0 gives zeros).
__global__ void fill_hashed(unsigned* data, std::size_t words, unsigned mask, unsigned salt) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < words;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    unsigned h = (static_cast<unsigned>(i) ^ salt) * 0x9E3779B1u;
    h ^= h >> 15;
    h *= 0x85EBCA77u;
    h ^= h >> 13;
    data[i] = h & mask;
  }
}

}  // namespace

/// kbench's cold method on the legacy default stream.
class ColdTimer {
 public:
  ColdTimer(int l2_bytes, int samples) : flusher_(l2_bytes), samples_(samples) {
    PROBE_CHECK(cudaEventCreate(&begin_));
    PROBE_CHECK(cudaEventCreate(&end_));
  }
  ~ColdTimer() {
    cudaEventDestroy(begin_);
    cudaEventDestroy(end_);
  }
  ColdTimer(const ColdTimer&) = delete;
  ColdTimer& operator=(const ColdTimer&) = delete;

  int samples() const { return samples_; }

  /// Median microseconds of `launch` in cold mode, after one untimed call (module load, first
  /// touch).
  double median_us(const std::function<void()>& launch) {
    launch();
    PROBE_CHECK(cudaGetLastError());  // a launch that fails is not timed as a fast one
    PROBE_CHECK(cudaDeviceSynchronize());
    std::vector<float> times;
    for (int s = 0; s < samples_; ++s) {
      flusher_.flush(nullptr);
      PROBE_CHECK(cudaEventRecord(begin_));
      launch();
      PROBE_CHECK(cudaEventRecord(end_));
      PROBE_CHECK(cudaEventSynchronize(end_));
      float ms = 0;
      PROBE_CHECK(cudaEventElapsedTime(&ms, begin_, end_));
      times.push_back(ms * 1000.0f);
    }
    PROBE_CHECK(cudaGetLastError());
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
  }

 private:
  kbench::L2Flusher flusher_;  ///< kbench's own eviction: reads a buffer of 2x L2
  int samples_;
  cudaEvent_t begin_{}, end_{};
};

/// A probe's command line: `name [rows cols [samples]]`, defaults 8192 8192 50.
struct Args {
  std::int64_t rows = 8192;
  std::int64_t cols = 8192;
  int samples = 50;
};

/// Parses the command line; prints `usage` and exits with 2 when an extent or the sample count is
/// below its minimum or rows x cols is not a multiple of 8 (whole 16-byte vectors of fp16).
inline Args parse_args(int argc, char** argv, const char* usage, std::int64_t min_rows = 1) {
  Args args;
  if (argc > 1) args.rows = std::atoll(argv[1]);
  if (argc > 2) args.cols = std::atoll(argv[2]);
  if (argc > 3) args.samples = std::atoi(argv[3]);
  if (args.rows < min_rows || args.cols < 1 || args.samples < 1 || (args.rows * args.cols) % 8 != 0) {
    std::fprintf(stderr, "usage: %s\n", usage);
    std::exit(2);
  }
  return args;
}

/// What a probe's run_* functions take: the device and the cold timer.
struct Session {
  Device device;
  ColdTimer timer;
  explicit Session(int samples) : device(current_device()), timer(device.l2_bytes, samples) {}
  double cold_us(const std::function<void()>& launch) { return timer.median_us(launch); }
  /// Exits with 2, saying `why`, below compute capability 9.0.
  void require_hopper(const char* why) const {
    if (device.cc_major >= 9) return;
    std::fprintf(stderr, "%s\n", why);
    std::exit(2);
  }
  /// "<name>, <SMs> SMs, L2 <MB> MB, peak <GB/s> GB/s; cold: ..." on stdout.
  void print_banner() const {
    std::printf("%s, %d SMs, L2 %d MB, peak %.0f GB/s; cold: L2 evicted before each sample, median of %d\n",
                device.name.c_str(), device.sm_count, device.l2_bytes >> 20, device.peak_gbps, timer.samples());
  }
};

}  // namespace probe
