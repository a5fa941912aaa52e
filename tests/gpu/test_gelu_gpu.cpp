// Every variant of both GELU ops and every dtype against the CPU reference (DefinedOp's verify:
// guard bytes, two input sets, poisoned outputs), on fresh random inputs, at sizes that are not
// multiples of the block or vector widths (the vectorized kernel's scalar tail) and at one shape
// of each size class. Runs only where a CUDA device is present (see support/catch_main.cpp).
#include "harness/device/cuda_resources.hpp"
#include "harness/ops/registry.hpp"
#include "harness/config/size_classes.hpp"
#include "support/catch.hpp"
#include "support/test_variants.hpp"
#include "support/gpu_test_scope.hpp"

#include "kbench/ops/gelu.hpp"

#include <random>

using namespace kbench;

namespace {

const Registry& registry() {
  static Registry r = [] {
    Registry all;
    register_all_ops(all);
    return all;
  }();
  return r;
}

/// kbench's ops plus a test-only variant on each GELU op that launches nothing, declared as a
/// plugin would declare it.
const Registry& registry_with_idle_variant() {
  static Registry r = [] {
    Registry all;
    register_all_ops(all);
    for (const char* op : {"gelu_tanh", "gelu_erf"}) {
      all.add_variant(op, test::writes_nothing<GeluArgs>());
    }
    return all;
  }();
  return r;
}

std::vector<const Op*> gelu_ops() { return registry().select("gelu"); }

std::uint64_t fresh_seed() { return (std::uint64_t{std::random_device{}()} << 32) | std::random_device{}(); }

std::vector<Shape> shapes_to_check(const Op& op) {
  std::vector<Shape> shapes{{1}, {3}, {1023}, {4097}, {(1 << 20) + 1}, {7, 1031}};
  for (const SizeClass& size_class : size_classes_to_test()) shapes.push_back(op.shapes_for(size_class).front());
  return shapes;
}

}  // namespace

TEST_CASE("the gelu family holds gelu_tanh and gelu_erf", "[gpu][gelu]") {
  const auto ops = gelu_ops();
  REQUIRE(ops.size() == 2);
  CHECK(ops[0]->name() == "gelu_tanh");
  CHECK(ops[1]->name() == "gelu_erf");
}

TEST_CASE("every gelu variant matches the reference for every dtype and size", "[gpu][gelu]") {
  CudaStream stream;
  for (const Op* op : gelu_ops()) {
    const auto variants = op->variants();
    for (const Shape& shape : shapes_to_check(*op)) {
      for (DType dtype : op->dtypes()) {
        const std::uint64_t seed = fresh_seed();
        auto workload = op->prepare({shape, dtype, "test"}, seed);
        for (std::size_t v = 0; v < variants.size(); ++v) {
          if (!variants[v].supports(dtype) || variant_skipped_by_env(variants[v].name)) continue;
          INFO(op->name() << " " << variants[v].name << " " << dtype_name(dtype) << " " << format_shape(shape)
                          << " seed " << seed);
          if (const std::string why = workload->cannot_run(v); !why.empty()) {
            WARN("skipped: " << why);
            continue;
          }
          const Verification check = workload->verify(v, stream.get());
          INFO(check.message);
          CHECK(check.passed);
          CHECK(check.checked == element_count(shape));
        }
      }
    }
  }
}

TEST_CASE("a gelu variant that writes nothing fails: every element is still the poison", "[gpu][gelu]") {
  // Proves the check can fail, with the manual chain's |x|-scaled tolerance in play too: the
  // poison is NaN, which no tolerance admits.
  CudaStream stream;
  for (const Op* op : registry_with_idle_variant().select("gelu")) {
    const auto variants = op->variants();
    std::size_t idle = variants.size();
    for (std::size_t v = 0; v < variants.size(); ++v)
      if (variants[v].name == "writes_nothing") idle = v;
    REQUIRE(idle < variants.size());
    for (DType dtype : op->dtypes()) {
      INFO(op->name() << " " << dtype_name(dtype));
      auto workload = op->prepare({{4097}, dtype, "test"}, fresh_seed());
      const Verification check = workload->verify(idle, stream.get());
      INFO(check.message);
      CHECK_FALSE(check.passed);
      CHECK(check.mismatches == 4097);
    }
  }
}

TEST_CASE("a gelu variant index that does not exist is an error, not a silent no-op", "[gpu][gelu]") {
  CudaStream stream;
  for (const Op* op : gelu_ops()) {
    auto workload = op->prepare({{16}, DType::f32, "test"}, 1);
    CHECK_THROWS_AS(workload->launch(99, stream.get()), std::out_of_range);
  }
}
