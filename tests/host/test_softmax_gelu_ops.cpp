// The softmax and GELU ops' declarations (shapes, traffic, variants), their CPU references on
// known values, and that their tolerances, the widened manual ones included, still reject wrong
// results. No GPU needed.
#include "harness/ops/defined_op.hpp"
#include "harness/ops/registry.hpp"
#include "harness/config/size_classes.hpp"
#include "kernels/gelu/gelu_reference.hpp"
#include "kernels/softmax/softmax_reference.hpp"
#include "support/catch.hpp"

#include <algorithm>

#include "kbench/ops/softmax.hpp"

#include <cmath>

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

const SizeClass& size_class(const std::string& name) { return *find_size_class(name); }

/// What DefinedOp counts for one output beyond its data: a guard on each side and 256 bytes of
/// padding.
constexpr double kOutputGuards = 2 * kOutputGuardBytes + 256;

const detail::AnyOpDefinition& definition(const std::string& op) {
  const auto* defined = dynamic_cast<const DefinedOp*>(registry().find(op));
  REQUIRE(defined != nullptr);
  return defined->definition();
}

bool has_variant(const std::vector<VariantInfo>& variants, const std::string& name) {
  return std::any_of(variants.begin(), variants.end(), [&](const VariantInfo& v) { return v.name == name; });
}

/// The variant called `name`; fails the test when there is none.
VariantInfo variant(const std::vector<VariantInfo>& variants, const std::string& name) {
  for (const VariantInfo& v : variants)
    if (v.name == name) return v;
  FAIL("no variant " << name);
  return {};
}

}  // namespace

TEST_CASE("softmax declares its shapes, minimum traffic and variants", "[softmax]") {
  const Op* op = registry().find("softmax");
  REQUIRE(op != nullptr);
  CHECK(op->family() == "softmax");
  CHECK(op->shapes_for(size_class("small")) == std::vector<Shape>{{256, 256}, {512, 512}});
  CHECK(op->shapes_for(size_class("xlarge")) == std::vector<Shape>{{8192, 8192}});
  CHECK(op->shapes_for(size_class("batch")) == std::vector<Shape>{{32768, 512}, {1024, 32768}});

  const double n = 8192.0 * 8192.0;
  for (DType dtype : op->dtypes()) {
    const Traffic t = op->traffic({{8192, 8192}, dtype, "xlarge"});
    CHECK(t.bytes_read == n * static_cast<double>(dtype_size(dtype)));
    CHECK(t.bytes_written == t.bytes_read);
    CHECK(t.flops == 4 * n);
    CHECK(t.math == "fp32");
    // x, y (with its guard bytes), two intermediates of the manual chain, its per-row max and sum,
    // split_row's (and auto's) chunk states: 2 floats per 16 KiB chunk of each row, and grid_row's
    // states and counters for up to 8192 resident blocks (24 bytes each).
    const double chunks = 8192.0 * static_cast<double>(dtype_size(dtype)) / (16 * 1024);
    const double states = 2 * (2 * 8192 * (chunks < 1 ? 1 : chunks) * 4);
    const double grid_states = 8192 * 24;
    CHECK(op->device_bytes({{8192, 8192}, dtype, "xlarge"}) ==
          4 * t.bytes_read + 2 * 8192 * 4 + states + grid_states + kOutputGuards);
  }

  const auto variants = op->variants();
  CHECK(variant(variants, "manual").kernels_per_call == 5);
  for (const char* name : {"fused", "online", "register_row", "packed_rows", "short_rows", "cluster_row", "grid_row", "split_row",
                           "auto"}) {
    CHECK(variant(variants, name).role == VariantRole::own);
  }
  CHECK(variant(variants, "split_row").kernels_per_call == 2);
  const bool cudnn = has_variant(variants, "cudnn");
  CHECK(variant(variants, cudnn ? "cudnn" : "fused_reference").role == VariantRole::baseline);
  CHECK(op->reject_shape({}) != "");
  CHECK(op->reject_shape({7}) == "");
}

TEST_CASE("the gelu family declares two ops with the fusion lesson in kernels per call", "[gelu]") {
  const auto ops = registry().select("gelu");
  REQUIRE(ops.size() == 2);
  CHECK(ops[0]->name() == "gelu_tanh");
  CHECK(ops[1]->name() == "gelu_erf");
  const int manual_kernels[] = {8, 5};
  for (std::size_t i = 0; i < ops.size(); ++i) {
    const Op& op = *ops[i];
    CHECK(op.family() == "gelu");
    CHECK(op.shapes_for(size_class("large")) == size_class("large").shapes);
    const auto variants = op.variants();
    CHECK(variant(variants, "manual").kernels_per_call == manual_kernels[i]);
    for (const char* name : {"fused", "vectorized", "blocked"}) CHECK(variant(variants, name).kernels_per_call == 1);
    CHECK(variant(variants, "cub_transform").role == VariantRole::baseline);
    const Traffic t = op.traffic({{1000}, DType::f16, "custom"});
    CHECK(t.bytes_read == 2000);
    CHECK(t.bytes_written == 2000);
    CHECK(t.flops == 8000);
    // x, y (with its guard bytes) and two temporaries.
    CHECK(op.device_bytes({{1000}, DType::f16, "custom"}) == 8000 + kOutputGuards);
  }
}

TEST_CASE("the softmax reference normalises each row and subtracts its maximum", "[softmax]") {
  // Rows {0, ln 2} and {1000, 1000 + ln 2}: both 1/3, 2/3 (the second overflows without the max).
  const float ln2 = 0.69314718f;
  const std::vector<double> y = softmax::reference_softmax({0.0f, ln2, 1000.0f, 1000.0f + ln2}, 2, 2);
  REQUIRE(y.size() == 4);
  CHECK(y[0] == Approx(1.0 / 3).epsilon(1e-6));
  CHECK(y[1] == Approx(2.0 / 3).epsilon(1e-6));
  CHECK(y[2] == Approx(1.0 / 3).epsilon(1e-4));  // 1000 + ln 2 rounds to fp32
  CHECK(y[0] + y[1] == Approx(1.0).epsilon(1e-15));
}

TEST_CASE("the softmax tolerances, the manual chain's too, reject a dropped element", "[softmax]") {
  // A 7-wide row of equal inputs: 1/7 each. Dropping one element from the sum gives 1/6.
  const std::vector<double> reference(7, 1.0 / 7);
  const std::vector<float> wrong(7, static_cast<float>(1.0 / 6));
  for (DType dtype : {DType::f32, DType::f16, DType::bf16}) {
    CHECK_FALSE(compare_with_reference(wrong, reference, fp32_math_tolerance(dtype)).passed);
    CHECK_FALSE(compare_with_reference(wrong, reference, softmax::manual_softmax_tolerance(dtype)).passed);
  }
}

TEST_CASE("the gelu references match known values", "[gelu]") {
  const std::vector<double> tanh_form = gelu::reference_gelu(gelu::Form::tanh, {-5.0f, 0.0f, 1.0f, 3.0f});
  const std::vector<double> erf_form = gelu::reference_gelu(gelu::Form::erf, {-5.0f, 0.0f, 1.0f, 3.0f});
  CHECK(tanh_form[1] == 0.0);
  CHECK(erf_form[1] == 0.0);
  CHECK(erf_form[2] == Approx(0.8413447460685429).epsilon(1e-12));   // Phi(1)
  CHECK(erf_form[3] == Approx(2.99595030590511).epsilon(1e-12));     // 3 Phi(3)
  CHECK(erf_form[0] == Approx(-1.4332578593959731e-06).epsilon(1e-9));  // -5 Phi(-5)
  CHECK(tanh_form[2] == Approx(0.8411919906082768).epsilon(1e-12));
  CHECK(tanh_form[0] < 0.0);
  CHECK(tanh_form[0] > -1e-6);
}

TEST_CASE("the gelu tolerances reject a missing factor, and fp32 tells the two forms apart", "[gelu]") {
  const std::vector<float> x{-3.0f, -1.0f, 0.5f, 2.0f};
  const std::vector<double> reference = gelu::reference_gelu(gelu::Form::tanh, x);
  std::vector<double> scale;
  for (float v : x) scale.push_back(std::fabs(v));
  // Without the 0.5: twice the value.
  std::vector<float> doubled;
  for (double r : reference) doubled.push_back(static_cast<float>(2 * r));
  for (DType dtype : {DType::f32, DType::f16, DType::bf16}) {
    CHECK_FALSE(compare_with_reference(doubled, reference, fp32_math_tolerance(dtype)).passed);
    CHECK_FALSE(compare_with_reference(doubled, reference, gelu::manual_gelu_tolerance(dtype), scale).passed);
  }
  // The erf form where the tanh form was asked for: up to 4.7e-4 apart, caught in fp32.
  std::vector<float> other_form;
  for (double r : gelu::reference_gelu(gelu::Form::erf, x)) other_form.push_back(static_cast<float>(r));
  CHECK_FALSE(compare_with_reference(other_form, reference, fp32_math_tolerance(DType::f32)).passed);
  CHECK_FALSE(compare_with_reference(other_form, reference, gelu::manual_gelu_tolerance(DType::f32), scale).passed);
}

TEST_CASE("only the gelu manual chain's tolerance grows with |x|", "[gelu]") {
  // The reference gives every element a scale of |x|; it must widen the manual chain's bound only.
  for (const std::string name : {"gelu_tanh", "gelu_erf"}) {
    const detail::AnyOpDefinition& op = definition(name);
    for (DType dtype : op.dtypes) {
      INFO(name << " " << dtype_name(dtype));
      CHECK(op.tolerance(dtype).scaled == 0);
      for (const detail::AnyVariant& v : op.variants) {
        INFO(v.name);
        if (v.name == "manual") {
          REQUIRE(v.tolerance);
          CHECK(v.tolerance(dtype).scaled > 0);
        } else if (v.tolerance) {
          CHECK(v.tolerance(dtype).scaled == 0);
        }
      }
    }
    const std::vector<OutputReference> reference = op.reference({{3}, DType::f32, "custom"}, {{-2.0f, 0.0f, 0.5f}});
    REQUIRE(reference.size() == 1);
    CHECK(reference[0].scale == std::vector<double>{2.0, 0.0, 0.5});
  }
}

TEST_CASE("the softmax baseline names the shapes cuDNN cannot express as its cannot_run", "[softmax]") {
  for (const detail::AnyVariant& v : definition("softmax").variants) {
    if (v.name != "cudnn") continue;
    REQUIRE(v.cannot_run);
    SoftmaxArgs args;
    args.rows = 4;
    args.cols = 16;
    CHECK(v.cannot_run(&args).empty());
    args.rows = std::int64_t{1} << 16;
    args.cols = std::int64_t{1} << 16;
    CHECK(contains(v.cannot_run(&args), "cuDNN cannot express 65536 x 65536"));
  }
}
