// The TF32 wgmma kernel (kernels/matmul/matmul_wgmma_tf32.cu) and its B transpose against the CPU
// reference, on fresh random inputs with the output poisoned first: one tile first, then odd
// extents, forced K splits (empty ones included), the shapes it refuses, and auto's tf32 plans
// that run it. Compute capability 9.0 only; elsewhere each test warns and checks the refusal.
#include "harness/device/cuda_resources.hpp"
#include "harness/ops/registry.hpp"
#include "kernels/matmul/matmul_kernels.hpp"
#include "support/catch.hpp"
#include "support/gpu_test_scope.hpp"

#include "kbench/ops/matmul.hpp"

#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

using namespace kbench;

namespace {

/// wgmma_tf32 with a fixed split count, whatever the shape: Bᵀ, the kernel into `splits` slices,
/// then launch_split_k_reduce.
Variant<MatmulArgs> wgmma_tf32_split_k(int splits) {
  Variant<MatmulArgs> v;
  v.name = "wgmma_tf32_split_k_" + std::to_string(splits);
  v.description = "test-only: wgmma_tf32 over a fixed number of K splits, then their reduction";
  v.dtypes = {DType::tf32};
  v.cannot_run = [](const MatmulArgs& args) {
    if (std::string why = matmul::wgmma_unavailable(args.device.cc_major, args.device.cc_minor); !why.empty()) {
      return why;
    }
    return matmul::wgmma_tf32_unsupported({static_cast<int>(args.m), static_cast<int>(args.n), static_cast<int>(args.k)},
                                          args.a, args.c);
  };
  v.prepare = [splits](const MatmulArgs& args) -> CallFn {
    const matmul::Dims dims{static_cast<int>(args.m), static_cast<int>(args.n), static_cast<int>(args.k)};
    const std::size_t transposed_b = matmul::wgmma_tf32_transposed_b_bytes(dims);
    auto workspace =
        std::make_shared<const DeviceBuffer>(transposed_b + std::size_t(splits) * dims.m * dims.n * sizeof(float));
    auto maps = std::make_shared<const matmul::WgmmaTf32Operands>(
        matmul::make_wgmma_tf32_operands(static_cast<const float*>(args.a), workspace->as<float>(), dims));
    return [splits, args, dims, workspace, maps, transposed_b](cudaStream_t stream) {
      float* slices = workspace->as<float>() + transposed_b / sizeof(float);
      matmul::launch_transpose(static_cast<const float*>(args.b), workspace->as<float>(), dims.k, dims.n, stream);
      matmul::launch_wgmma_tf32(*maps, slices, dims, splits, stream);
      matmul::launch_split_k_reduce(slices, splits, static_cast<float*>(args.c), dims, stream);
    };
  };
  return v;
}

const std::vector<int> kForcedSplits{1, 3, matmul::kMaxSplitK};

/// matmul with the fixed-split variants above.
const Op& matmul_op() {
  static Registry registry = [] {
    Registry r;
    register_all_ops(r);
    for (int splits : kForcedSplits) r.add_variant("matmul", wgmma_tf32_split_k(splits));
    return r;
  }();
  return *registry.find("matmul");
}

std::uint64_t fresh_seed() { return (std::uint64_t{std::random_device{}()} << 32) | std::random_device{}(); }

std::size_t variant_index(const Op& op, const std::string& name) {
  const auto variants = op.variants();
  for (std::size_t v = 0; v < variants.size(); ++v)
    if (variants[v].name == name) return v;
  throw std::logic_error("matmul has no variant " + name);
}

/// Checks `variant` in tf32 on every shape of `shapes`. Where the device is not compute capability
/// 9.0 it warns and checks nothing; there, every shape must be one the variant accepts. False when
/// it checked nothing.
bool check_on(const std::string& variant, const std::vector<Shape>& shapes) {
  const Op& op = matmul_op();
  const std::size_t v = variant_index(op, variant);
  CudaStream stream;
  for (const Shape& shape : shapes) {
    const std::uint64_t seed = fresh_seed();
    auto workload = op.prepare({shape, DType::tf32, "test"}, seed);
    const std::string why = workload->cannot_run(v);
    if (contains(why, "compute capability 9.0")) {
      WARN("matmul " << variant << " not checked on this device: " << why);
      return false;
    }
    INFO("matmul " << variant << " tf32 " << format_shape(shape) << " seed " << seed);
    REQUIRE(why.empty());
    const Verification check = workload->verify(v, stream.get());
    INFO(check.message);
    CHECK(check.passed);
  }
  return true;
}

}  // namespace

// Smallest first: a barrier phase, expect_tx or descriptor mistake shows on one tile (a hang traps
// after about 4 s, tma.cuh), and this test names it.
TEST_CASE("wgmma_tf32 on a single tile: one K step, then enough steps to wrap the 4-stage ring",
          "[gpu][matmul][wgmma_tf32]") {
  // 128x256x32: exactly one tile and one step; 64x64x4: one step of which 28 K are zero-filled, a
  // tile mostly outside C; 128x256x160: 5 steps (the ring wraps once); 100x200x12.
  check_on("wgmma_tf32", {{128, 256, 32}, {64, 64, 4}, {128, 256, 160}, {100, 200, 12}});
}

TEST_CASE("wgmma_tf32 on odd extents: M and N any (N odd: scalar stores), K a multiple of 4 but not of 32",
          "[gpu][matmul][wgmma_tf32]") {
  // 1009x1031x1016: every edge partial, N odd; 1x7x4: one row, three columns short of a pair;
  // 127x4099x68: one tile row over 17 tile columns; 2053x2055x264: 17x9 = 153 tiles for 132 blocks,
  // so blocks take a second tile with the ring's phases carried over; 3001x997x2004: the zoo's
  // non-square class, held out.
  check_on("wgmma_tf32", {{1009, 1031, 1016}, {1, 7, 4}, {127, 4099, 68}, {2053, 2055, 264}, {3001, 997, 2004}});
}

TEST_CASE("wgmma_tf32 with K split: any split count, empty splits included", "[gpu][matmul][wgmma_tf32]") {
  // 64 splits of 7x13x4 (one step) leave 63 empty: they must write zeros. 257x129x4100 and
  // 17x4099x1032: odd M, N with 129 and 32 steps; 1000x1000x1000: 32 tiles.
  for (int splits : kForcedSplits) {
    if (!check_on("wgmma_tf32_split_k_" + std::to_string(splits),
                  {{7, 13, 4}, {257, 129, 4100}, {17, 4099, 1032}, {1000, 1000, 1000}})) {
      return;
    }
  }
}

TEST_CASE("wgmma_tf32 refuses K not a multiple of 4, by name, and auto still runs those shapes",
          "[gpu][matmul][wgmma_tf32]") {
  const Op& op = matmul_op();
  CudaStream stream;
  for (const Shape& shape : {Shape{1023, 4097, 513}, Shape{64, 64, 6}}) {
    auto workload = op.prepare({shape, DType::tf32, "test"}, fresh_seed());
    const std::string why = workload->cannot_run(variant_index(op, "wgmma_tf32"));
    INFO(format_shape(shape) << ": " << why);
    CHECK_FALSE(why.empty());
    if (!contains(why, "compute capability 9.0")) CHECK(contains(why, "TMA needs K to be a multiple of 4"));
    CHECK_THROWS_AS(workload->launch(variant_index(op, "wgmma_tf32"), stream.get()), std::invalid_argument);
    const Verification check = workload->verify(variant_index(op, "auto"), stream.get());
    INFO(check.message);
    CHECK(check.passed);
  }
}

TEST_CASE("wgmma_tf32 at 4096x4096x4096 (512 tiles, about 4 per block) and 3000x1000x2000",
          "[gpu][matmul][wgmma_tf32]") {
  check_on("wgmma_tf32", {{4096, 4096, 4096}, {3000, 1000, 2000}});
}

TEST_CASE("auto's tf32 plans that run wgmma_tf32, whole K and split", "[gpu][matmul][wgmma_tf32]") {
  // On the H100: 3000x1000x2000 and 2048x2048x2048 whole K; 1024x1024x8192 4 splits; 1024x1024x4096
  // 4 splits (tests/host/test_matmul_auto_tf32.cpp); elsewhere the mma.sync plans. K not a multiple
  // of 4, on padded copies of A and Bᵀ: 1023x4097x513 and 2000x3001x1001 whole K, 1024x1024x8191
  // split 4 ways.
  check_on("auto", {{3000, 1000, 2000}, {2048, 2048, 2048}, {1024, 1024, 8192}, {1024, 1024, 4096},
                    {1023, 4097, 513}, {2000, 3001, 1001}, {1024, 1024, 8191}});
}
