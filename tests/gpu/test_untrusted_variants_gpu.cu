// Verification fit for untrusted kernels (harness/ops/defined_op.hpp): variants that write
// nothing, write outside their output, ignore their input or replay a cached result are each
// INCORRECT with a message saying how, and the other rows of the same sweep still pass. The
// test-only variants are declared on the add op exactly as a plugin would declare them.
#include "harness/device/cuda_check.hpp"
#include "harness/device/cuda_resources.hpp"
#include "harness/device/device_info.hpp"
#include "harness/measure/runner.hpp"
#include "harness/ops/registry.hpp"
#include "harness/plan/plan.hpp"
#include "support/catch.hpp"
#include "support/test_variants.hpp"
#include "support/gpu_test_scope.hpp"

#include "kbench/ops/add.hpp"

#include <memory>
#include <string>

using namespace kbench;

namespace {

__global__ void add_with_stray_write(const float* a, const float* b, float* c, std::int64_t n, std::int64_t stray) {
  const std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
  if (i == 0) c[stray] = 0.0f;  // outside [0, n): the bug under test
}

__global__ void fill(float* c, std::int64_t n, float value) {
  const std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (i < n) c[i] = value;
}

__global__ void add_into(const float* a, const float* b, float* c, std::int64_t n) {
  const std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

unsigned blocks(std::int64_t n) { return static_cast<unsigned>((n + 255) / 256); }

Variant<AddArgs> test_variant(std::string name, std::function<void(const AddArgs&, cudaStream_t)> launch) {
  Variant<AddArgs> v;
  v.name = std::move(name);
  v.description = "test-only";
  v.dtypes = {DType::f32};
  v.launch = std::move(launch);
  return v;
}

/// kbench's ops plus the bad variants, declared on add as a plugin would.
Registry& registry_with_bad_variants() {
  static Registry registry = [] {
    Registry r;
    register_all_ops(r);
    Variant<AddArgs> idle = test::writes_nothing<AddArgs>();
    idle.dtypes = {DType::f32};
    r.add_variant("add", std::move(idle));
    r.add_variant("add", test_variant("writes_past_end", [](const AddArgs& x, cudaStream_t s) {
      add_with_stray_write<<<blocks(x.n), 256, 0, s>>>(static_cast<const float*>(x.a), static_cast<const float*>(x.b),
                                                         static_cast<float*>(x.c), x.n, x.n + 3);
    }));
    r.add_variant("add", test_variant("writes_before_start", [](const AddArgs& x, cudaStream_t s) {
      add_with_stray_write<<<blocks(x.n), 256, 0, s>>>(static_cast<const float*>(x.a), static_cast<const float*>(x.b),
                                                         static_cast<float*>(x.c), x.n, -2);
    }));
    r.add_variant("add", test_variant("ignores_input", [](const AddArgs& x, cudaStream_t s) {
      fill<<<blocks(x.n), 256, 0, s>>>(static_cast<float*>(x.c), x.n, 0.5f);
    }));
    // Computes once into a private buffer, then replays it: right on the first input set only.
    Variant<AddArgs> cached = test_variant("replays_first_result", {});
    cached.prepare = [](const AddArgs& x) -> CallFn {
      auto cache = std::make_shared<DeviceBuffer>(static_cast<std::size_t>(x.n) * sizeof(float));
      auto computed = std::make_shared<bool>(false);
      return [x, cache, computed](cudaStream_t s) {
        if (!*computed) {
          add_into<<<blocks(x.n), 256, 0, s>>>(static_cast<const float*>(x.a), static_cast<const float*>(x.b),
                                               cache->as<float>(), x.n);
          *computed = true;
        }
        KBENCH_CUDA_CALL(cudaMemcpyAsync(x.c, cache->get(), cache->bytes(), cudaMemcpyDeviceToDevice, s));
      };
    };
    r.add_variant("add", std::move(cached));
    return r;
  }();
  return registry;
}

std::size_t variant_index(const Op& op, const std::string& name) {
  const auto variants = op.variants();
  for (std::size_t i = 0; i < variants.size(); ++i)
    if (variants[i].name == name) return i;
  FAIL("no variant " << name);
  return 0;
}

bool has_text(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("a variant that writes nothing fails: every element is still the poison", "[gpu][verification]") {
  const Op& add = *registry_with_bad_variants().find("add");
  CudaStream stream;
  auto workload = add.prepare({{4097}, DType::f32, "test"}, 7);
  const Verification check = workload->verify(variant_index(add, "writes_nothing"), stream.get());
  INFO(check.message);
  CHECK_FALSE(check.passed);
  CHECK(check.mismatches == 4097);
}

TEST_CASE("writes outside the output are caught by the guard bytes, with where and how many", "[gpu][verification]") {
  const Op& add = *registry_with_bad_variants().find("add");
  CudaStream stream;
  auto workload = add.prepare({{1031}, DType::f32, "test"}, 11);
  const Verification past = workload->verify(variant_index(add, "writes_past_end"), stream.get());
  INFO(past.message);
  CHECK_FALSE(past.passed);
  CHECK(has_text(past.message, "wrote 4 bytes outside output 'c' (4124 bytes): 4 bytes after it, the first at +12 past its end"));
  const Verification before = workload->verify(variant_index(add, "writes_before_start"), stream.get());
  INFO(before.message);
  CHECK_FALSE(before.passed);
  CHECK(has_text(before.message, "4 bytes before it, the nearest 5 before its start"));
}

TEST_CASE("an output that ignores the input, or replays an old result, fails", "[gpu][verification]") {
  const Op& add = *registry_with_bad_variants().find("add");
  CudaStream stream;
  auto workload = add.prepare({{(1 << 16) + 3}, DType::f32, "test"}, 13);
  const Verification ignores = workload->verify(variant_index(add, "ignores_input"), stream.get());
  INFO(ignores.message);
  CHECK_FALSE(ignores.passed);
  const Verification replays = workload->verify(variant_index(add, "replays_first_result"), stream.get());
  INFO(replays.message);
  CHECK_FALSE(replays.passed);
  CHECK(has_text(replays.message, "the output does not follow the input"));
}

TEST_CASE("bad variants are INCORRECT rows and the rest of the sweep passes", "[gpu][verification]") {
  Selection selection;
  selection.ops = {"add"};
  selection.shapes = {{4099}};
  const Plan plan = make_plan(registry_with_bad_variants(), selection);
  MeasureSettings settings;
  settings.min_samples = 2;
  settings.max_samples = 2;
  settings.min_time_s = 0;
  settings.modes = "cold";
  const RunOutcome outcome = run_plan(plan, query_device_info(0), settings, 5);
  int incorrect = 0, passed = 0;
  for (const CaseResult& row : outcome.rows) {
    INFO(row.variant << ": " << row.message);
    const bool bad = row.variant == "writes_nothing" || row.variant == "writes_past_end" ||
                     row.variant == "writes_before_start" || row.variant == "ignores_input" ||
                     row.variant == "replays_first_result";
    CHECK(row.status == (bad ? CaseStatus::incorrect : CaseStatus::passed));
    (bad ? incorrect : passed) += 1;
  }
  CHECK(incorrect == 5);
  CHECK(passed == static_cast<int>(outcome.rows.size()) - 5);  // add's own variants, its baseline and the roof
  CHECK(passed >= 3);
}
