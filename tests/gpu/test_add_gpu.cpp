// Every add variant and dtype against the CPU reference, on fresh random inputs with the output
// poisoned first, at sizes that are not multiples of the block or vector widths and at the size
// classes. Runs only where a CUDA device is present (see support/catch_main.cpp).
#include "harness/device/cuda_resources.hpp"
#include "harness/ops/registry.hpp"
#include "harness/config/size_classes.hpp"
#include "support/catch.hpp"
#include "support/gpu_test_scope.hpp"

#include <random>

using namespace kbench;

namespace {

const Op& add_op() {
  static Registry registry = [] {
    Registry r;
    register_all_ops(r);
    return r;
  }();
  return *registry.find("add");
}

std::uint64_t fresh_seed() { return (std::uint64_t{std::random_device{}()} << 32) | std::random_device{}(); }

std::vector<Shape> shapes_to_check() {
  std::vector<Shape> shapes{{1}, {3}, {1023}, {4097}, {(1 << 20) + 1}, {7, 1031}};
  for (const SizeClass& size_class : size_classes_to_test())
    for (const Shape& shape : size_class.shapes) shapes.push_back(shape);
  return shapes;
}

}  // namespace

TEST_CASE("every add variant matches the reference for every dtype and size", "[gpu][add]") {
  const Op& op = add_op();
  CudaStream stream;
  for (const Shape& shape : shapes_to_check()) {
    for (DType dtype : op.dtypes()) {
      const std::uint64_t seed = fresh_seed();
      auto workload = op.prepare({shape, dtype, "test"}, seed);
      const auto variants = op.variants();
      for (std::size_t v = 0; v < variants.size(); ++v) {
        INFO("add " << variants[v].name << " " << dtype_name(dtype) << " " << format_shape(shape) << " seed " << seed);
        const Verification check = workload->verify(v, stream.get());
        INFO(check.message);
        CHECK(check.passed);
        CHECK(check.checked == element_count(shape));
      }
    }
  }
}


TEST_CASE("a variant index that does not exist is an error, not a silent no-op", "[gpu][add]") {
  CudaStream stream;
  auto workload = add_op().prepare({{16}, DType::f32, "test"}, 1);
  CHECK_THROWS_AS(workload->launch(99, stream.get()), std::out_of_range);
}
