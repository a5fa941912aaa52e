// Softmax rows that hold -inf (attention masks), NaN and +inf, in every own variant and `auto`,
// against the fp64 reference with IEEE semantics, which are PyTorch's: a masked element gives
// exactly 0, a row of -inf only gives NaN, a row holding NaN or +inf gives NaN. The masks are laid
// so that whole threads, warps, blocks and cluster slices see -inf only: the stretch a kernel's
// partial (max, sum) state covers must not turn a masked stretch into NaN. Runs only where a CUDA
// device is present.
#include "harness/device/cuda_resources.hpp"
#include "harness/ops/defined_op.hpp"
#include "harness/ops/host_tensor.hpp"
#include "support/catch.hpp"
#include "support/special_inputs.hpp"
#include "support/verify_variants.hpp"

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

using namespace kbench;

namespace {

/// Row r of `x` (cols wide) masked by pattern r % 8: 0 none; 1 the first half; 2 all but the last
/// element; 3 causal (everything after a column that moves with r); 4 about 90 % at random, one
/// element kept; 5 all of it (a NaN row); 6 all but a middle stretch; 7 one NaN (r / 8 even) or
/// one +inf (r / 8 odd).
void mask_rows(HostTensor& x, std::int64_t rows, std::int64_t cols, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  const auto mask = [&](std::int64_t r, std::int64_t c) {
    set_element(x, static_cast<std::size_t>(r * cols + c), -INFINITY);
  };
  for (std::int64_t r = 0; r < rows; ++r) {
    const std::int64_t kept = (r * 7919) % cols;
    const std::int64_t stretch = cols / 3, stretch_end = stretch + std::max<std::int64_t>(1, cols / 16);
    for (std::int64_t c = 0; c < cols; ++c) {
      switch (r % 8) {
        case 1: if (c < cols / 2) mask(r, c); break;
        case 2: if (c + 1 < cols) mask(r, c); break;
        case 3: if (c > kept) mask(r, c); break;
        case 4: if (c != kept && random() % 10 != 0) mask(r, c); break;
        case 5: mask(r, c); break;
        case 6: if (c < stretch || c >= stretch_end) mask(r, c); break;
        default: break;
      }
    }
    if (r % 8 == 7) {
      set_element(x, static_cast<std::size_t>(r * cols + kept),
                  (r / 8) % 2 == 0 ? NAN : INFINITY);
    }
  }
}

}  // namespace

TEST_CASE("every own softmax variant and auto keep masked elements 0 and give NaN rows as the reference does",
          "[gpu][softmax]") {
  const auto& op = dynamic_cast<const DefinedOp&>(*test::all_ops().find("softmax"));
  CudaStream stream;
  // Every kernel class: rows of a few elements, short rows (packed, grain, body, vector, short
  // rows), rows a warp or block holds, register_row's and cluster_row's rows (2503 x 4099: several
  // waves of clusters, where 16-bit rows store their exponentials), vocabulary rows, and few long
  // rows over many blocks (grid_row; 29 x 524309 in batches, the last one partial); odd widths
  // throughout, so that rows start at every alignment; body_rows' 8 slots a lane (exponentials
  // computed twice) in 16-bit at 1283 and 2047 columns.
  const std::vector<Shape> shapes{{37, 3},    {1000, 7},  {513, 33},    {300, 100},   {4099, 127},
                                  {129, 1000}, {65, 4097}, {9, 32776},   {2503, 4099}, {131, 50257},
                                  {7, 262147}, {3, 1048573}, {29, 524309}, {2, 3, 515}, {263, 1283},
                                  {301, 2047}};
  for (const Shape& shape : shapes) {
    const std::int64_t cols = shape.back();
    const std::int64_t rows = element_count(shape) / cols;
    for (DType dtype : op.dtypes()) {
      const std::uint64_t seed = test::fresh_seed();
      HostTensor x = random_tensor(dtype, static_cast<std::size_t>(rows * cols), seed, -4.0f, 4.0f);
      mask_rows(x, rows, cols, seed);
      test::check_own_variants_on(op, Problem{shape, dtype, "test"}, x, stream,
                                  "masks by row % 8 (test_softmax_masked_gpu.cpp), seed " + std::to_string(seed));
    }
  }
}
