// A test-only plugin for measuring the gate's sensitivity (scripts/gate_error_rates.sh): one add
// variant, `delayed_add` (fp32), that computes c = a + b and then runs a one-thread kernel that
// spins for KBENCH_TEST_DELAY_NS nanoseconds (read once, when the plugin loads; default 0). The
// spin kernel runs at 0 too, so runs at different delays differ by the delay alone: a known,
// configurable slowdown of a correct kernel. The spin counts SM cycles at the device's peak clock
// (cudaDevAttrClockRate); at a lower clock it lasts longer, which the script sees in its medians.
// Built like a user's plugin: kbench/plugin.hpp only, as a MODULE library.
#include <kbench/ops/add.hpp>
#include <kbench/plugin.hpp>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace {

__global__ void add_kernel(const float* a, const float* b, float* c, std::int64_t n) {
  const std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

__global__ void spin(long long cycles) {
  const long long start = clock64();
  while (clock64() - start < cycles) {
  }
}

std::int64_t delay_ns_from_environment() {
  const char* text = std::getenv("KBENCH_TEST_DELAY_NS");
  if (text == nullptr || *text == '\0') return 0;
  char* end = nullptr;
  errno = 0;
  const long long value = std::strtoll(text, &end, 10);
  if (errno != 0 || *end != '\0' || value < 0 || value > 1000000000LL) {
    throw std::invalid_argument(std::string("KBENCH_TEST_DELAY_NS is '") + text + "'; expected an integer from 0 to 1e9 (ns)");
  }
  return value;
}

/// The delay in SM cycles at the device's peak clock; read once, at the first (verification) call.
long long delay_cycles(std::int64_t delay_ns) {
  static const long long cycles = [delay_ns] {
    int device = 0, clock_khz = 0;
    if (cudaGetDevice(&device) != cudaSuccess || cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, device) != cudaSuccess) {
      throw std::runtime_error("delayed_add: cannot read the SM clock rate");
    }
    return static_cast<long long>(delay_ns) * clock_khz / 1000000;
  }();
  return cycles;
}

}  // namespace

KBENCH_PLUGIN(registrar) {
  const std::int64_t delay_ns = delay_ns_from_environment();
  kbench::Variant<kbench::AddArgs> v;
  v.name = "delayed_add";
  v.description = "test: c = a + b, then a one-thread spin of KBENCH_TEST_DELAY_NS ns (now " + std::to_string(delay_ns) + ")";
  v.dtypes = {kbench::DType::f32};
  v.launch = [delay_ns](const kbench::AddArgs& x, cudaStream_t s) {
    const long long cycles = delay_cycles(delay_ns);
    add_kernel<<<static_cast<unsigned>((x.n + 255) / 256), 256, 0, s>>>(static_cast<const float*>(x.a),
                                                                       static_cast<const float*>(x.b), static_cast<float*>(x.c), x.n);
    spin<<<1, 1, 0, s>>>(cycles);
  };
  registrar.add_variant<kbench::AddArgs>("add", v);
}
