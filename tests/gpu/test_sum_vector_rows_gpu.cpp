// sum_inner's and max_inner's vector_rows kernel, and `auto` where it takes it, against the CPU
// reference through the workload's verification (guard bytes, poisoned outputs, two input sets;
// every output element compared), in fp32, fp16 and bf16: every width of its class (16-bit 1-15,
// fp32 1-7 columns, whole-vector rows included), row counts below one group of R rows (the tail
// alone), one group and a tail, warp tiles that end mid-tile, ranks 1 and 3, widths past the class;
// tensors that are not 16-byte aligned (the naive fallback) through the launcher itself. First the
// smallest case, so that a broken kernel fails with a clear name.
#include "harness/device/cuda_check.hpp"
#include "harness/device/cuda_resources.hpp"
#include "harness/ops/host_tensor.hpp"
#include "harness/ops/problem.hpp"
#include "kernels/sum/reduction_reference.hpp"
#include "kernels/sum/sum_kernels.hpp"
#include "support/catch.hpp"
#include "support/row_reduction_check.hpp"
#include "support/verify_variants.hpp"

#include "kbench/ops/reduction.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

using namespace kbench;

namespace {

/// Verifies `names` of sum_inner and max_inner on `shape` in every dtype, each comparing every row.
void check(const Shape& shape, const std::vector<std::string>& names, CudaStream& stream) {
  const std::int64_t rows = element_count(shape) / shape.back();
  for (const char* op : {"sum_inner", "max_inner"}) {
    test::verify_variants(*test::all_ops().find(op), shape, names, stream, rows);
  }
}

/// launch_rows_vector on `in` and `out` that start `in_offset` / `out_offset` elements past a
/// 16-byte boundary (the workload's buffers are always aligned), out poisoned with NaN bits first:
/// every row must match the reference.
template <typename T>
void check_unaligned(DType dtype, std::int64_t rows, std::int64_t cols, int in_offset, int out_offset,
                     sum::Reduction reduction, CudaStream& stream) {
  const std::uint64_t seed = test::fresh_seed();
  INFO(dtype_name(dtype) << " " << rows << " x " << cols << (reduction == sum::Reduction::max ? " max" : " sum")
                         << ", in at element offset " << in_offset << ", out at " << out_offset << ", seed " << seed);
  const auto n = static_cast<std::size_t>(rows * cols);
  const HostTensor x = random_tensor(dtype, n, seed);
  DeviceBuffer in((n + 8) * sizeof(T)), out((static_cast<std::size_t>(rows) + 8) * sizeof(T));
  upload(in.as<T>() + in_offset, x.bytes.data(), x.bytes.size());
  KBENCH_CUDA_CALL(cudaMemset(out.get(), 0xFF, out.bytes()));
  KBENCH_CUDA_CALL(cudaDeviceSynchronize());
  sum::launch_rows_vector(in.as<T>() + in_offset, out.as<T>() + out_offset, rows, cols, reduction, stream.get());
  KBENCH_CUDA_CALL(cudaStreamSynchronize(stream.get()));
  std::vector<std::uint8_t> bytes(static_cast<std::size_t>(rows) * sizeof(T));
  KBENCH_CUDA_CALL(cudaMemcpy(bytes.data(), out.as<T>() + out_offset, bytes.size(), cudaMemcpyDeviceToHost));
  CHECK(test::rows_off_reference(dtype, bytes, x.values, rows, cols, reduction) == 0);
}

}  // namespace

TEST_CASE("vector_rows_sum, smallest case: 8 rows of 3 elements (one 16-bit group of 8 rows, two fp32 groups of 4)",
          "[gpu][sum][vector_rows_sum]") {
  CudaStream stream;
  check({8, 3}, {"vector_rows"}, stream);
}

TEST_CASE("vector_rows_sum and auto on every width of the class, odd row counts", "[gpu][sum][vector_rows_sum]") {
  // Row counts: under one group (the tail alone: 1, 3, 7 rows when R is 8), one group and a tail
  // (9), warp tiles ending mid-tile and mid-group, several blocks. fp32 8-15 columns are past the
  // class (naive).
  CudaStream stream;
  for (std::int64_t cols : {1, 2, 3, 5, 7, 9, 13, 15, 4, 6, 8, 10, 11, 12, 14}) {
    for (std::int64_t rows : {1, 3, 7, 9, 257, 2053, 30011}) check({rows, cols}, {"vector_rows", "auto"}, stream);
  }
}

TEST_CASE("vector_rows_sum on large odd tensors, ranks 1 and 3, and widths past its class",
          "[gpu][sum][vector_rows_sum]") {
  CudaStream stream;
  for (const Shape& shape : std::vector<Shape>{{6000011, 2}, {4194301, 3}, {2097151, 7}, {1048573, 13}, {3000017, 5},
                                               {1000003, 1}, {524287, 8}, {262147, 4}, {7}, {3, 5, 7}, {11, 13, 15},
                                               {7, 4099, 5}, {5, 2053, 2}, {30011, 16}, {30011, 17}}) {
    check(shape, {"vector_rows", "auto"}, stream);
  }
}

TEST_CASE("vector_rows_sum on tensors that are not 16-byte aligned falls back to naive and still matches the reference",
          "[gpu][sum][vector_rows_sum]") {
  CudaStream stream;
  for (sum::Reduction reduction : {sum::Reduction::sum, sum::Reduction::max}) {
    for (std::int64_t cols : {1, 2, 3, 7, 15}) {
      for (const auto& [in_offset, out_offset] : std::vector<std::pair<int, int>>{{1, 0}, {0, 1}, {3, 3}}) {
        check_unaligned<__half>(DType::f16, 4099, cols, in_offset, out_offset, reduction, stream);
        check_unaligned<__nv_bfloat16>(DType::bf16, 4099, cols, in_offset, out_offset, reduction, stream);
        if (cols <= 7) check_unaligned<float>(DType::f32, 4099, cols, in_offset, out_offset, reduction, stream);
      }
    }
  }
}
