// softmax's cluster_bulk_row kernel, and `auto` where it takes it, against the CPU reference
// through the workload's verification (guard bytes, poisoned outputs, two input sets), in fp32,
// fp16 and bf16: 1-3 rows of odd lengths (rows start at every alignment: head and tail elements in
// registers), the few-long-rows class (clusters of 16 blocks, slices up to 112 KiB), rows past what
// 16 slices hold (the grid_row fallback), and a tensor whose x and y start at the same odd offset
// (launched directly) or at different ones (no plan). First the smallest case, so that a broken
// kernel fails with a clear name.
#include "harness/device/cuda_check.hpp"
#include "harness/device/cuda_resources.hpp"
#include "kernels/softmax/softmax_kernels.hpp"
#include "kernels/softmax/softmax_reference.hpp"
#include "support/catch.hpp"
#include "support/verify_variants.hpp"

#include "kbench/ops/softmax.hpp"

#include <cmath>
#include <random>
#include <string>
#include <vector>

using namespace kbench;

namespace {

/// Verifies softmax's `names` on `shape` in every dtype, each comparing every element.
void check(const Shape& shape, const std::vector<std::string>& names, CudaStream& stream) {
  test::verify_variants(*test::all_ops().find("softmax"), shape, names, stream, element_count(shape));
}

struct GpuFigures {
  int major = 0;
  int sms = 0;
};

GpuFigures current_device() {
  int index = 0;
  GpuFigures d;
  KBENCH_CUDA_CALL(cudaGetDevice(&index));
  KBENCH_CUDA_CALL(cudaDeviceGetAttribute(&d.major, cudaDevAttrComputeCapabilityMajor, index));
  KBENCH_CUDA_CALL(cudaDeviceGetAttribute(&d.sms, cudaDevAttrMultiProcessorCount, index));
  return d;
}

}  // namespace

TEST_CASE("cluster_bulk_row, smallest case: 1 row of 7 elements, then 2 rows of 4099", "[gpu][softmax][cluster_bulk_row]") {
  CudaStream stream;
  check({1, 7}, {"cluster_bulk_row"}, stream);
  check({2, 4099}, {"cluster_bulk_row"}, stream);
}

TEST_CASE("cluster_bulk_row plans clusters of 8-16 on Hopper, none for rows past 16 slices or x and y out of phase",
          "[gpu][softmax][cluster_bulk_row]") {
  const GpuFigures d = current_device();
  DeviceBuffer x(32 * 131072 * sizeof(float) + 64), y(32 * 131072 * sizeof(float) + 64);
  const auto* xp = x.as<float>();
  auto* yp = y.as<float>();
  const softmax::ClusterRowPlan plan = softmax::plan_cluster_bulk_row(xp, yp, 32, 131072, d.sms, d.major);
  if (d.major < 9) {
    WARN("compute capability " << d.major << ": cluster_bulk_row falls back (grid_row, online), as planned");
    CHECK(plan.blocks == 0);
    return;
  }
  INFO("32 x 131072 fp32: " << plan.blocks << " blocks per row, slices of " << plan.slice_vectors * 16 << " bytes");
  CHECK((plan.blocks == 16 || plan.blocks == 8));
  CHECK(plan.slice_vectors * 16 <= softmax::kBulkSliceMost);
  CHECK(softmax::plan_cluster_bulk_row(xp + 1, yp + 1, 31, 131071, d.sms, d.major).blocks > 0);  // same phase
  CHECK(softmax::plan_cluster_bulk_row(xp + 1, yp + 2, 31, 131071, d.sms, d.major).blocks == 0);  // out of phase
  CHECK(softmax::plan_cluster_bulk_row(xp, yp, 4, 1048576, d.sms, d.major).blocks == 0);  // 4 MiB rows
}

TEST_CASE("cluster_bulk_row and auto on 1-3 rows of odd lengths", "[gpu][softmax][cluster_bulk_row]") {
  CudaStream stream;
  for (std::int64_t cols : {131071, 262147, 1048573}) {  // 1048573: past 16 slices in every dtype (grid_row)
    for (std::int64_t rows : {1, 2, 3}) check({rows, cols}, {"cluster_bulk_row", "auto"}, stream);
  }
}

TEST_CASE("cluster_bulk_row and auto on the few-long-rows class", "[gpu][softmax][cluster_bulk_row]") {
  // 917503 16-bit elements: 16 slices of 112 KiB, the largest; 64 x 131071 16-bit: 1024 blocks.
  CudaStream stream;
  for (const Shape& shape : std::vector<Shape>{{8, 262144}, {17, 262147}, {32, 131072}, {64, 131071}, {2, 917503},
                                               {5, 3, 65537}, {4, 524287}}) {
    check(shape, {"cluster_bulk_row", "auto"}, stream);
  }
}

TEST_CASE("cluster_bulk_row on x and y at the same odd offset: head and tail in registers, bodies by bulk copies",
          "[gpu][softmax][cluster_bulk_row]") {
  const GpuFigures d = current_device();
  if (d.major < 9) {
    WARN("compute capability " << d.major << ": no cluster_bulk_row plan to launch");
    return;
  }
  constexpr std::int64_t kRows = 3, kCols = 262147;
  const std::int64_t n = kRows * kCols;
  std::vector<float> host(static_cast<std::size_t>(n));
  std::mt19937 random(12345);
  std::uniform_real_distribution<float> values(-4.0f, 4.0f);
  for (float& v : host) v = values(random);
  DeviceBuffer x((n + 4) * sizeof(float)), y((n + 4) * sizeof(float));
  const float* xp = x.as<float>() + 1;  // 4 bytes past a 16-byte boundary
  float* yp = y.as<float>() + 1;
  KBENCH_CUDA_CALL(cudaMemcpy(const_cast<float*>(xp), host.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  KBENCH_CUDA_CALL(cudaMemset(y.get(), 0xFF, (n + 4) * sizeof(float)));  // NaN everywhere, guards included
  const softmax::ClusterRowPlan plan = softmax::plan_cluster_bulk_row(xp, yp, kRows, kCols, d.sms, d.major);
  REQUIRE(plan.blocks > 0);
  softmax::launch_cluster_bulk_row(xp, yp, kRows, kCols, plan, nullptr);
  KBENCH_CUDA_CALL(cudaDeviceSynchronize());
  std::vector<float> out(static_cast<std::size_t>(n + 4));
  KBENCH_CUDA_CALL(cudaMemcpy(out.data(), y.get(), out.size() * sizeof(float), cudaMemcpyDeviceToHost));
  const std::vector<double> expected = softmax::reference_softmax(host, kRows, kCols);
  std::int64_t wrong = 0, first_wrong = -1;
  for (std::int64_t i = 0; i < n; ++i) {
    const double got = out[static_cast<std::size_t>(i + 1)];
    if (!(std::fabs(got - expected[i]) <= 1e-5 * expected[i] + 1e-12)) {
      if (first_wrong < 0) first_wrong = i;
      ++wrong;
    }
  }
  INFO("first wrong element " << first_wrong << " (row " << first_wrong / kCols << ", col " << first_wrong % kCols << ")");
  CHECK(wrong == 0);
  CHECK(std::isnan(out.front()));  // the guards before and after y are untouched
  CHECK(std::isnan(out[static_cast<std::size_t>(n + 1)]));
}
