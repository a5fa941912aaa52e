// The elementwise ops' `auto` heuristic (kernels/common/elementwise_auto.hpp): blocked where its
// grid has a block per two SMs and the pointers are 16-byte aligned, else one element per thread.
#include "kernels/common/elementwise_auto.hpp"
#include "support/catch.hpp"

using namespace kbench::elementwise;

TEST_CASE("the blocked kernels' grid: one block per 256 x 4 whole 16-byte vectors, at least one", "[auto][elementwise]") {
  CHECK(blocked_blocks(4096, 4) == 1);      // 1024 fp32 vectors: one tile
  CHECK(blocked_blocks(4097, 4) == 1);      // the scalar tail rides in block 0
  CHECK(blocked_blocks(4100, 4) == 2);      // one whole vector more
  CHECK(blocked_blocks(8192, 2) == 1);      // 1024 fp16 vectors
  CHECK(blocked_blocks(8200, 2) == 2);
  CHECK(blocked_blocks(3, 4) == 1);         // no whole vector at all
  CHECK(blocked_blocks(65536, 4) == 16);    // 256^2 fp32: 16 blocks
  CHECK(blocked_blocks(268435456, 4) == 65536);
}

TEST_CASE("auto takes blocked once its grid has a block per two SMs, and only on aligned pointers", "[auto][elementwise]") {
  const int h100_sms = 132;
  CHECK_FALSE(auto_takes_blocked(65536, 4, h100_sms, true));   // 256^2 fp32: 16 blocks, naive measured faster
  CHECK_FALSE(auto_takes_blocked(262144, 4, h100_sms, true));  // 512^2 fp32: 64 blocks
  CHECK(auto_takes_blocked(65 * 4096 + 4, 4, h100_sms, true));     // 66 blocks: one per two SMs
  CHECK_FALSE(auto_takes_blocked(65 * 4096 + 3, 4, h100_sms, true)); // 65 whole tiles, the rest a scalar tail
  CHECK(auto_takes_blocked(1000003, 4, h100_sms, true));       // the zoo's 1M cases: 245 blocks in fp32
  CHECK(auto_takes_blocked(1000003, 2, h100_sms, true));       // and 123 in 16-bit
  CHECK(auto_takes_blocked(268435456, 2, h100_sms, true));
  CHECK_FALSE(auto_takes_blocked(268435456, 4, h100_sms, false));  // misaligned: never vector loads
  CHECK(auto_takes_blocked(65536, 4, 32, true));               // a small device is covered sooner
}
