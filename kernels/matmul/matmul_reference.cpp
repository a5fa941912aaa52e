#include "kernels/matmul/matmul_reference.hpp"

#include "harness/common/parallel_for.hpp"

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

/// Elements of a whole-row tile: up to 8 rows × 128 columns, or fewer rows and more columns (1
/// row × 1024), so that its sums (2 × 1024 doubles) stay in L1 while it streams its band of B
/// once, in order of k, in runs of at least 1 KiB.
constexpr std::int64_t kTileRows = 8, kTileElements = 1024;

/// The whole rows `rows` of C into value/scale (rows.size() × n, row-major), tile by tile on
/// several threads. Every element is summed over k in order, so the result does not depend on
/// the thread count.
void whole_rows(const float* a, const float* b, std::int64_t n, std::int64_t k, const std::vector<std::int64_t>& rows,
                std::vector<double>& value, std::vector<double>& scale) {
  const auto count = static_cast<std::int64_t>(rows.size());
  value.assign(static_cast<std::size_t>(count * n), 0.0);
  scale.assign(static_cast<std::size_t>(count * n), 0.0);
  if (count == 0) return;
  const std::int64_t tile_rows = std::min(count, kTileRows), tile_cols = kTileElements / tile_rows;
  const std::int64_t row_tiles = (count + tile_rows - 1) / tile_rows, col_tiles = (n + tile_cols - 1) / tile_cols;
  parallel_for(row_tiles * col_tiles, 1, [&](std::int64_t first_tile, std::int64_t last_tile) {
    for (std::int64_t tile = first_tile; tile < last_tile; ++tile) {
      const std::int64_t r0 = tile / col_tiles * tile_rows, r1 = std::min(count, r0 + tile_rows);
      const std::int64_t j0 = tile % col_tiles * tile_cols, width = std::min(n, j0 + tile_cols) - j0;
      double sums[kTileElements] = {}, magnitudes[kTileElements] = {};  // row r - r0 at (r - r0) · tile_cols
      for (std::int64_t kk = 0; kk < k; ++kk) {
        const float* b_row = b + kk * n + j0;
        for (std::int64_t r = r0; r < r1; ++r) {
          const double x = a[rows[static_cast<std::size_t>(r)] * k + kk];
          double* sum = sums + (r - r0) * tile_cols;
          double* magnitude = magnitudes + (r - r0) * tile_cols;
          for (std::int64_t j = 0; j < width; ++j) {
            const double p = x * static_cast<double>(b_row[j]);
            sum[j] += p;
            magnitude[j] += std::fabs(p);
          }
        }
      }
      for (std::int64_t r = r0; r < r1; ++r) {
        for (std::int64_t j = 0; j < width; ++j) {
          value[static_cast<std::size_t>(r * n + j0 + j)] = sums[(r - r0) * tile_cols + j];
          scale[static_cast<std::size_t>(r * n + j0 + j)] = magnitudes[(r - r0) * tile_cols + j];
        }
      }
    }
  });
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
  // Rows that need many columns are computed whole; the rest element by element.
  struct Sparse {
    std::int64_t col, row;
    std::size_t slot;  // index into positions
  };
  std::vector<Sparse> sparse;
  std::vector<std::int64_t> dense_rows;
  std::vector<std::size_t> dense_first;  // where each dense row's positions start (positions are sorted)
  for (std::size_t first = 0; first < positions.size();) {
    const std::int64_t row = positions[first] / n;
    std::size_t last = first;
    while (last < positions.size() && positions[last] / n == row) ++last;
    if ((last - first) * 8 > static_cast<std::size_t>(n)) {
      dense_rows.push_back(row);
      dense_first.push_back(first);
    } else {
      for (std::size_t s = first; s < last; ++s) sparse.push_back({positions[s] % n, row, s});
    }
    first = last;
  }

  std::vector<double> row_value, row_scale;
  whole_rows(a.data(), b.data(), n, k, dense_rows, row_value, row_scale);
  for (std::size_t r = 0; r < dense_rows.size(); ++r) {
    for (std::size_t s = dense_first[r]; s < positions.size() && positions[s] / n == dense_rows[r]; ++s) {
      const auto at = r * static_cast<std::size_t>(n) + static_cast<std::size_t>(positions[s] % n);
      out.value[s] = row_value[at];
      out.scale[s] = row_scale[at];
    }
  }

  // The rest element by element, sorted by column and cut into chunks of 64 on several threads:
  // a chunk gathers each column of B it needs once, then takes one dot per element. (A column
  // can hold most of the elements: every sampled row's last one.)
  std::sort(sparse.begin(), sparse.end(), [](const Sparse& x, const Sparse& y) { return x.col < y.col; });
  parallel_for(static_cast<std::int64_t>(sparse.size()), 64, [&](std::int64_t first, std::int64_t last) {
    std::vector<double> column(static_cast<std::size_t>(k));
    for (auto s = static_cast<std::size_t>(first); s < static_cast<std::size_t>(last); ++s) {
      const std::int64_t col = sparse[s].col;
      if (s == static_cast<std::size_t>(first) || col != sparse[s - 1].col) {
        for (std::int64_t kk = 0; kk < k; ++kk) column[static_cast<std::size_t>(kk)] = b[static_cast<std::size_t>(kk * n + col)];
      }
      const float* a_row = a.data() + sparse[s].row * k;
      double value = 0, scale = 0;
      for (std::int64_t kk = 0; kk < k; ++kk) {
        const double p = static_cast<double>(a_row[kk]) * column[static_cast<std::size_t>(kk)];
        value += p;
        scale += std::fabs(p);
      }
      out.value[sparse[s].slot] = value;
      out.scale[sparse[s].slot] = scale;
    }
  });
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
