#pragma once
/// The layout behind `wgmma_tma_padded`: TMA needs 16-byte row strides and 16-byte aligned
/// matrices, and the staged kernel read B 1.3-1.6x faster from rows of 128-byte multiples (A's
/// rows and C's made no difference, or copying them cost more), so A is copied where K is not a
/// multiple of 8 or A is misaligned, B where N is not a multiple of 64 or B is misaligned, C only
/// where N is not a multiple of 8 or C is misaligned, each into scratch whose rows are padded to
/// a multiple of 64 elements; C, when it is such an operand, is written to padded scratch and copied out. The
/// tensor maps keep the logical extents (K columns of A, N of B and C) over the padded pitches, so
/// TMA zero-fills the padding on loads and clips it on stores. Host-only.

#include "kernels/matmul/matmul_problem.hpp"

#include <cstddef>

namespace kbench::matmul {

/// Elements of a padded row: 64 (128 bytes of 16-bit elements). TMA needs only 16 bytes, but on
/// the H200 (NOTES.md, "128-byte rows") the staged kernel took 578.5 µs at 6472x6584x3176 (rows of
/// 6352 and 13168 bytes) and 394-416 at 6528x6656x3200 (the same tiles and steps, rows of 128-byte
/// multiples); A's rows off 128 bytes cost nothing (4096x4096x4104 180.0, cuBLAS 181.0).
constexpr long long kPaddedRowElements = 64;

/// `extent` rounded up to a multiple of kPaddedRowElements.
constexpr long long padded_pitch(long long extent) {
  return (extent + kPaddedRowElements - 1) / kPaddedRowElements * kPaddedRowElements;
}

/// Whether B's rows that TMA can address but that are not of 128-byte multiples (N a multiple of 8
/// but not of 64, B aligned) are copied: `auto` decides by its model; the wgmma_tma_padded variant
/// copies.
enum class ShortRows { copied, kept };

/// The scratch of one call, in one buffer: A at a_offset (M × k_pitch), B at b_offset (K × n_pitch),
/// C at c_offset (M × n_pitch), each present only where its flag says and 256-byte aligned.
struct PaddedLayout {
  bool pad_a = false;  ///< A is copied (K % 8 != 0, or A not 16-byte aligned)
  bool pad_b = false;  ///< B is copied (N % 64 != 0 where ShortRows::copied, else N % 8 != 0; or B misaligned)
  bool pad_c = false;  ///< C goes through scratch and a copy-out (N % 8 != 0, or C not 16-byte aligned)
  long long k_pitch = 0;  ///< A's scratch row pitch, in elements: padded_pitch(K) (used only when pad_a)
  long long n_pitch = 0;  ///< B's and C's row pitch as the kernel reads and writes them: padded_pitch(N)
  std::size_t a_offset = 0, b_offset = 0, c_offset = 0;
  std::size_t bytes = 0;  ///< the whole scratch (0 when nothing is copied)
};

/// The layout for C = A·B of `dims` in a 16-bit dtype with operands at these alignments.
PaddedLayout padded_layout(Dims dims, bool a_aligned16, bool b_aligned16, bool c_aligned16,
                           ShortRows short_rows = ShortRows::copied);

/// The padded scratch of a problem whose every operand is copied (the most any call of `dims` needs).
inline PaddedLayout padded_layout_bound(Dims dims) { return padded_layout(dims, false, false, false); }

/// Bytes the copies move beyond what the kernel alone moves: each copied input read from the
/// caller's matrix and written to scratch (the kernel then reads the scratch instead of the
/// caller's), and a copied C read back from scratch and written to the caller's C (the kernel's
/// own write goes to the scratch instead).
double padded_extra_bytes(Dims dims, const PaddedLayout& layout);

/// Kernels one call launches: a copy-in of A and B (one launch for both), the GEMM, a copy-out of C.
int padded_kernels(const PaddedLayout& layout);

}  // namespace kbench::matmul
