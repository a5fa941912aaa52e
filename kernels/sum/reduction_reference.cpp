#include "kernels/sum/reduction_reference.hpp"

#include "harness/common/host_memory.hpp"
#include "harness/common/parallel_for.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace kbench::sum {

namespace {
/// Elements per chunk of the host loops (parallel_for).
constexpr std::int64_t kGrain = 1 << 16;
}  // namespace

ReductionReference reference_full(const std::vector<float>& x) {
  // Partial sums of fixed chunks, added in chunk order: the same value on any thread count (in
  // float64, within a few ulps of the one-by-one sum).
  const auto count = static_cast<std::int64_t>(x.size());
  std::vector<double> sums(static_cast<std::size_t>(chunk_count(count, kGrain))), magnitudes(sums.size());
  parallel_for(count, kGrain, [&](std::int64_t begin, std::int64_t end) {
    double sum = 0, magnitude = 0;
    for (std::int64_t i = begin; i < end; ++i) {
      sum += x[static_cast<std::size_t>(i)];
      magnitude += std::fabs(x[static_cast<std::size_t>(i)]);
    }
    sums[static_cast<std::size_t>(begin / kGrain)] = sum;
    magnitudes[static_cast<std::size_t>(begin / kGrain)] = magnitude;
  });
  double sum = 0, magnitude = 0;
  for (std::size_t c = 0; c < sums.size(); ++c) {
    sum += sums[c];
    magnitude += magnitudes[c];
  }
  return {{sum}, {magnitude}};
}

ReductionReference reference_rows(const std::vector<float>& x, std::int64_t rows, std::int64_t cols, Reduction reduction) {
  ReductionReference ref;
  resize_prefaulted(ref.values, static_cast<std::size_t>(rows));
  resize_prefaulted(ref.scale, static_cast<std::size_t>(rows));
  // Rows on several threads, each row as before: the same values on any thread count.
  parallel_for(rows, std::max<std::int64_t>(1, kGrain / std::max<std::int64_t>(cols, 1)), [&](std::int64_t first, std::int64_t last) {
    for (std::int64_t r = first; r < last; ++r) {
      const float* row = x.data() + r * cols;
      // The max drops NaN as the kernels' fmaxf does (std::max would keep or drop it by order).
      double value = reduction == Reduction::sum ? 0.0 : -std::numeric_limits<double>::infinity();
      double magnitude = 0;
      for (std::int64_t c = 0; c < cols; ++c) {
        value = reduction == Reduction::sum ? value + row[c] : std::fmax(value, row[c]);
        magnitude += std::fabs(row[c]);
      }
      ref.values[r] = value;
      ref.scale[r] = magnitude;
    }
  });
  return ref;
}

ReductionReference reference_columns(const std::vector<float>& x, std::int64_t rows, std::int64_t cols) {
  ReductionReference ref;
  assign_zeros_prefaulted(ref.values, static_cast<std::size_t>(cols));
  assign_zeros_prefaulted(ref.scale, static_cast<std::size_t>(cols));
  // Strips of columns on several threads, each column summed down its rows as before.
  parallel_for(cols, 256, [&](std::int64_t first, std::int64_t last) {
    for (std::int64_t r = 0; r < rows; ++r) {
      const float* row = x.data() + r * cols;
      for (std::int64_t c = first; c < last; ++c) {
        ref.values[c] += row[c];
        ref.scale[c] += std::fabs(row[c]);
      }
    }
  });
  return ref;
}

Tolerance reduction_tolerance(DType dtype, Reduction reduction) {
  if (reduction == Reduction::max) return {0, 0, 0};  // the maximum is one of the inputs, exactly
  // fp32 accumulation in any order stays far below 1e-5 of the sum of |x| for these sizes; the
  // result is then rounded once to the output dtype (half an ulp: 2^-24, 2^-11, 2^-8).
  switch (dtype) {
    case DType::f16: return {0, 1e-3, 1e-5};
    case DType::bf16: return {0, 8e-3, 1e-5};
    default: return {0, 1e-6, 1e-5};
  }
}

}  // namespace kbench::sum
