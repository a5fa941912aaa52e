// Host memory for a case's inputs and references (harness/common/host_ram.hpp, Op::host_bytes):
// the MemAvailable parse, the skip line, and the ops' estimates. No GPU.
#include "harness/common/host_ram.hpp"
#include "harness/ops/registry.hpp"
#include "support/catch.hpp"

#include <string>

using namespace kbench;

TEST_CASE("parse_mem_available reads MemAvailable in kB and refuses anything else", "[host_ram]") {
  const std::string meminfo =
      "MemTotal:       131072000 kB\nMemFree:         1000 kB\nMemAvailable:   65536000 kB\nBuffers: 1 kB\n";
  REQUIRE(parse_mem_available(meminfo).has_value());
  CHECK(*parse_mem_available(meminfo) == 65536000.0 * 1024.0);
  CHECK(*parse_mem_available("MemAvailable: 0 kB") == 0.0);
  CHECK_FALSE(parse_mem_available("MemTotal: 100 kB\nMemFree: 50 kB\n").has_value());  // no such line
  CHECK_FALSE(parse_mem_available("MemAvailable: lots kB\n").has_value());
  CHECK_FALSE(parse_mem_available("MemAvailable: 100 MB\n").has_value());
  CHECK_FALSE(parse_mem_available("MemAvailable: 100\n").has_value());
  CHECK_FALSE(parse_mem_available("").has_value());
  CHECK_FALSE(parse_mem_available(" MemAvailable: 100 kB\n").has_value());  // not at a line's start
}

TEST_CASE("host_memory_shortfall says both amounts in GiB where the need is larger", "[host_ram]") {
  constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
  CHECK(host_memory_shortfall(1.0 * kGiB, 2.0 * kGiB).empty());
  CHECK(host_memory_shortfall(2.0 * kGiB, 2.0 * kGiB).empty());
  CHECK(host_memory_shortfall(150.25 * kGiB, 120.0 * kGiB) ==
        "needs about 150.2 GiB of host memory for its inputs and references, 120.0 GiB available");
}

TEST_CASE("ops estimate the host memory of their inputs' two sets, float values and fp64 references",
          "[host_ram]") {
  Registry registry;
  register_all_ops(registry);
  // add fp32 of n elements: two inputs × two sets × (4 bytes + a float value), one output × (two
  // sets × values and scales of 8 bytes + its 4-byte download).
  const double n = 1000003;
  CHECK(registry.find("add")->host_bytes({{1000003}, DType::f32, "custom"}) == 2 * 2 * n * 8 + n * (32 + 4));
  // fp16 storage: 2-byte elements, the same float values and references.
  CHECK(registry.find("add")->host_bytes({{1000003}, DType::f16, "custom"}) == 2 * 2 * n * 6 + n * (32 + 2));
  // Every op says something for a real shape: the runner's check is never silently off for them.
  for (const char* op : {"add", "gelu_tanh", "sum_full", "sum_inner", "sum_outer", "softmax", "matmul"}) {
    INFO(op);
    const Shape shape = std::string(op) == "matmul" ? Shape{64, 64, 64} : Shape{64, 64};
    CHECK(registry.find(op)->host_bytes({shape, DType::f32, "custom"}) > 0);
  }
  // A 2^33-element add needs far more than a 128 GiB machine has.
  const std::string why =
      host_memory_shortfall(registry.find("add")->host_bytes({{std::int64_t{1} << 33}, DType::f32, "custom"}),
                            128.0 * 1024 * 1024 * 1024);
  CHECK(why.find("GiB of host memory") != std::string::npos);
}
