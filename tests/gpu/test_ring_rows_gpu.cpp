// The ring_rows kernels (softmax, sum_inner, max_inner; kernels/common/row_ring.*) and `auto` where
// it takes them, against the CPU reference through the workload's verification (guard bytes,
// poisoned outputs, two input sets): widths 1-1000 that are mostly not whole 16-byte vectors,
// row counts that are multiples of nothing (the tensor's last tile ends mid-vector), tensors of
// one tile, of fewer tiles than blocks, and of many tiles per block (the ring wraps around its
// slots many times). First the smallest case, so that a broken ring fails with a clear name.
#include "harness/device/cuda_check.hpp"
#include "harness/device/cuda_resources.hpp"
#include "harness/ops/registry.hpp"
#include "kernels/softmax/softmax_ring_rows.hpp"
#include "kernels/sum/sum_rows_ring.hpp"
#include "support/catch.hpp"
#include "support/verify_variants.hpp"

#include <cuda_fp16.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

using namespace kbench;

namespace {

/// Verifies op `op_name`'s `names` on `shape` in every dtype.
void check(const std::string& op_name, const Shape& shape, const std::vector<std::string>& names, CudaStream& stream) {
  test::verify_variants(*test::all_ops().find(op_name), shape, names, stream);
}

const std::vector<const char*> kOps{"softmax", "sum_inner", "max_inner"};

}  // namespace

TEST_CASE("ring_rows, smallest case: 3 rows of 7 elements, one ragged tile", "[gpu][ring_rows]") {
  CudaStream stream;
  for (const char* op : kOps) check(op, {3, 7}, {"ring_rows"}, stream);
}

TEST_CASE("ring_rows runs its own kernel on Hopper (the plan is not the fallback)", "[gpu][ring_rows]") {
  int device = 0, major = 0, sms = 0;
  KBENCH_CUDA_CALL(cudaGetDevice(&device));
  KBENCH_CUDA_CALL(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  KBENCH_CUDA_CALL(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  DeviceBuffer x(4099 * 7 * sizeof(__half)), y(4099 * 7 * sizeof(__half));
  const auto* xp = x.as<__half>();
  auto* yp = y.as<__half>();
  const auto softmax_plan = softmax::plan_ring_rows(xp, yp, 4099, 7, sms, major);
  const auto sum_plan = sum::plan_rows_ring(xp, 4099, 7, sum::Reduction::max, sms, major);
  if (major < 9) {
    WARN("compute capability " << major << ": ring_rows falls back (short_rows, flat_rows), as planned");
    CHECK(softmax_plan.shape.blocks == 0);
    CHECK(sum_plan.shape.blocks == 0);
    return;
  }
  CHECK(softmax_plan.shape.blocks > 0);
  CHECK(sum_plan.shape.blocks > 0);
  CHECK(softmax::plan_ring_rows(xp + 1, yp + 1, 4098, 7, sms, major).shape.blocks == 0);  // unaligned: fallback
}

TEST_CASE("ring_rows matches the reference on every width class, odd row counts", "[gpu][ring_rows]") {
  CudaStream stream;
  const std::vector<std::int64_t> widths{1, 2, 3, 5, 7, 31, 33, 61, 100, 127, 129, 257, 1000};
  const std::vector<std::int64_t> row_counts{1, 9, 4099, 65537};
  for (const char* op : kOps) {
    for (std::int64_t cols : widths) {
      for (std::int64_t rows : row_counts) {
        if (rows * cols > 16 * 1024 * 1024) continue;  // 65537 rows of 257 and 1000: the next test's sizes
        check(op, {rows, cols}, {"ring_rows", "auto"}, stream);
      }
    }
  }
}

TEST_CASE("ring_rows wraps its ring many times: many tiles per block, 3-D, the zoo's classes", "[gpu][ring_rows]") {
  CudaStream stream;
  // 524309 x 33: 8448 fp32 tiles, 16 per block of 528; 2097151 x 7 fp16: 7 per block.
  const std::vector<Shape> shapes{{524309, 33}, {2097151, 7}, {262147, 61}, {65537, 100},
                                  {3, 4099, 127}, {65537, 129}, {4194301, 5}, {16411, 1023}};
  for (const char* op : kOps) {
    for (const Shape& shape : shapes) check(op, shape, {"ring_rows", "auto"}, stream);
  }
}
