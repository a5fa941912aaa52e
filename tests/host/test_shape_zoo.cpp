// configs/shapes.json, the shape zoo (issue 22): what it must cover, checked on its plan.
#include "harness/plan/config_plan.hpp"
#include "harness/ops/problem.hpp"
#include "support/catch.hpp"
#include "support/test_paths.hpp"

#include <algorithm>
#include <set>
#include <string>

using namespace kbench;

namespace {

const Plan& zoo_plan() {
  static const Registry registry = [] {
    Registry r;
    register_all_ops(r);
    return r;
  }();
  static const Plan plan = make_config_plan(registry, load_sweep_config(test::source_path("configs/shapes.json")), {});
  return plan;
}

bool is_prime(std::int64_t n) {
  if (n < 2) return false;
  for (std::int64_t d = 2; d * d <= n; ++d)
    if (n % d == 0) return false;
  return true;
}

}  // namespace

TEST_CASE("the shape zoo holds at least 40 cases and every op in every dtype it runs", "[shape_zoo]") {
  const Plan& plan = zoo_plan();
  CHECK(plan.entries.size() >= 40);
  Registry registry;
  register_all_ops(registry);
  for (const auto& op : registry.ops()) {
    for (const DType dtype : op->dtypes()) {
      const bool covered = std::any_of(plan.entries.begin(), plan.entries.end(), [&](const PlanEntry& entry) {
        return entry.op->name() == op->name() && entry.problem.dtype == dtype;
      });
      INFO(op->name() << " " << dtype_name(dtype));
      CHECK(covered);
    }
  }
}

TEST_CASE("the shape zoo covers its shape classes: primes, non-multiples of 8, 1-D and 3-D, 1M to 256M elements",
          "[shape_zoo]") {
  const Plan& plan = zoo_plan();
  bool prime = false, not_multiple_of_8 = false, one_d = false, three_d = false;
  std::int64_t smallest = INT64_MAX, largest = 0;
  std::set<std::string> classes;
  for (const PlanEntry& entry : plan.entries) {
    const Shape& s = entry.problem.shape;
    classes.insert(entry.problem.size_class);
    if (entry.op->name() != "matmul") {
      one_d = one_d || s.size() == 1;
      three_d = three_d || s.size() == 3;
      smallest = std::min(smallest, element_count(s));
      largest = std::max(largest, element_count(s));
    }
    for (const std::int64_t extent : s) {
      prime = prime || (extent > 1000 && is_prime(extent));
      not_multiple_of_8 = not_multiple_of_8 || extent % 8 != 0;
    }
  }
  CHECK(prime);
  CHECK(not_multiple_of_8);
  CHECK(one_d);
  CHECK(three_d);
  CHECK(smallest >= 1000000);
  CHECK(largest == 268435456);
  for (const char* name : {"few_long_rows", "many_short_rows", "few_columns", "long_rows", "vocab_rows", "gemm_small_m",
                           "gemm_large_k", "gemm_non_square"}) {
    INFO(name);
    CHECK(classes.count(name) == 1);
  }
}

TEST_CASE("every zoo case fits an 80 GB H100 with its copy roof and the L2 flush buffer", "[shape_zoo]") {
  // The runner frees the op's buffers before the roof allocates its own; the larger of the two
  // is what must fit, beside the flush buffer (2x L2) and the allocator's slack.
  const double budget = 80e9 * 0.9;
  for (const PlanEntry& entry : zoo_plan().entries) {
    const double needed = std::max(entry.op->device_bytes(entry.problem), entry.op->traffic(entry.problem).bytes_total()) +
                          2 * 50e6 + 64.0 * (1 << 20);
    INFO(entry.op->name() << " " << format_shape(entry.problem.shape) << " needs " << needed / 1e9 << " GB");
    CHECK(needed <= budget);
  }
}
