#include "kernels/matmul/matmul_reference.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace kbench::matmul {

namespace {

/// SplitMix64: small, and a different stream for every seed.
struct SplitMix64 {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
};

/// `count` indices in [0, extent): one drawn at random from each of `count` equal bands, plus the
/// first and the last.
std::vector<std::int64_t> stratified(std::int64_t extent, std::int64_t count, SplitMix64& rng) {
  std::vector<std::int64_t> picks{0, extent - 1};
  for (std::int64_t band = 0; band < count; ++band) {
    const std::int64_t lo = band * extent / count;
    const std::int64_t hi = (band + 1) * extent / count;  // > lo because count <= extent
    picks.push_back(lo + static_cast<std::int64_t>(rng.next() % static_cast<std::uint64_t>(hi - lo)));
  }
  return picks;
}

}  // namespace

std::vector<std::int64_t> sample_positions(std::int64_t m, std::int64_t n, std::uint64_t seed) {
  std::vector<std::int64_t> positions;
  if (m * n <= kFullCheckLimit) {
    positions.resize(static_cast<std::size_t>(m * n));
    for (std::size_t i = 0; i < positions.size(); ++i) positions[i] = static_cast<std::int64_t>(i);
    return positions;
  }
  // A grid of at least kMinSample elements: up to 64 row bands, then enough column bands, then
  // more row bands if C is too narrow for that.
  std::int64_t rows = std::min<std::int64_t>(m, 64);
  const std::int64_t cols = std::min<std::int64_t>(n, (kMinSample + rows - 1) / rows);
  if (rows * cols < kMinSample) rows = std::min<std::int64_t>(m, (kMinSample + cols - 1) / cols);
  SplitMix64 rng{seed};
  const std::vector<std::int64_t> row_picks = stratified(m, rows, rng);
  const std::vector<std::int64_t> col_picks = stratified(n, cols, rng);
  for (std::int64_t i : row_picks)
    for (std::int64_t j : col_picks) positions.push_back(i * n + j);
  for (std::int64_t j = 0; j < n; ++j) positions.push_back((m - 1) * n + j);  // the last row
  for (std::int64_t i = 0; i < m; ++i) positions.push_back(i * n + n - 1);    // the last column
  std::sort(positions.begin(), positions.end());
  positions.erase(std::unique(positions.begin(), positions.end()), positions.end());
  return positions;
}

ReferenceValues reference_at(const std::vector<float>& a, const std::vector<float>& b, std::int64_t m, std::int64_t n,
                             std::int64_t k, const std::vector<std::int64_t>& positions) {
  (void)m;
  ReferenceValues out;
  out.value.assign(positions.size(), 0.0);
  out.scale.assign(positions.size(), 0.0);

  // Products of two floats are exact in double; only the sums round (about 2^-53 each).
  struct Sparse {
    std::int64_t col, row;
    std::size_t slot;  // index into positions
  };
  std::vector<Sparse> sparse;
  std::vector<double> row_value, row_scale;
  for (std::size_t first = 0; first < positions.size();) {
    const std::int64_t row = positions[first] / n;
    std::size_t last = first;
    while (last < positions.size() && positions[last] / n == row) ++last;
    const std::size_t count = last - first;
    if (count * 8 > static_cast<std::size_t>(n)) {
      // Many columns of this row: compute the whole row, streaming B row by row.
      row_value.assign(static_cast<std::size_t>(n), 0.0);
      row_scale.assign(static_cast<std::size_t>(n), 0.0);
      const float* a_row = a.data() + row * k;
      for (std::int64_t kk = 0; kk < k; ++kk) {
        const double x = a_row[kk];
        const float* b_row = b.data() + kk * n;
        for (std::int64_t j = 0; j < n; ++j) {
          const double p = x * static_cast<double>(b_row[j]);
          row_value[static_cast<std::size_t>(j)] += p;
          row_scale[static_cast<std::size_t>(j)] += std::fabs(p);
        }
      }
      for (std::size_t s = first; s < last; ++s) {
        const auto j = static_cast<std::size_t>(positions[s] % n);
        out.value[s] = row_value[j];
        out.scale[s] = row_scale[j];
      }
    } else {
      for (std::size_t s = first; s < last; ++s) sparse.push_back({positions[s] % n, row, s});
    }
    first = last;
  }

  // The rest column by column: gather each needed column of B once, then one dot per element.
  std::sort(sparse.begin(), sparse.end(), [](const Sparse& x, const Sparse& y) { return x.col < y.col; });
  std::vector<double> column(static_cast<std::size_t>(k));
  for (std::size_t first = 0; first < sparse.size();) {
    const std::int64_t col = sparse[first].col;
    for (std::int64_t kk = 0; kk < k; ++kk) column[static_cast<std::size_t>(kk)] = b[static_cast<std::size_t>(kk * n + col)];
    std::size_t last = first;
    for (; last < sparse.size() && sparse[last].col == col; ++last) {
      const float* a_row = a.data() + sparse[last].row * k;
      double value = 0, scale = 0;
      for (std::int64_t kk = 0; kk < k; ++kk) {
        const double p = static_cast<double>(a_row[kk]) * column[static_cast<std::size_t>(kk)];
        value += p;
        scale += std::fabs(p);
      }
      out.value[sparse[last].slot] = value;
      out.scale[sparse[last].slot] = scale;
    }
    first = last;
  }
  return out;
}

Tolerance matmul_tolerance(DType dtype) {
  // |out - ref| <= abs + rel·|ref| + scaled·Σ|a·b|. The scaled term covers the fp32 accumulation
  // (and for TF32 the inputs' rounding to 10 mantissa bits, up to 2^-10 per product); the
  // relative term covers the final rounding of C to fp16 (2^-11) or bf16 (2^-8).
  switch (dtype) {
    case DType::f32: return {0.0, 1e-6, 2e-6};
    case DType::tf32: return {0.0, 0.0, 4e-3};
    case DType::f16: return {0.0, 2e-3, 1e-5};
    case DType::bf16: return {0.0, 1.6e-2, 1e-5};
  }
  return {};
}

}  // namespace kbench::matmul
