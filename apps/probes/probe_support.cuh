#pragma once
// What every probe in apps/probes/ shares: the device's figures, a hashed fill for input data,
// kbench's cold timing method (kbench's L2Flusher before each sample, one call per event pair,
// median of the samples), and the end of kbench's error path.
//
// Errors: the probes check CUDA calls with the harness's KBENCH_CUDA_CALL and launches with
// KBENCH_CHECK_LAUNCH (harness/device/cuda_check.hpp), which throw kbench::CudaError naming the
// call, file and line. Each probe's main catches it and returns probe::fail(error): the message
// on stderr and exit status 1.

#include "harness/device/cuda_check.hpp"
#include "harness/device/cuda_resources.hpp"
#include "harness/device/device_info.hpp"
#include "harness/measure/l2_flush.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <functional>
#include <string>
#include <vector>

namespace probe {

/// Reports an error that ended a probe (a kbench::CudaError, usually) on stderr; returns the exit
/// status 1 for main to return.
inline int fail(const std::exception& error) {
  std::fprintf(stderr, "%s\n", error.what());
  return 1;
}

/// The current device's figures the probes print and size their grids by, from the harness's
/// query (kbench::query_device_info).
struct Device {
  std::string name;
  int sm_count = 0;
  int l2_bytes = 0;
  int cc_major = 0;
  double peak_gbps = 0;  ///< 2 x memory clock x bus width / 8, from the attributes
};

/// The figures of the current device.
inline Device current_device() {
  int index = 0;
  KBENCH_CUDA_CALL(cudaGetDevice(&index));
  const kbench::DeviceInfo info = kbench::query_device_info(index);
  Device d;
  d.name = info.name;
  d.sm_count = info.sm_count;
  d.l2_bytes = static_cast<int>(info.l2_bytes);
  d.cc_major = info.cc_major;
  d.peak_gbps = info.peak_bandwidth_bytes_per_s / 1e9;
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
  ColdTimer(int l2_bytes, int samples) : flusher_(l2_bytes), samples_(samples) {}

  int samples() const { return samples_; }

  /// Median microseconds of `launch` in cold mode, after one untimed call (module load, first
  /// touch).
  double median_us(const std::function<void()>& launch) {
    launch();
    KBENCH_CHECK_LAUNCH();  // a launch that fails is not timed as a fast one
    KBENCH_CUDA_CALL(cudaDeviceSynchronize());
    std::vector<float> times;
    for (int s = 0; s < samples_; ++s) {
      flusher_.flush(nullptr);
      KBENCH_CUDA_CALL(cudaEventRecord(begin_.get()));
      launch();
      KBENCH_CUDA_CALL(cudaEventRecord(end_.get()));
      KBENCH_CUDA_CALL(cudaEventSynchronize(end_.get()));
      float ms = 0;
      KBENCH_CUDA_CALL(cudaEventElapsedTime(&ms, begin_.get(), end_.get()));
      times.push_back(ms * 1000.0f);
    }
    KBENCH_CHECK_LAUNCH();
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
  }

 private:
  kbench::L2Flusher flusher_;  ///< kbench's own eviction: reads a buffer of 2x L2
  int samples_;
  kbench::CudaEvent begin_, end_;
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
