#pragma once
/// The CPU reference for matmul: which elements of C are checked, and their values in double
/// from the exact dtype inputs. Host-only.

#include "harness/ops/dtype.hpp"
#include "harness/ops/verification.hpp"

#include <cstdint>
#include <vector>

namespace kbench::matmul {

/// Every element of C is checked up to this many; larger outputs are sampled.
constexpr std::int64_t kFullCheckLimit = 65536;
/// The least number of elements a sample holds.
constexpr std::int64_t kMinSample = 4096;

/// The flat row-major indices of C (M×N) that verification compares, sorted and distinct: all of
/// them when M·N <= kFullCheckLimit, otherwise a sample drawn from `seed` (the same seed gives
/// the same sample) of at least kMinSample elements. The sample is a grid of stratified rows ×
/// stratified columns (one random row in each of up to 64 equal bands of rows, likewise for
/// columns, so every 128-wide tile row and column of an up to 8192-wide C is hit), plus the
/// first and last rows and columns in the grid, plus the whole last row and the whole last
/// column (where partial tiles end); the four corners are always in.
std::vector<std::int64_t> sample_positions(std::int64_t m, std::int64_t n, std::uint64_t seed);

struct ReferenceValues {
  std::vector<double> value;  ///< C at each position, in double
  std::vector<double> scale;  ///< Σ_k |a_ik · b_kj| at each position: what accumulation error grows with
};

/// C = A·B at `positions` (flat row-major indices), in double from the float values of A (M×K)
/// and B (K×N). Rows that need many columns are computed as whole rows (streaming B once), the
/// rest column by column, so the cost stays near that of the checked elements.
ReferenceValues reference_at(const std::vector<float>& a, const std::vector<float>& b, std::int64_t m, std::int64_t n,
                             std::int64_t k, const std::vector<std::int64_t>& positions);

/// The tolerance of a matmul output in `dtype`, for compare_with_reference with the scale above.
Tolerance matmul_tolerance(DType dtype);

}  // namespace kbench::matmul
