#include "harness/plan/config_plan.hpp"
#include "harness/common/json_input.hpp"
#include "support/catch.hpp"
#include "support/test_paths.hpp"

#include <algorithm>

using namespace kbench;
using nlohmann::json;

namespace {

Registry all_ops() {
  Registry registry;
  register_all_ops(registry);
  return registry;
}

SweepConfig parse(const std::string& text) { return parse_sweep_config(json::parse(text), "test.json"); }

const char* const kTwoSweeps = R"({
  "dtypes": ["fp32", "fp16"],
  "sweeps": [
    {"op": "add", "size_class": "small", "shape": ["N", "N"], "axes": {"N": [256, 512]}},
    {"op": "add", "size_class": "large", "shape": [4096, 4096], "variants": ["vectorized"]}
  ]
})";

/// The message of whatever make_config_plan throws, or "no error".
std::string plan_error(const SweepConfig& config, const Selection& filters = {}) {
  try {
    make_config_plan(all_ops(), config, filters);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "no error";
}

std::vector<std::string> variant_names(const PlanEntry& entry) {
  std::vector<std::string> names;
  for (std::size_t i : entry.variants) names.push_back(entry.op->variants()[i].name);
  return names;
}

}  // namespace

TEST_CASE("a config plans its sweeps in order, shapes outermost, dtypes inside", "[config_plan]") {
  const Registry registry = all_ops();
  const Plan plan = make_config_plan(registry, parse(kTwoSweeps), {});
  REQUIRE(plan.entries.size() == 6);
  CHECK(plan.entries[0].problem.shape == Shape{256, 256});
  CHECK(plan.entries[0].problem.dtype == DType::f32);
  CHECK(plan.entries[1].problem.dtype == DType::f16);
  CHECK(plan.entries[2].problem.shape == Shape{512, 512});
  CHECK(plan.entries[4].problem.size_class == "large");
  CHECK(variant_names(plan.entries[0]) == std::vector<std::string>{"naive", "vectorized", "blocked", "auto", "cub_transform"});
  CHECK(variant_names(plan.entries[4]) == std::vector<std::string>{"vectorized", "cub_transform"});  // + baseline
  CHECK(plan.entries[4].copy_roof);
  CHECK(plan.row_count() == 4 * 6 + 2 * 3);
  CHECK(plan.skipped.empty());
}

TEST_CASE("--op, --size, --dtype and --variant filter within a config", "[config_plan]") {
  const Registry registry = all_ops();
  Selection filters;
  filters.size_classes = {"small"};
  filters.dtypes = {"half"};
  Plan plan = make_config_plan(registry, parse(kTwoSweeps), filters);
  REQUIRE(plan.entries.size() == 2);
  CHECK(plan.entries[0].problem.dtype == DType::f16);

  filters = {};
  filters.variants = {"naive"};
  filters.with_references = false;
  plan = make_config_plan(registry, parse(kTwoSweeps), filters);
  REQUIRE(plan.entries.size() == 4);  // the large sweep runs vectorized only: nothing left of it
  CHECK(variant_names(plan.entries[0]) == std::vector<std::string>{"naive"});
  CHECK_FALSE(plan.entries[0].copy_roof);

  filters = {};
  filters.ops = {"add"};
  filters.dtypes = {"all"};
  CHECK(make_config_plan(registry, parse(kTwoSweeps), filters).entries.size() == 6);
}

TEST_CASE("filters that select nothing the config holds are errors", "[config_plan]") {
  const SweepConfig config = parse(kTwoSweeps);
  Selection filters;
  filters.size_classes = {"huge"};
  CHECK(contains(plan_error(config, filters), "--size huge: test.json has no size class 'huge'; its size classes: small, large"));
  filters = {};
  filters.ops = {"ad"};
  CHECK(contains(plan_error(config, filters), "--op ad: test.json has no op 'ad' (did you mean 'add'?); its ops: add"));
  filters = {};
  filters.variants = {"vectorised"};
  CHECK(contains(plan_error(config, filters), "--variant vectorised: test.json has no variant 'vectorised' (did you mean 'vectorized'?)"));
  filters = {};
  filters.dtypes = {"fp64"};
  CHECK(contains(plan_error(config, filters), "unknown dtype 'fp64'"));
  filters = {};
  filters.dtypes = {"bf16"};
  CHECK(contains(plan_error(config, filters), "no case of test.json passes the --op/--size/--dtype/--variant filters"));
}

TEST_CASE("unknown ops and variants are named with their JSON path", "[config_plan]") {
  CHECK(contains(plan_error(parse(R"({"sweeps": [{"op": "sum", "size_class": "s", "shape": [4]}]})")),
                 "test.json: $.sweeps[0].op: found \"sum\"; expected a registered op: add"));
  CHECK(contains(plan_error(parse(R"({"sweeps": [{"op": "ad", "size_class": "s", "shape": [4]}]})")),
                 "found \"ad\" (did you mean 'add'?)"));
  CHECK(contains(plan_error(parse(R"({"sweeps": [{"op": "add", "size_class": "s", "shape": [4], "variants": ["naive", "fast"]}]})")),
                 "test.json: $.sweeps[0].variants[1]: found \"fast\"; expected a variant of add: naive, vectorized, blocked, auto, cub_transform, d2d_copy"));
}

TEST_CASE("a shape of the wrong rank for its op is named at the sweep's shape", "[config_plan]") {
  CHECK(contains(plan_error(parse(R"({"sweeps": [{"op": "matmul", "size_class": "small", "shape": [64, 64]}]})")),
                 "test.json: $.sweeps[0].shape: op 'matmul' cannot run shape 64x64: matmul needs a rank-3 shape MxNxK"));
  CHECK(contains(plan_error(parse(R"({"sweeps": [{"op": "matmul", "size_class": "small", "shape": [2, 4, 4, 4]}]})")),
                 "got rank 4"));
  CHECK(contains(plan_error(parse(R"({"sweeps": [{"op": "sum_outer", "size_class": "small", "shape": ["N"], "axes": {"N": [8]}}]})")),
                 "test.json: $.sweeps[0].shape: op 'sum_outer' cannot run shape 8: sum_outer reduces every axis but the last"));
  CHECK(plan_error(parse(R"({"sweeps": [{"op": "matmul", "size_class": "small", "shape": [64, 64, 64]}]})")) == "no error");
}

TEST_CASE("skips that name nothing the sweeps hold are errors", "[config_plan]") {
  const std::string sweeps = R"({"dtypes": ["fp32", "fp16"], "sweeps": [{"op": "add", "size_class": "small", "shape": [64]}], )";
  CHECK(contains(plan_error(parse(sweeps + R"("skip": [{"op": "ad", "reason": "r"}]})")),
                 "test.json: $.skip[0].op: found \"ad\" (did you mean 'add'?); expected an op of the config's sweeps: add"));
  CHECK(contains(plan_error(parse(sweeps + R"("skip": [{"size_class": "large", "reason": "r"}]})")),
                 "test.json: $.skip[0].size_class: found \"large\"; expected a size class of the config's sweeps: small"));
  CHECK(contains(plan_error(parse(sweeps + R"("skip": [{"dtype": "bf16", "reason": "r"}]})")),
                 "$.skip[0].dtype: found \"bf16\" (did you mean 'fp16'?); expected a dtype of the config's sweeps: fp32, fp16"));
  CHECK(contains(plan_error(parse(sweeps + R"("skip": [{"variant": "naiv", "reason": "r"}]})")),
                 "$.skip[0].variant: found \"naiv\" (did you mean 'naive'?); expected a variant of the config's ops: naive, "
                 "vectorized, blocked, auto, cub_transform, d2d_copy"));
  CHECK(contains(plan_error(parse(sweeps + R"("skip": [{"shape": [65], "reason": "r"}]})")),
                 "$.skip[0].shape: found 65; expected a shape one of the config's sweeps expands to"));
  CHECK(plan_error(parse(sweeps + R"("skip": [{"variant": "d2d_copy", "shape": [64], "reason": "r"}]})")) == "no error");
}

TEST_CASE("more cases than --max-cases is an error naming the config", "[config_plan]") {
  const SweepConfig config = parse(kTwoSweeps);  // 6 cases
  Selection filters;
  filters.max_cases = 6;
  CHECK(plan_error(config, filters) == "no error");
  filters.max_cases = 5;
  CHECK(plan_error(config, filters) ==
        "test.json: plans more than 5 cases (op x shape x dtype), the --max-cases limit: narrow it with --op, --size or "
        "--dtype, or raise --max-cases");
  filters.size_classes = {"small"};  // 4 cases pass the filter
  CHECK(plan_error(config, filters) == "no error");
}

TEST_CASE("a case planned twice is an error naming both sweeps", "[config_plan]") {
  const SweepConfig config = parse(R"({"sweeps": [
    {"op": "add", "size_class": "a", "shape": [4]},
    {"op": "add", "size_class": "b", "shape": ["N"], "axes": {"N": [2, 4]}}]})");
  CHECK(contains(plan_error(config), "test.json: $.sweeps[1]: case add fp32 4 is already planned by test.json: $.sweeps[0]"));
}

TEST_CASE("skips move whole cases or single rows to plan.skipped", "[config_plan]") {
  const SweepConfig config = parse(R"({
    "dtypes": ["fp32", "fp16"],
    "sweeps": [{"op": "add", "size_class": "small", "shape": ["N"], "axes": {"N": [64, 128]}}],
    "skip": [
      {"shape": [128], "dtype": "fp16", "reason": "whole case"},
      {"variant": "naive", "dtype": "fp16", "reason": "naive fp16"},
      {"variant": "d2d_copy", "shape": [64], "dtype": "fp32", "reason": "no roof"}
    ]})");
  const Registry registry = all_ops();
  const Plan plan = make_config_plan(registry, config, {});
  REQUIRE(plan.entries.size() == 3);
  CHECK_FALSE(plan.entries[0].copy_roof);                                   // 64 fp32: roof skipped
  CHECK(variant_names(plan.entries[1]) == std::vector<std::string>{"vectorized", "blocked", "auto", "cub_transform"});  // 64 fp16
  REQUIRE(plan.skipped.size() == 3);
  CHECK(plan.skipped[0].reason == "no roof");
  CHECK(plan.skipped[0].entry.copy_roof);
  CHECK(plan.skipped[0].entry.variants.empty());
  CHECK(plan.skipped[1].reason == "naive fp16");
  CHECK(variant_names(plan.skipped[1].entry) == std::vector<std::string>{"naive"});
  CHECK(plan.skipped[2].reason == "whole case");
  CHECK(plan.skipped[2].entry.problem.shape == Shape{128});
  CHECK(plan.skipped_row_count() == 1 + 1 + 6);
  CHECK(plan.row_count() == 5 + 5 + 6);
}

TEST_CASE("the shipped configs plan without errors; all.json covers every registered op", "[config_plan]") {
  const Registry registry = all_ops();
  const Plan add = make_config_plan(registry, load_sweep_config(test::source_path("configs/add.json")), {});
  CHECK(add.entries.size() == 21);
  CHECK(add.row_count() == 126);  // 21 problems x (naive, vectorized, blocked, auto, CUB, roof)
  const Plan all = make_config_plan(registry, load_sweep_config(test::source_path("configs/all.json")), {});
  for (const auto& op : registry.ops()) {
    const bool covered = std::any_of(all.entries.begin(), all.entries.end(),
                                     [&](const PlanEntry& entry) { return entry.op == op.get(); });
    INFO(op->name());
    CHECK(covered);
  }
}

namespace {
/// A plan-only op of a family (never prepared): stands for ops such as sum_full / sum_inner.
class FamilyOp final : public Op {
 public:
  explicit FamilyOp(std::string name) : name_(std::move(name)) {}
  std::string name() const override { return name_; }
  std::string family() const override { return "fam"; }
  std::string summary() const override { return "test op"; }
  std::vector<VariantInfo> variants() const override {
    VariantInfo only;
    only.name = "only";
    only.description = "test";
    return {only};
  }
  std::vector<DType> dtypes() const override { return {DType::f32}; }
  std::string reject_shape(const Shape&) const override { return {}; }
  Traffic traffic(const Problem&) const override { return {}; }
  std::unique_ptr<Workload> prepare(const Problem&, std::uint64_t) const override { return nullptr; }

 private:
  std::string name_;
};
}  // namespace

TEST_CASE("--op filters a config by op name or op family", "[config_plan]") {
  Registry registry;
  registry.add(std::make_unique<FamilyOp>("fam_a"));
  registry.add(std::make_unique<FamilyOp>("fam_b"));
  register_all_ops(registry);
  const SweepConfig config = parse(R"({"sweeps": [
    {"op": "fam_a", "size_class": "s", "shape": [4]},
    {"op": "fam_b", "size_class": "s", "shape": [4]},
    {"op": "add", "size_class": "s", "shape": [4]}]})");
  Selection filters;
  filters.ops = {"fam"};
  const Plan family = make_config_plan(registry, config, filters);
  REQUIRE(family.entries.size() == 2);
  CHECK(family.entries[1].op->name() == "fam_b");
  filters.ops = {"fam_a", "add"};
  CHECK(make_config_plan(registry, config, filters).entries.size() == 2);
}
