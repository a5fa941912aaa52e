#include "harness/plan.hpp"
#include "support/catch.hpp"

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
  CHECK(plan.row_count() == 7 * 4);                    // naive, vectorized, cub, d2d copy
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
  CHECK(contains(plan_error(registry, selection), "unknown dtype 'fp64'; valid: fp32, fp16, bf16, all"));
  selection.dtypes = {};
  selection.variants = {"fast"};
  CHECK(contains(plan_error(registry, selection), "unknown variant 'fast'; valid: add: naive, vectorized, cub_transform"));
}

TEST_CASE("comma lists split and trim", "[plan]") {
  CHECK(split_list("a, b,,c ") == std::vector<std::string>{"a", "b", "c"});
  CHECK(split_list("").empty());
}
