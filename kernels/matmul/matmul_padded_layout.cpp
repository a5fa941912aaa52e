#include "kernels/matmul/matmul_padded_layout.hpp"

namespace kbench::matmul {

namespace {

constexpr std::size_t kElementBytes = 2;  // fp16, bf16

std::size_t round_up_256(std::size_t bytes) { return (bytes + 255) / 256 * 256; }

std::size_t matrix_bytes(long long rows, long long pitch) {
  return static_cast<std::size_t>(rows) * static_cast<std::size_t>(pitch) * kElementBytes;
}

}  // namespace

PaddedLayout padded_layout(Dims dims, bool a_aligned16, bool b_aligned16, bool c_aligned16, ShortRows short_rows) {
  PaddedLayout layout;
  layout.k_pitch = padded_pitch(dims.k);
  layout.n_pitch = padded_pitch(dims.n);
  layout.pad_a = dims.k % 8 != 0 || !a_aligned16;
  const long long row_multiple = short_rows == ShortRows::copied ? kPaddedRowElements : 8;
  layout.pad_b = dims.n % row_multiple != 0 || !b_aligned16;
  layout.pad_c = dims.n % 8 != 0 || !c_aligned16;  // C's short rows cost nothing (NOTES.md, "B's rows only")
  std::size_t end = 0;
  auto place = [&end](bool present, long long rows, long long pitch) {
    const std::size_t offset = end;
    if (present) end += round_up_256(matrix_bytes(rows, pitch));
    return offset;
  };
  layout.a_offset = place(layout.pad_a, dims.m, layout.k_pitch);
  layout.b_offset = place(layout.pad_b, dims.k, layout.n_pitch);
  layout.c_offset = place(layout.pad_c, dims.m, layout.n_pitch);
  layout.bytes = end;
  return layout;
}

double padded_extra_bytes(Dims dims, const PaddedLayout& layout) {
  const double size = static_cast<double>(kElementBytes);
  const double m = dims.m, n = dims.n, k = dims.k;
  double bytes = 0;
  if (layout.pad_a) bytes += (m * k + m * static_cast<double>(layout.k_pitch)) * size;
  if (layout.pad_b) bytes += (k * n + k * static_cast<double>(layout.n_pitch)) * size;
  if (layout.pad_c) bytes += 2 * m * n * size;
  return bytes;
}

int padded_kernels(const PaddedLayout& layout) {
  return 1 + ((layout.pad_a || layout.pad_b) ? 1 : 0) + (layout.pad_c ? 1 : 0);
}

}  // namespace kbench::matmul
