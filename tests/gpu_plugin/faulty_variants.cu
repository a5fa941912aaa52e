// A test-only plugin (tests/cli/isolation_gpu.sh loads it with --plugin): variants of add that
// each break in their own way, beside one that is right. In one isolated sweep each must get its
// own status while kbench's rows of the same case pass:
//   faults_illegal_address  writes through a wild pointer      ERROR, with the CUDA message
//   hangs                   spins forever                      ERROR "timed out", worker killed
//   writes_past_end         one element past its output        INCORRECT (guard bytes)
//   ignores_input           writes a constant                  INCORRECT
//   plugin_add              c = a + b                          passed
// Built like a user's plugin: kbench/plugin.hpp only, as a MODULE library.
#include <kbench/ops/add.hpp>
#include <kbench/plugin.hpp>

#include <cstdint>
#include <string>
#include <utility>

namespace {

__global__ void add_kernel(const float* a, const float* b, float* c, std::int64_t n, std::int64_t stray) {
  const std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
  if (stray >= 0 && i == 0) c[stray] = 0.0f;  // stray == n: just past the end, inside the guard bytes
}

__global__ void write_wild(float* c, std::int64_t n) {
  const std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  // 1 TiB past the output: no allocation is there, so the write is an illegal address.
  if (i == 0) c[(std::int64_t{1} << 40) / sizeof(float) + n] = 1.0f;
}

__global__ void spin_forever(float* c) {
  // __nanosleep keeps the loop from being optimised away; only killing the process ends it.
  (void)c;
  for (;;) __nanosleep(1000);
}

__global__ void fill(float* c, std::int64_t n, float value) {
  const std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (i < n) c[i] = value;
}

unsigned blocks(std::int64_t n) { return static_cast<unsigned>((n + 255) / 256); }

const float* in(const void* p) { return static_cast<const float*>(p); }
float* out(void* p) { return static_cast<float*>(p); }

kbench::Variant<kbench::AddArgs> variant(std::string name, std::string description,
                                         void (*launch)(const kbench::AddArgs&, cudaStream_t)) {
  kbench::Variant<kbench::AddArgs> v;
  v.name = std::move(name);
  v.description = std::move(description);
  v.dtypes = {kbench::DType::f32};
  v.launch = launch;
  return v;
}

}  // namespace

KBENCH_PLUGIN(registrar) {
  registrar.add_variant<kbench::AddArgs>(
      "add", variant("faults_illegal_address", "test: writes through a wild pointer", [](const kbench::AddArgs& x, cudaStream_t s) {
        write_wild<<<1, 32, 0, s>>>(out(x.c), x.n);
      }));
  registrar.add_variant<kbench::AddArgs>(
      "add", variant("hangs", "test: spins forever", [](const kbench::AddArgs& x, cudaStream_t s) {
        spin_forever<<<1, 1, 0, s>>>(out(x.c));
      }));
  registrar.add_variant<kbench::AddArgs>(
      "add", variant("writes_past_end", "test: writes one element past its output", [](const kbench::AddArgs& x, cudaStream_t s) {
        add_kernel<<<blocks(x.n), 256, 0, s>>>(in(x.a), in(x.b), out(x.c), x.n, x.n);
      }));
  registrar.add_variant<kbench::AddArgs>(
      "add", variant("ignores_input", "test: writes a constant", [](const kbench::AddArgs& x, cudaStream_t s) {
        fill<<<blocks(x.n), 256, 0, s>>>(out(x.c), x.n, 0.5f);
      }));
  registrar.add_variant<kbench::AddArgs>(
      "add", variant("plugin_add", "test: right", [](const kbench::AddArgs& x, cudaStream_t s) {
        add_kernel<<<blocks(x.n), 256, 0, s>>>(in(x.a), in(x.b), out(x.c), x.n, -1);
      }));
}
