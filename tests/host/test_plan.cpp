#include "harness/plan/plan.hpp"
#include "support/catch.hpp"

#include <memory>
#include <stdexcept>

using namespace kbench;

namespace {
std::string plan_error(const Registry& registry, const Selection& selection) {
  try {
    make_plan(registry, selection);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "no error";
}
Registry all_ops() {
  Registry registry;
  register_all_ops(registry);
  return registry;
}
}  // namespace

TEST_CASE("--size all expands to the seed report's seven shapes", "[plan]") {
  const Registry registry = all_ops();
  Selection selection;
  selection.ops = {"add"};
  selection.size_classes = {"all"};
  const Plan plan = make_plan(registry, selection);
  REQUIRE(plan.entries.size() == 7);
  CHECK(plan.entries[0].problem.shape == Shape{256, 256});
  CHECK(plan.entries[0].problem.size_class == "small");
  CHECK(plan.entries[3].problem.shape == Shape{4096, 4096});
  CHECK(plan.entries[6].problem.shape == Shape{16, 1024, 1024});
  CHECK(plan.entries[6].problem.size_class == "batch");
  CHECK(plan.entries[0].problem.dtype == DType::f32);  // default dtype
  CHECK(plan.row_count() == 7 * 6);  // naive, vectorized, blocked, auto, cub, d2d copy
}

TEST_CASE("dtypes, explicit shapes and variant filters", "[plan]") {
  const Registry registry = all_ops();
  Selection selection;
  selection.ops = {"add"};
  selection.shapes = {{1031}, {7, 3}};
  selection.dtypes = {"all"};
  selection.variants = {"vectorized"};
  const Plan plan = make_plan(registry, selection);
  REQUIRE(plan.entries.size() == 6);
  CHECK(plan.entries[0].problem.size_class == "custom");
  // The chosen own variant plus the baseline; and the roof row.
  CHECK(plan.entries[0].variants.size() == 2);
  CHECK(plan.entries[0].copy_roof);

  selection.with_references = false;
  const Plan bare = make_plan(registry, selection);
  CHECK(bare.entries[0].variants.size() == 1);
  CHECK_FALSE(bare.entries[0].copy_roof);
  CHECK(bare.row_count() == 6);
}

TEST_CASE("unknown names are rejected with the valid ones listed", "[plan]") {
  const Registry registry = all_ops();
  Selection selection;
  selection.ops = {"nope"};
  CHECK(contains(plan_error(registry, selection), "unknown op 'nope'; valid: add"));
  selection.ops = {"add"};
  selection.size_classes = {"huge"};
  CHECK(contains(plan_error(registry, selection), "unknown size 'huge'; valid: small, medium, large, xlarge, batch, all"));
  selection.size_classes = {"small"};
  selection.dtypes = {"fp64"};
  CHECK(contains(plan_error(registry, selection), "unknown dtype 'fp64'; valid: fp32, fp16, bf16, tf32, all"));
  selection.dtypes = {};
  selection.variants = {"fast"};
  CHECK(contains(plan_error(registry, selection), "unknown variant 'fast'; valid: add: naive, vectorized, blocked, auto, cub_transform"));
}

TEST_CASE("comma lists split and trim", "[plan]") {
  CHECK(split_list("a, b,,c ") == std::vector<std::string>{"a", "b", "c"});
  CHECK(split_list("").empty());
  CHECK(has_empty_item("a,,b"));
  CHECK(has_empty_item("a, ,b"));
  CHECK(has_empty_item("a,"));
  CHECK(has_empty_item(",a"));
  CHECK(has_empty_item(""));
  CHECK_FALSE(has_empty_item("a, b,c "));
  CHECK_FALSE(has_empty_item("a"));
}

namespace {
/// A stand-in op of family "fam" with its own shapes for a size class (never prepared).
class FakeSumOp final : public Op {
 public:
  explicit FakeSumOp(std::string name) : name_(std::move(name)) {}
  std::string name() const override { return name_; }
  std::string family() const override { return "fam"; }
  std::string summary() const override { return "test stand-in"; }
  std::vector<Shape> shapes_for(const SizeClass& size_class) const override {
    return {{4, static_cast<std::int64_t>(size_class.shapes.size())}};
  }
  std::vector<VariantInfo> variants() const override { return {{"only", VariantRole::own, "", 2}}; }
  std::vector<DType> dtypes() const override { return {DType::f32, DType::tf32}; }
  std::string reject_shape(const Shape&) const override { return {}; }
  Traffic traffic(const Problem&) const override { return {}; }
  std::unique_ptr<Workload> prepare(const Problem&, std::uint64_t) const override { return nullptr; }

 private:
  std::string name_;
};
}  // namespace

TEST_CASE("an op family selects all its ops, each with its own shapes and dtypes", "[plan]") {
  Registry registry = all_ops();
  registry.add(std::make_unique<FakeSumOp>("fam_full"));
  registry.add(std::make_unique<FakeSumOp>("fam_inner"));
  CHECK(registry.select("fam").size() == 2);
  CHECK(registry.select("fam_inner").size() == 1);
  CHECK(registry.select("nope").empty());
  CHECK(contains(registry.names(), "fam (all fam_* ops)"));

  Selection selection;
  selection.ops = {"fam"};
  selection.size_classes = {"small"};
  selection.dtypes = {"all"};
  const Plan plan = make_plan(registry, selection);
  REQUIRE(plan.entries.size() == 4);  // 2 ops x 1 shape x 2 dtypes
  CHECK(plan.entries[0].op->name() == "fam_full");
  CHECK(plan.entries[0].problem.shape == Shape{4, 2});  // small has two elementwise shapes
  CHECK(plan.entries[1].problem.dtype == DType::tf32);

  selection.ops = {"add"};
  selection.dtypes = {"tf32"};
  CHECK(contains(plan_error(registry, selection), "op 'add' does not support dtype tf32"));
}

namespace {
/// A stand-in op whose second variant runs fp16 only.
class FakeMixedOp final : public Op {
 public:
  std::string name() const override { return "mixed"; }
  std::string summary() const override { return "test stand-in"; }
  std::vector<VariantInfo> variants() const override {
    return {{"simt", VariantRole::own, ""}, {"tensor", VariantRole::own, "", 1, {DType::f16}}};
  }
  std::vector<DType> dtypes() const override { return {DType::f32, DType::f16}; }
  std::string reject_shape(const Shape&) const override { return {}; }
  Traffic traffic(const Problem&) const override { return {}; }
  std::unique_ptr<Workload> prepare(const Problem&, std::uint64_t) const override { return nullptr; }
};
}  // namespace

TEST_CASE("variants that do not run a dtype stay out of its problems", "[plan]") {
  Registry registry;
  registry.add(std::make_unique<FakeMixedOp>());
  Selection selection;
  selection.ops = {"mixed"};
  selection.shapes = {{8}};
  selection.dtypes = {"all"};
  const Plan plan = make_plan(registry, selection);
  REQUIRE(plan.entries.size() == 2);
  CHECK(plan.entries[0].variants == std::vector<std::size_t>{0});     // fp32: simt only
  CHECK(plan.entries[1].variants == std::vector<std::size_t>{0, 1});  // fp16: both
  selection.dtypes = {"fp32"};
  selection.variants = {"tensor"};
  CHECK(contains(plan_error(registry, selection), "variant 'tensor' of op 'mixed' does not run fp32; it runs fp16"));
}

TEST_CASE("a selection of more cases than max_cases is refused", "[plan]") {
  const Registry registry = all_ops();
  Selection selection;
  selection.ops = {"add"};
  selection.size_classes = {"all"};  // 7 cases
  selection.max_cases = 7;
  CHECK(plan_error(registry, selection) == "no error");
  selection.max_cases = 6;
  CHECK(plan_error(registry, selection) ==
        "the selection plans more than 6 cases (op x shape x dtype), the --max-cases limit: narrow it with --op, --size, "
        "--shape or --dtype, or raise --max-cases");
  CHECK(Selection{}.max_cases == kDefaultMaxCases);
}
