#pragma once
/// The matmul problem: C = A·B, row-major, A is M×K, B is K×N, C is M×N; a kbench shape
/// {M, N, K}. Host-only.

#include "harness/ops/problem.hpp"

#include <cstdint>
#include <limits>
#include <string>

namespace kbench::matmul {

/// Extents of one product. Every kernel indexes with 32-bit ints: reject_matmul_shape keeps
/// M·K, K·N and M·N below 2^31, and each extent at most 2^30 (launchers round extents up to
/// whole tiles and steps in 32 bits).
struct Dims {
  int m = 0;
  int n = 0;
  int k = 0;
};

/// x / y rounded up (x >= 0, y > 0): tiles, waves, chunks and steps of a plan.
constexpr std::int64_t ceil_div64(std::int64_t x, std::int64_t y) { return (x + y - 1) / y; }

/// The wgmma kernels' block tile of C and their K per pipeline step.
constexpr int kWgmmaTileM = 128, kWgmmaTileN = 256, kWgmmaStepK = 64;

/// The small-tile SIMT kernel's block tile heights (launch_small_simt): 16 rows (register_blocked's
/// small problems), 32 and 48 (few-row GEMMs: fewer L2 → SM bytes per multiply-add). Every tile is
/// 32 columns wide.
enum class SimtSmallRows { r16, r32, r48 };
constexpr int simt_small_rows(SimtSmallRows rows) {
  return rows == SimtSmallRows::r16 ? 16 : rows == SimtSmallRows::r32 ? 32 : 48;
}

/// The outer-product SIMT kernel's block tiles (launch_outer_simt): 64 rows × 32 columns, or 32 × 64.
enum class OuterSimtTile { rows64_cols32, rows32_cols64 };
constexpr int outer_simt_rows(OuterSimtTile tile) { return tile == OuterSimtTile::rows64_cols32 ? 64 : 32; }
constexpr int outer_simt_cols(OuterSimtTile tile) { return tile == OuterSimtTile::rows64_cols32 ? 32 : 64; }
/// Its Aᵀ: K rounded up to whole chunks of 16 rows, M rounded up to 64 columns (every tile's rows
/// inside), zeros outside A; in bytes a multiple of 256, so that split slices behind it stay aligned.
constexpr int outer_at_rows(int k) { return static_cast<int>(ceil_div64(k, 16) * 16); }
constexpr int outer_at_pitch(int m) { return static_cast<int>(ceil_div64(m, 64) * 64); }
constexpr std::int64_t outer_at_bytes(Dims dims) {
  return ceil_div64(std::int64_t{outer_at_rows(dims.k)} * outer_at_pitch(dims.m) * 4, 256) * 256;
}

/// x rounded up to a multiple of 4: fp32 rows of whole 16-byte vectors.
constexpr int round_up4(int x) { return static_cast<int>(ceil_div64(x, 4) * 4); }

/// The row pitch of A padded for the small-tile kernel's 16-byte copies: K rounded up to 4 floats.
constexpr int simt_a_pitch(int k) { return round_up4(k); }

/// Empty when `shape` is a valid {M, N, K}, otherwise why not.
inline std::string reject_matmul_shape(const Shape& shape) {
  if (shape.size() != 3) {
    return "matmul needs a rank-3 shape MxNxK (C is MxN, the inner dimension is K), e.g. 4096x4096x4096; got rank " +
           std::to_string(shape.size());
  }
  for (std::int64_t extent : shape) {
    if (extent < 1) return "extents must be >= 1";
  }
  constexpr std::int64_t kMax = std::numeric_limits<int>::max();
  constexpr std::int64_t kMaxExtent = std::int64_t{1} << 30;
  const std::int64_t m = shape[0], n = shape[1], k = shape[2];
  for (std::int64_t extent : shape) {
    if (extent > kMaxExtent) {
      return "each extent must be at most 2^30 = " + std::to_string(kMaxExtent) +
             " (the kernels round extents up to whole tiles in 32 bits); got " + std::to_string(extent);
    }
  }
  if (m > kMax / k || k > kMax / n || m > kMax / n) {
    return "each of A (MxK), B (KxN) and C (MxN) must have fewer than 2^31 elements (the kernels index in 32 bits)";
  }
  return "";
}

/// The extents of a shape that reject_matmul_shape accepted.
inline Dims dims_of(const Shape& shape) {
  return {static_cast<int>(shape[0]), static_cast<int>(shape[1]), static_cast<int>(shape[2])};
}

}  // namespace kbench::matmul
