// softmax's thread_rows kernel (a thread per 16-bit row, two past 32 columns, through ring_rows'
// bulk-copy ring) and `auto`, against the CPU reference through the workload's verification
// (guard bytes, poisoned outputs, two input sets): every width it takes (1-64: rows that start on
// a word and halfway into one, one part or two), row counts that leave the last tile ragged or
// one row long, tensors of one tile and of many tiles per block. fp32 runs ring_rows, its fallback.
#include "harness/device/cuda_check.hpp"
#include "harness/device/cuda_resources.hpp"
#include "harness/ops/registry.hpp"
#include "kernels/softmax/softmax_thread_rows.hpp"
#include "support/catch.hpp"
#include "support/verify_variants.hpp"

#include <cuda_fp16.h>

#include <string>
#include <vector>

using namespace kbench;

namespace {

void check(const Shape& shape, CudaStream& stream) {
  test::verify_variants(*test::all_ops().find("softmax"), shape, {"thread_rows", "auto"}, stream);
}

}  // namespace

TEST_CASE("thread_rows, smallest case: 3 rows of 17 elements, one ragged tile", "[gpu][thread_rows]") {
  CudaStream stream;
  check({3, 17}, stream);
}

TEST_CASE("thread_rows runs its own kernel on Hopper where its class is (the plan is not the fallback)",
          "[gpu][thread_rows]") {
  int device = 0, major = 0, sms = 0;
  KBENCH_CUDA_CALL(cudaGetDevice(&device));
  KBENCH_CUDA_CALL(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  KBENCH_CUDA_CALL(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  DeviceBuffer x(4099 * 65 * sizeof(float)), y(4099 * 65 * sizeof(float));
  const auto* xp = x.as<__half>();
  auto* yp = y.as<__half>();
  const auto plan = softmax::plan_thread_rows(xp, yp, 4099, 19, sms, major);
  if (major < 9) {
    WARN("compute capability " << major << ": thread_rows falls back to ring_rows, as planned");
    CHECK(plan.shape.blocks == 0);
    return;
  }
  CHECK(plan.shape.blocks > 0);
  CHECK(plan.shape.rows_per_tile == 256);
  CHECK(softmax::plan_thread_rows(xp, yp, 4099, 64, sms, major).shape.rows_per_tile == 128);
  CHECK(softmax::plan_thread_rows(xp + 1, yp + 1, 4098, 19, sms, major).shape.blocks == 0);  // unaligned
  CHECK(softmax::plan_thread_rows(xp, yp, 4099, 65, sms, major).shape.blocks == 0);          // past 64 columns
  CHECK(softmax::plan_thread_rows(x.as<float>(), y.as<float>(), 4099, 19, sms, major).shape.blocks == 0);
}

TEST_CASE("thread_rows matches the reference at every width 1-64, ragged and one-row tiles", "[gpu][thread_rows]") {
  CudaStream stream;
  for (std::int64_t cols = 1; cols <= softmax::kThreadRowsMaxCols; ++cols) {
    for (std::int64_t rows : {1, 257, 4099}) check({rows, cols}, stream);
  }
}

TEST_CASE("thread_rows wraps its ring many times: many tiles per block, 3-D, the class's large tensors",
          "[gpu][thread_rows]") {
  CudaStream stream;
  const std::vector<Shape> shapes{{2000003, 17}, {1692154, 19}, {1000003, 33}, {524287, 47},
                                  {262147, 61},  {3, 4099, 23}, {65537, 64},   {1048573, 30},
                                  // tiles of several block rounds (rows under 32 bytes), the ring wrapping
                                  {1000003, 7},  {300007, 13}};
  for (const Shape& shape : shapes) check(shape, stream);
}
