#include "harness/device/arch_list.hpp"
#include "support/catch.hpp"

using namespace kbench;

TEST_CASE("machine code and PTX in CMAKE_CUDA_ARCHITECTURES lists", "[arch]") {
  const std::string defaults = "80-real,90-real,90-virtual";
  CHECK(has_machine_code_for(defaults, 90));
  CHECK(has_machine_code_for(defaults, 80));
  CHECK_FALSE(has_machine_code_for(defaults, 100));
  CHECK(has_ptx_for(defaults, 100));   // sm_90 PTX JIT-compiles forward
  CHECK_FALSE(has_ptx_for(defaults, 86));
  CHECK(has_machine_code_for("90", 90));
  CHECK(has_ptx_for("90", 120));
  CHECK(has_machine_code_for("90a-real", 90));
  CHECK_FALSE(has_ptx_for("90a", 100));  // arch-specific PTX does not carry forward
  CHECK(has_machine_code_for("native", 75));
}
