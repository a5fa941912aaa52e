// The matmul op's host side: shapes, traffic, variants per dtype, the verification sample and the
// double-precision reference. No GPU.
#include "harness/plan/plan.hpp"
#include "harness/ops/defined_op.hpp"
#include "harness/ops/registry.hpp"
#include "harness/config/size_classes.hpp"
#include "kernels/matmul/matmul_reference.hpp"
#include "support/catch.hpp"

#include "kbench/ops/matmul.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <random>

using namespace kbench;

namespace {

const Op& matmul_op() {
  static Registry registry = [] {
    Registry r;
    register_all_ops(r);
    return r;
  }();
  return *registry.find("matmul");
}

const detail::AnyOpDefinition& matmul_definition() {
  return dynamic_cast<const DefinedOp&>(matmul_op()).definition();
}

bool has(const std::vector<std::int64_t>& sorted, std::int64_t value) {
  return std::binary_search(sorted.begin(), sorted.end(), value);
}

std::vector<float> random_values(std::size_t count, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  std::vector<float> values(count);
  for (float& v : values) v = uniform(rng);
  return values;
}

/// The matmul variant named `name`, or nullptr.
const detail::AnyVariant* matmul_variant(const std::string& name) {
  const detail::AnyOpDefinition& op = matmul_definition();
  const auto found = std::find_if(op.variants.begin(), op.variants.end(),
                                  [&](const detail::AnyVariant& v) { return v.name == name; });
  return found == op.variants.end() ? nullptr : &*found;
}

}  // namespace

TEST_CASE("matmul maps each size class to its MxNxK shapes", "[matmul]") {
  const Op& op = matmul_op();
  CHECK(op.shapes_for(*find_size_class("small")) == std::vector<Shape>{{512, 512, 512}});
  CHECK(op.shapes_for(*find_size_class("medium")) == std::vector<Shape>{{1024, 1024, 1024}, {2048, 2048, 2048}});
  CHECK(op.shapes_for(*find_size_class("large")) == std::vector<Shape>{{4096, 4096, 4096}});
  CHECK(op.shapes_for(*find_size_class("xlarge")) == std::vector<Shape>{{8192, 8192, 8192}});
  CHECK(op.shapes_for(*find_size_class("batch")) ==
        std::vector<Shape>{{1000, 1000, 1000}, {4096, 1024, 8192}, {127, 4099, 65}});
  for (const SizeClass& size_class : size_classes())
    for (const Shape& shape : op.shapes_for(size_class)) CHECK(op.reject_shape(shape).empty());
}

TEST_CASE("matmul rejects shapes that are not MxNxK or too large for 32-bit indexing", "[matmul]") {
  const Op& op = matmul_op();
  CHECK(contains(op.reject_shape({4096, 4096}), "rank-3"));
  CHECK(contains(op.reject_shape({4096, 4096}), "got rank 2"));
  CHECK_FALSE(op.reject_shape({2, 3, 4, 5}).empty());
  CHECK_FALSE(op.reject_shape({0, 3, 4}).empty());
  CHECK_FALSE(op.reject_shape({65536, 65536, 2}).empty());  // C has 2^32 elements
  CHECK_FALSE(op.reject_shape({2, 65536, 32768}).empty());  // B has 2^31
  CHECK(op.reject_shape({1, 1, 1}).empty());
  CHECK(op.reject_shape({46340, 46340, 46340}).empty());  // 46340² < 2^31
  // One extent near 2^31 with the others 1 keeps every product under 2^31, yet a launcher's
  // round-up to whole steps (K + 7) would overflow: at most 2^30 per extent, named.
  CHECK(contains(op.reject_shape({1, 1, 2147483647}), "at most 2^30"));
  CHECK(contains(op.reject_shape({1, 1073741825, 1}), "got 1073741825"));
  CHECK(op.reject_shape({1, 1, 1073741824}).empty());
}

TEST_CASE("matmul traffic: inputs once, output once, 2MNK FLOPs on the dtype's unit", "[matmul][traffic]") {
  const Op& op = matmul_op();
  const Traffic fp32 = op.traffic({{4096, 1024, 8192}, DType::f32, "batch"});
  CHECK(fp32.bytes_read == (4096.0 * 8192 + 8192.0 * 1024) * 4);
  CHECK(fp32.bytes_written == 4096.0 * 1024 * 4);
  CHECK(fp32.flops == 2.0 * 4096 * 1024 * 8192);
  CHECK(fp32.math == "fp32");
  const Traffic tf32 = op.traffic({{4096, 1024, 8192}, DType::tf32, "batch"});
  CHECK(tf32.bytes_total() == fp32.bytes_total());
  CHECK(tf32.math == "tf32_tensor");
  const Traffic fp16 = op.traffic({{4096, 4096, 4096}, DType::f16, "large"});
  CHECK(fp16.bytes_total() == 3.0 * 4096 * 4096 * 2);
  CHECK(fp16.math == "fp16_tensor");
  CHECK(op.traffic({{4096, 4096, 4096}, DType::bf16, "large"}).math == "fp16_tensor");
}

TEST_CASE("matmul plans register_blocked(_async) for fp32 only, tensor_core for the tensor dtypes, wgmma for 16-bit, "
          "wgmma_tf32 for tf32, auto for all",
          "[matmul][plan]") {
  Registry registry;
  register_all_ops(registry);
  Selection selection;
  selection.ops = {"matmul"};
  selection.size_classes = {"large"};
  selection.dtypes = {"all"};
  const Plan plan = make_plan(registry, selection);
  REQUIRE(plan.entries.size() == 4);
  for (const PlanEntry& entry : plan.entries) {
    std::vector<std::string> names;
    for (std::size_t v : entry.variants) names.push_back(entry.op->variants()[v].name);
    INFO(dtype_name(entry.problem.dtype));
    switch (entry.problem.dtype) {
      case DType::f32:
        CHECK(names == std::vector<std::string>{"naive", "tiled", "register_blocked", "register_blocked_async", "auto", "gemv", "cublas"});
        break;
      case DType::tf32:
        CHECK(names == std::vector<std::string>{"naive", "tiled", "tensor_core", "wgmma_tf32", "auto", "gemv", "cublas"});
        break;
      case DType::f16:
      case DType::bf16:
        CHECK(names == std::vector<std::string>{"naive", "tiled", "tensor_core", "wgmma", "wgmma_tma", "wgmma_tma_staged",
                                                "wgmma_tma_staged_n192", "wgmma_tma_staged_n128", "wgmma_tma_stream_k", "wgmma_tma_tail_split",
                                                "wgmma_tma_tail_split_n192", "wgmma_tma_tail_split_n128", "wgmma_tma_padded", "wgmma_tma_padded_n128",
                                                "auto", "gemv", "cublas"});
        break;
    }
  }
  selection.dtypes = {"fp16"};
  selection.variants = {"register_blocked"};
  CHECK_THROWS_AS(make_plan(registry, selection), std::invalid_argument);
}

TEST_CASE("small outputs are checked in full", "[matmul][verification]") {
  const auto all = matmul::sample_positions(129, 257, 1);
  REQUIRE(all.size() == 129u * 257u);
  CHECK(all.front() == 0);
  CHECK(all.back() == 129 * 257 - 1);
  CHECK(matmul::sample_positions(256, 256, 1).size() == 65536u);
}

TEST_CASE("large outputs are sampled: corners, last row, last column, at least 4096 elements", "[matmul][verification]") {
  for (const auto& [m, n] : std::vector<std::pair<std::int64_t, std::int64_t>>{
           {4096, 4096}, {8192, 8192}, {127, 4099}, {1000, 1000}, {100000, 10}, {3, 30000}, {257, 256}}) {
    INFO(m << "x" << n);
    const auto sample = matmul::sample_positions(m, n, 42);
    CHECK(sample.size() >= 4096u);
    CHECK(std::is_sorted(sample.begin(), sample.end()));
    CHECK(std::adjacent_find(sample.begin(), sample.end()) == sample.end());
    CHECK(sample.front() >= 0);
    CHECK(sample.back() < m * n);
    for (std::int64_t corner : {std::int64_t{0}, n - 1, (m - 1) * n, m * n - 1}) CHECK(has(sample, corner));
    bool last_row = true, last_col = true;
    for (std::int64_t j = 0; j < n; ++j) last_row = last_row && has(sample, (m - 1) * n + j);
    for (std::int64_t i = 0; i < m; ++i) last_col = last_col && has(sample, i * n + n - 1);
    CHECK(last_row);
    CHECK(last_col);
    CHECK(sample == matmul::sample_positions(m, n, 42));  // deterministic for a seed
  }
  // Every 128-row and 128-column tile of an 8192² output holds a sampled element.
  const auto sample = matmul::sample_positions(8192, 8192, 7);
  std::vector<bool> tile_rows(64), tile_cols(64);
  for (std::int64_t p : sample) {
    tile_rows[static_cast<std::size_t>(p / 8192 / 128)] = true;
    tile_cols[static_cast<std::size_t>(p % 8192 / 128)] = true;
  }
  CHECK(std::count(tile_rows.begin(), tile_rows.end(), true) == 64);
  CHECK(std::count(tile_cols.begin(), tile_cols.end(), true) == 64);
}

TEST_CASE("the matmul reference matches a plain triple loop, dense and sampled rows alike", "[matmul][verification]") {
  const std::vector<std::array<std::int64_t, 3>> shapes{{7, 13, 5}, {37, 300, 41}, {3, 2000, 70},
                                                        {300, 4000, 37}, {1, 70000, 3}, {100000, 8, 30}};
  for (const auto& [m, n, k] : shapes) {
    INFO(m << "x" << n << "x" << k);
    const std::vector<float> a = random_values(static_cast<std::size_t>(m * k), 1);
    const std::vector<float> b = random_values(static_cast<std::size_t>(k * n), 2);
    const auto positions = matmul::sample_positions(m, n, 3);
    const matmul::ReferenceValues ref = matmul::reference_at(a, b, m, n, k, positions);
    REQUIRE(ref.value.size() == positions.size());
    REQUIRE(ref.scale.size() == positions.size());
    for (std::size_t s = 0; s < positions.size(); ++s) {
      const std::int64_t i = positions[s] / n, j = positions[s] % n;
      double value = 0, scale = 0;
      for (std::int64_t kk = 0; kk < k; ++kk) {
        const double p = static_cast<double>(a[static_cast<std::size_t>(i * k + kk)]) * b[static_cast<std::size_t>(kk * n + j)];
        value += p;
        scale += std::fabs(p);
      }
      CHECK(ref.value[s] == Approx(value).margin(1e-12));
      CHECK(ref.scale[s] == Approx(scale).margin(1e-12));
      CHECK(ref.scale[s] >= std::fabs(ref.value[s]));
    }
  }
}

TEST_CASE("matmul tolerances: scaled by the sum of |a·b|, loose only where the dtype rounds", "[matmul][verification]") {
  const Tolerance fp32 = matmul::matmul_tolerance(DType::f32);
  CHECK(fp32.rel == 1e-6);
  CHECK(fp32.scaled == 2e-6);
  CHECK(matmul::matmul_tolerance(DType::tf32).scaled == 4e-3);
  CHECK(matmul::matmul_tolerance(DType::f16).rel == 2e-3);
  CHECK(matmul::matmul_tolerance(DType::bf16).rel == 1.6e-2);
  // A wrong value fails: the reference 1.0 with scale 2.0 admits 1 ± 5e-6 in fp32.
  CHECK(compare_with_reference({1.0f}, {1.0}, fp32, {2.0}).passed);
  CHECK_FALSE(compare_with_reference({1.0001f}, {1.0}, fp32, {2.0}).passed);
}

TEST_CASE("the matmul reference: a small C in full and in order, a large one at a sample drawn from the inputs",
          "[matmul][verification]") {
  const detail::AnyOpDefinition& op = matmul_definition();
  const Problem small{{7, 13, 5}, DType::f32, "test"};
  const std::vector<std::vector<float>> small_inputs{random_values(7 * 5, 1), random_values(5 * 13, 2)};
  const std::vector<OutputReference> full = op.reference(small, small_inputs);
  REQUIRE(full.size() == 1);
  CHECK(full[0].positions.empty());  // every element, in order
  const matmul::ReferenceValues expected =
      matmul::reference_at(small_inputs[0], small_inputs[1], 7, 13, 5, matmul::sample_positions(7, 13, 0));
  CHECK(full[0].values == expected.value);
  CHECK(full[0].scale == expected.scale);

  const Problem large{{300, 400, 8}, DType::f16, "test"};
  const std::vector<std::vector<float>> first{random_values(300 * 8, 3), random_values(8 * 400, 4)};
  const std::vector<std::vector<float>> second{random_values(300 * 8, 5), random_values(8 * 400, 6)};
  const OutputReference sampled = op.reference(large, first)[0];
  CHECK(sampled.positions.size() >= 4096u);
  CHECK(sampled.positions.size() < 300u * 400u);
  CHECK(sampled.values.size() == sampled.positions.size());
  CHECK(sampled.scale.size() == sampled.positions.size());
  CHECK(op.reference(large, first)[0].positions == sampled.positions);    // the same inputs, the same sample
  CHECK(op.reference(large, second)[0].positions != sampled.positions);   // other inputs, another one
  const matmul::ReferenceValues at = matmul::reference_at(first[0], first[1], 300, 400, 8, sampled.positions);
  CHECK(sampled.values == at.value);

  CHECK(op.describe_position(large, 0, 401) == "row 1, col 1");
  CHECK(op.describe_position(large, 0, 300 * 400 - 1) == "row 299, col 399");
}

TEST_CASE("matmul wgmma_tma refuses other devices, and on Hopper the shapes TMA cannot load, saying why",
          "[matmul]") {
  const detail::AnyVariant* tma = matmul_variant("wgmma_tma");
  REQUIRE(tma != nullptr);
  REQUIRE(tma->cannot_run);
  CHECK(tma->dtypes == std::vector<DType>{DType::f16, DType::bf16});
  alignas(16) static unsigned char buffer[16];
  MatmulArgs args;
  args.dtype = DType::f16;
  args.a = args.b = args.c = buffer;
  args.m = 1000;
  args.n = 1032;
  args.k = 1016;
  args.device.cc_major = 8;
  args.device.cc_minor = 0;
  CHECK(contains(tma->cannot_run(&args), "compute capability 9.0"));
  args.device.cc_major = 9;
  CHECK(tma->cannot_run(&args).empty());
  args.n = 1031;
  CHECK(contains(tma->cannot_run(&args), "TMA needs K and N to be multiples of 8"));
  args.n = 1032;
  args.k = 1015;
  CHECK(contains(tma->cannot_run(&args), "1000x1032x1015 (MxNxK)"));
}

TEST_CASE("matmul wgmma_tma_staged(_n128) refuse other devices, unaligned K or N, and a C TMA cannot store, saying why",
          "[matmul]") {
  for (const char* name : {"wgmma_tma_staged", "wgmma_tma_staged_n192", "wgmma_tma_staged_n128"}) {
    INFO(name);
    const detail::AnyVariant* staged = matmul_variant(name);
    REQUIRE(staged != nullptr);
    REQUIRE(staged->cannot_run);
    CHECK(staged->dtypes == std::vector<DType>{DType::f16, DType::bf16});
    alignas(16) static unsigned char buffer[32];
    MatmulArgs args;
    args.dtype = DType::bf16;
    args.a = args.b = args.c = buffer;
    args.m = 1023;
    args.n = 8200;
    args.k = 520;
    args.device.cc_major = 9;
    args.device.cc_minor = 0;
    CHECK(staged->cannot_run(&args).empty());
    args.c = buffer + 4;  // enough for wgmma_tma's 4-byte stores, not for a TMA store
    CHECK(staged->cannot_run(&args) == "TMA stores need C 16-byte aligned");
    args.c = buffer;
    args.n = 8193;
    CHECK(contains(staged->cannot_run(&args), "TMA needs K and N to be multiples of 8"));
    args.n = 8200;
    args.device.cc_major = 10;
    CHECK(contains(staged->cannot_run(&args), "compute capability 9.0"));
  }
}

TEST_CASE("matmul wgmma declares itself unavailable off compute capability 9.0, saying why", "[matmul]") {
  const detail::AnyVariant* wgmma = matmul_variant("wgmma");
  REQUIRE(wgmma != nullptr);
  REQUIRE(wgmma->cannot_run);
  MatmulArgs args;
  args.device.cc_major = 9;
  args.device.cc_minor = 0;
  CHECK(wgmma->cannot_run(&args).empty());
  for (const auto& [major, minor] : std::vector<std::pair<int, int>>{{8, 0}, {8, 9}, {10, 0}, {12, 0}}) {
    args.device.cc_major = major;
    args.device.cc_minor = minor;
    const std::string why = wgmma->cannot_run(&args);
    INFO(major << "." << minor << ": " << why);
    CHECK(contains(why, "compute capability 9.0"));
    CHECK(contains(why, std::to_string(major) + "." + std::to_string(minor)));
  }
}
