#pragma once
/// The reduction variants, each declared once beside the launchers it calls (sum_full_variants.cpp,
/// sum_rows_variants.cpp, sum_columns_variants.cpp), with the device scratch their `prepare`
/// allocates. Internal to kernels/sum: sum_ops.cpp puts them into the four op definitions.
///
/// Per-problem state (partials, ticket counters, CUB temporary storage, a cuBLAS handle) is
/// allocated by a variant's `prepare`, once per problem and outside the timed window, and is
/// owned by the call it returns. The workload keeps every variant's call for the life of the
/// problem, so the scratch bounds below add up over an op's variants.

#include "harness/device/cuda_check.hpp"
#include "harness/device/cuda_resources.hpp"
#include "harness/ops/dtype_dispatch.hpp"
#include "kernels/sum/sum_kernels.hpp"

#include "kbench/ops/reduction.hpp"
#include "kbench/variant.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace kbench::sum {

/// Calls `f(x, y)` with the args' pointers typed by their dtype.
template <typename F>
void with_typed(const ReductionArgs& args, F&& f) {
  dispatch_dtype(args.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    f(static_cast<const T*>(args.x), static_cast<T*>(args.y));
  });
}

/// More SMs than any GPU has (the largest have under 200): the launch-shape helpers return at
/// least as many blocks for it as for any real device, so scratch sized by it is an upper bound.
constexpr int kAnySmCount = 1024;

/// The one-pass kernels' ticket counters: zero before the first call, left zero by each call.
inline DeviceBuffer zeroed_tickets(std::size_t count) { return zeroed_device_buffer(count * sizeof(unsigned)); }

/// sum_full: naive_atomic, two_stage, one_pass, auto; baseline cub_reduce.
std::vector<Variant<ReductionArgs>> full_variants();
/// Upper bound of the device bytes full_variants' prepare allocate for n elements of `dtype`.
double full_scratch_bytes(std::int64_t n, DType dtype);

/// sum_inner (Reduction::sum) or max_inner (Reduction::max): naive, row_parallel, packed_rows, flat_rows,
/// ring_rows, split_row, auto; baseline cub_segmented.
std::vector<Variant<ReductionArgs>> row_variants(Reduction reduction);
/// Upper bound of the device bytes row_variants' prepare allocate for rows x cols of `dtype`.
double row_scratch_bytes(std::int64_t rows, std::int64_t cols, DType dtype);

/// sum_outer: naive, two_stage, one_pass, narrow_columns, column_walk, column_tiles, flat_columns, auto; baseline
/// cublas_gemv.
std::vector<Variant<ReductionArgs>> column_variants();
/// Upper bound of the device bytes column_variants' prepare allocate for rows x cols of `dtype`.
double column_scratch_bytes(std::int64_t rows, std::int64_t cols, DType dtype);

}  // namespace kbench::sum
