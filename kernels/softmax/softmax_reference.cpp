#include "kernels/softmax/softmax_reference.hpp"

#include "harness/common/host_memory.hpp"
#include "harness/common/parallel_for.hpp"

#include <algorithm>
#include <cmath>

namespace kbench::softmax {

std::vector<double> reference_softmax(const std::vector<float>& x, std::int64_t rows, std::int64_t cols) {
  std::vector<double> y;
  resize_prefaulted(y, x.size());
  const auto n = static_cast<std::size_t>(cols);
  // Rows on several threads, each row as before: the same values on any thread count.
  parallel_for(rows, std::max<std::int64_t>(1, (1 << 16) / std::max<std::int64_t>(cols, 1)), [&](std::int64_t first, std::int64_t last) {
    for (std::int64_t r = first; r < last; ++r) {
      const std::size_t begin = static_cast<std::size_t>(r) * n;
      const double row_max = *std::max_element(x.begin() + static_cast<std::ptrdiff_t>(begin),
                                               x.begin() + static_cast<std::ptrdiff_t>(begin + n));
      double sum = 0;
      for (std::size_t i = begin; i < begin + n; ++i) {
        y[i] = std::exp(static_cast<double>(x[i]) - row_max);
        sum += y[i];
      }
      for (std::size_t i = begin; i < begin + n; ++i) y[i] /= sum;
    }
  });
  return y;
}

// The manual chain's error budget, per element, relative (u: the dtype's unit roundoff, 2^-11
// for fp16, 2^-8 for bf16; inputs in [-4, 4), so 0 >= x - max > -8):
//   x - max rounded to the dtype: in [4, 8) the spacing is 8u, so the exponent moves by up to
//     4u and e^(x - max) by a relative 4u (fp16 2.0e-3, bf16 1.6e-2);
//   e^(x - max) rounded: u; the quotient rounded on store: u;
//   the row sum: dominated by the elements near the maximum, whose x - max is small and exactly
//     or nearly exactly representable, so it adds well under u for any row longer than a few.
// About 6u to 7u in all: fp16 3.4e-3, bf16 2.7e-2. A simulation of the chain on 2M random rows
// (widths 7 to 65537) reached 2.8e-3 (fp16) and 2.3e-2 (bf16), both at width 7. The tolerance
// below allows about 12u (fp16 6e-3, bf16 4e-2): still 25x (fp16) and 3.5x (bf16) tighter than
// the error of 1 in 7 that a dropped or doubled element of a 7-wide row makes. fp32 rounds x - max
// to 2^-24 relative, so the chain meets the standard fp32 tolerance.
Tolerance manual_softmax_tolerance(DType dtype) {
  switch (dtype) {
    case DType::f16: return {1e-6, 6e-3};
    case DType::bf16: return {1e-6, 4e-2};
    case DType::f32:
    case DType::tf32: break;
  }
  return fp32_math_tolerance(dtype);
}

}  // namespace kbench::softmax
