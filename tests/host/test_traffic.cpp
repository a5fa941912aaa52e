#include "harness/ops/registry.hpp"
#include "harness/config/size_classes.hpp"
#include "support/catch.hpp"

using namespace kbench;

TEST_CASE("add moves two inputs and one output in its own dtype", "[traffic]") {
  Registry registry;
  register_all_ops(registry);
  const Op* add = registry.find("add");
  REQUIRE(add != nullptr);

  const Traffic fp32 = add->traffic({{4096, 4096}, DType::f32, "large"});
  CHECK(fp32.bytes_read == 2.0 * 4096 * 4096 * 4);
  CHECK(fp32.bytes_written == 4096.0 * 4096 * 4);
  CHECK(fp32.flops == 4096.0 * 4096);

  const Traffic fp16 = add->traffic({{4096, 4096}, DType::f16, "large"});
  CHECK(fp16.bytes_total() == 3.0 * 4096 * 4096 * 2);
  const Traffic bf16 = add->traffic({{16, 1024, 1024}, DType::bf16, "batch"});
  CHECK(bf16.bytes_total() == fp16.bytes_total());

  const Traffic odd = add->traffic({{1031}, DType::f32, "custom"});
  CHECK(odd.bytes_total() == 3.0 * 1031 * 4);
}

TEST_CASE("reductions read their input once and write one value per output", "[traffic]") {
  Registry registry;
  register_all_ops(registry);
  const Problem seed_shape{{4, 512, 896}, DType::f16, "batch"};
  const double n = 4.0 * 512 * 896;
  CHECK(registry.find("sum_full")->traffic(seed_shape).bytes_total() == n * 2 + 2);
  CHECK(registry.find("sum_inner")->traffic(seed_shape).bytes_written == 4.0 * 512 * 2);
  CHECK(registry.find("max_inner")->traffic(seed_shape).bytes_read == n * 2);
  CHECK(registry.find("sum_outer")->traffic(seed_shape).bytes_written == 896.0 * 2);
  CHECK(registry.select("sum").size() == 4);
  CHECK_FALSE(registry.find("sum_outer")->reject_shape({1031}).empty());
  const SizeClass& batch = *find_size_class("batch");
  CHECK(registry.find("sum_inner")->shapes_for(batch).front() == Shape{4, 512, 896});
}
