// Every softmax variant and dtype against the CPU reference (DefinedOp's verify: guard bytes, two
// input sets, poisoned outputs), on fresh random inputs: odd row widths that take the scalar path
// (1, 7, 1031, 4097, 65537), widths on both sides of the warp-per-row limit (1024, 1025), rows
// that are whole 16-byte vectors (vector path), tensors of rank 1 and 3, and one shape of each
// size class. Runs only where a CUDA device is present (see support/catch_main.cpp).
#include "harness/device/cuda_resources.hpp"
#include "harness/device/device_info.hpp"
#include "harness/ops/registry.hpp"
#include "harness/config/size_classes.hpp"
#include "kernels/softmax/softmax_kernels.hpp"
#include "support/catch.hpp"
#include "support/test_variants.hpp"
#include "support/gpu_test_scope.hpp"
#include "support/verify_variants.hpp"

#include "kbench/ops/softmax.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

using namespace kbench;

namespace {

const Op& softmax_op() {
  static Registry registry = [] {
    Registry r;
    register_all_ops(r);
    return r;
  }();
  return *registry.find("softmax");
}

/// kbench's softmax plus a test-only variant that launches nothing, declared as a plugin would.
const Op& softmax_with_idle_variant() {
  static Registry registry = [] {
    Registry r;
    register_all_ops(r);
    r.add_variant("softmax", test::writes_nothing<SoftmaxArgs>());
    return r;
  }();
  return *registry.find("softmax");
}

std::uint64_t fresh_seed() { return (std::uint64_t{std::random_device{}()} << 32) | std::random_device{}(); }

std::vector<Shape> shapes_to_check() {
  std::vector<Shape> shapes{{1, 1},    {3, 7},    {5, 1031}, {2, 4097},   {33, 1024}, {1, 32768}, {7, 65537},
                            {6, 24},   {3, 1025}, {4, 2056}, {9, 4096},   {1031},     {2, 3, 515},
                            {2, 65536}, {3, 32776}};  // the last two: longer than register_row holds
  for (const SizeClass& size_class : size_classes_to_test()) shapes.push_back(softmax_op().shapes_for(size_class).front());
  return shapes;
}

}  // namespace

TEST_CASE("every softmax variant matches the reference for every dtype and shape", "[gpu][softmax]") {
  const Op& op = softmax_op();
  CudaStream stream;
  const auto variants = op.variants();
  for (const Shape& shape : shapes_to_check()) {
    for (DType dtype : op.dtypes()) {
      const std::uint64_t seed = fresh_seed();
      auto workload = op.prepare({shape, dtype, "test"}, seed);
      for (std::size_t v = 0; v < variants.size(); ++v) {
        if (!variants[v].supports(dtype) || variant_skipped_by_env(variants[v].name)) continue;
        INFO("softmax " << variants[v].name << " " << dtype_name(dtype) << " " << format_shape(shape) << " seed "
                        << seed);
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

TEST_CASE("the shape-class softmax kernels and auto match the reference on large odd extents", "[gpu][softmax]") {
  // Issue 22's classes with primes and widths that are no multiple of the vector width (rows start
  // at every alignment): many short rows (packed_rows, short_rows), vocabulary and long rows
  // (cluster_row; split_row past what 8 cluster slices hold), few long rows (grid_row), 3-D;
  // poisoned, guarded outputs.
  const Op& op = softmax_op();
  CudaStream stream;
  // short_rows: every lane-group shape of both paths (widths 1-1024, odd and whole vectors);
  // grid_row: few long rows of prime lengths, and 5 rows of 16 MiB (fp32), which the grid takes
  // one row at a time (its batches, its counters' reuse; verify calls it twice, so the counters'
  // reset between calls is checked too), and 13 x 999983 (fp32: batches of 6 rows, the last
  // one partial); cluster_row: 517 vocabulary rows, more than twice the
  // clusters an H100 or H200 holds at once (several waves of clusters).
  const std::vector<std::string> names{"packed_rows", "short_rows", "cluster_row", "grid_row", "split_row", "auto"};
  const auto variants = op.variants();
  const std::vector<Shape> shapes{{1000003, 3}, {1048573, 5}, {262147, 32}, {65537, 100}, {4099, 1000}, {3, 5, 1031},
                                  {33, 50257},  {64, 32000},  {7, 262147},  {3, 1000003}, {2, 1048576}, {1, 7},
                                  {5, 1},       {9, 129},     {65537, 1},   {65537, 2},   {20011, 7},   {30011, 31},
                                  {30011, 33},  {4099, 127},  {100003, 4},  {100003, 8},  {30011, 16},  {30011, 64},
                                  {4099, 512},  {4099, 1024}, {7, 11, 13},  {4, 1048573}, {5, 4194301}, {13, 999983}, {1, 65537},
                                  {517, 50257}};
  for (const Shape& shape : shapes) {
    for (DType dtype : op.dtypes()) {
      const std::uint64_t seed = fresh_seed();
      auto workload = op.prepare({shape, dtype, "test"}, seed);
      for (std::size_t v = 0; v < variants.size(); ++v) {
        if (std::find(names.begin(), names.end(), variants[v].name) == names.end()) continue;
        INFO("softmax " << variants[v].name << " " << dtype_name(dtype) << " " << format_shape(shape) << " seed "
                        << seed);
        const Verification check = workload->verify(v, stream.get());
        INFO(check.message);
        CHECK(check.passed);
        CHECK(check.checked == element_count(shape));
      }
    }
  }
}

TEST_CASE("cluster_row stores exponentials for 16-bit rows in several waves, and matches the reference",
          "[gpu][softmax]") {
  // 2503 rows of 4099 elements: one-block clusters of 8 KB slices, rows starting at every 2-byte
  // offset (head and tail elements), 2.4 waves of clusters on an H100 or H200 (1056 resident: 8
  // blocks of 256 threads an SM), so that the 16-bit plans store exponentials
  // (cluster_stores_exponentials) and fp32 does not.
  const DeviceInfo info = query_device_info(0);
  const std::int64_t rows = 2503, cols = 4099;
  DeviceBuffer x(static_cast<std::size_t>(rows * cols) * 4), y(static_cast<std::size_t>(rows * cols) * 4);
  const auto plan_of = [&](auto* typed) {
    using T = std::remove_pointer_t<decltype(typed)>;
    return softmax::plan_cluster_row(static_cast<const T*>(x.get()), static_cast<const T*>(y.get()), rows, cols,
                                     info.sm_count, info.cc_major);
  };
  if (info.cc_major < 9) {
    WARN("skipped: cluster_row needs compute capability 9.0 (this device: " << info.cc_major << ")");
    return;
  }
  CHECK(plan_of(static_cast<__half*>(nullptr)).stores_exponentials);
  CHECK(plan_of(static_cast<__nv_bfloat16*>(nullptr)).stores_exponentials);
  CHECK_FALSE(plan_of(static_cast<float*>(nullptr)).stores_exponentials);
  CudaStream stream;
  test::verify_variants(softmax_op(), {rows, cols}, {"cluster_row"}, stream, rows * cols);
}

TEST_CASE("the softmax baseline is cuDNN's or the fused reference, by name", "[gpu][softmax]") {
  const auto variants = softmax_op().variants();
  const auto baseline = std::find_if(variants.begin(), variants.end(),
                                     [](const VariantInfo& v) { return v.role == VariantRole::baseline; });
  REQUIRE(baseline != variants.end());
  CHECK((baseline->name == "cudnn" || baseline->name == "fused_reference"));
  const auto manual =
      std::find_if(variants.begin(), variants.end(), [](const VariantInfo& v) { return v.name == "manual"; });
  REQUIRE(manual != variants.end());
  CHECK(manual->kernels_per_call == 5);
}

TEST_CASE("a softmax variant that writes nothing fails: every element is still the poison", "[gpu][softmax]") {
  // Proves the check can fail: without a launch every element is still NaN.
  const Op& op = softmax_with_idle_variant();
  const auto variants = op.variants();
  std::size_t idle = variants.size();
  for (std::size_t v = 0; v < variants.size(); ++v)
    if (variants[v].name == "writes_nothing") idle = v;
  REQUIRE(idle < variants.size());
  CudaStream stream;
  for (DType dtype : op.dtypes()) {
    INFO(dtype_name(dtype));
    auto workload = op.prepare({{3, 1031}, dtype, "test"}, fresh_seed());
    const Verification check = workload->verify(idle, stream.get());
    INFO(check.message);
    CHECK_FALSE(check.passed);
    CHECK(check.mismatches == 3 * 1031);
  }
}

TEST_CASE("a softmax variant index that does not exist is an error, not a silent no-op", "[gpu][softmax]") {
  CudaStream stream;
  auto workload = softmax_op().prepare({{4, 16}, DType::f32, "test"}, 1);
  CHECK_THROWS_AS(workload->launch(99, stream.get()), std::out_of_range);
}
