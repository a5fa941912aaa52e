// wgmma_tma_padded's layout arithmetic (kernels/matmul/matmul_padded_layout.hpp) and where matmul's
// `auto` sends 16-bit shapes TMA cannot address (kernels/matmul/matmul_auto_padded.hpp). No GPU.
#include "kernels/matmul/matmul_auto_padded.hpp"
#include "kernels/matmul/matmul_auto_plan.hpp"
#include "kernels/matmul/matmul_padded_layout.hpp"
#include "support/catch.hpp"

#include <algorithm>
#include <cstddef>
#include <vector>

using namespace kbench;
using namespace kbench::matmul;

namespace {

const AutoDevice kH100{132, true};

bool padded_kernel(AutoKernel k) { return k == AutoKernel::wgmma_tma_padded || k == AutoKernel::wgmma_tma_padded_n128; }

}  // namespace

TEST_CASE("padded rows: a multiple of 64 elements (128 bytes of fp16/bf16), never shorter than the row",
          "[matmul][padded]") {
  CHECK(padded_pitch(1) == 64);
  CHECK(padded_pitch(7) == 64);
  CHECK(padded_pitch(64) == 64);
  CHECK(padded_pitch(65) == 128);
  CHECK(padded_pitch(513) == 576);
  CHECK(padded_pitch(4097) == 4160);
  CHECK(padded_pitch(65537) == 65600);
}

TEST_CASE("padded layout of the zoo's 1023x4097x513: all three operands copied, 256-byte aligned, end to end",
          "[matmul][padded]") {
  const Dims d{1023, 4097, 513};
  const PaddedLayout l = padded_layout(d, true, true, true);
  CHECK(l.pad_a);
  CHECK(l.pad_b);
  CHECK(l.pad_c);
  CHECK(l.k_pitch == 576);
  CHECK(l.n_pitch == 4160);
  // A: 1023 × 576 × 2 = 1,178,496 B → 1,178,624; B: 513 × 4160 × 2 = 4,268,160 → 4,268,288;
  // C: 1023 × 4160 × 2 = 8,511,360 → 8,511,488.
  CHECK(l.a_offset == 0);
  CHECK(l.b_offset == 1178624);
  CHECK(l.c_offset == 1178624 + 4268288);
  CHECK(l.bytes == 13958400);
  CHECK(padded_kernels(l) == 3);
  // A read and written (1023 × (513 + 576) × 2), B (513 × (4097 + 4160) × 2), C read and written
  // (2 × 1023 × 4097 × 2).
  CHECK(padded_extra_bytes(d, l) == Approx(27464700.0));
}

TEST_CASE("padded layout copies what TMA cannot address, and B whose rows are not 128-byte multiples",
          "[matmul][padded]") {
  SECTION("K odd, N a multiple of 64: A alone, one copy kernel before the GEMM") {
    const PaddedLayout l = padded_layout({1000, 1024, 999}, true, true, true);
    CHECK(l.pad_a);
    CHECK_FALSE(l.pad_b);
    CHECK_FALSE(l.pad_c);
    CHECK(l.k_pitch == 1024);
    CHECK(l.n_pitch == 1024);
    CHECK(l.bytes == 2048000);  // 1000 × 1024 × 2
    CHECK(padded_kernels(l) == 2);
    CHECK(padded_extra_bytes({1000, 1024, 999}, l) == Approx((1000.0 * 999 + 1000.0 * 1024) * 2));
  }
  SECTION("N odd, K a multiple of 8: B and C, B first in the scratch") {
    const PaddedLayout l = padded_layout({100, 7, 64}, true, true, true);
    CHECK_FALSE(l.pad_a);
    CHECK(l.pad_b);
    CHECK(l.pad_c);
    CHECK(l.b_offset == 0);
    CHECK(l.c_offset == 8192);  // 64 × 64 × 2 = 8,192 B
    CHECK(l.bytes == 8192 + 12800);  // 100 × 64 × 2 = 12,800 (a multiple of 256)
    CHECK(padded_kernels(l) == 3);
  }
  SECTION("N a multiple of 8 but not of 64: B copied to rows of 128-byte multiples; A and C as they are") {
    const PaddedLayout l = padded_layout({6472, 6584, 3176}, true, true, true);
    CHECK_FALSE(l.pad_a);
    CHECK(l.pad_b);
    CHECK_FALSE(l.pad_c);
    CHECK(padded_kernels(l) == 2);
    CHECK(l.n_pitch == 6592);
    CHECK(padded_layout({4096, 4096, 4104}, true, true, true).bytes == 0);  // A's rows off 128 bytes: no copy
  }
  SECTION("aligned shape and pointers: nothing copied, the staged kernel alone") {
    const PaddedLayout l = padded_layout({4096, 4096, 4096}, true, true, true);
    CHECK_FALSE((l.pad_a || l.pad_b || l.pad_c));
    CHECK(l.bytes == 0);
    CHECK(padded_kernels(l) == 1);
    CHECK(padded_extra_bytes({4096, 4096, 4096}, l) == 0.0);
  }
  SECTION("an aligned shape with C alone misaligned: only C goes through scratch") {
    const PaddedLayout l = padded_layout({64, 64, 64}, true, true, false);
    CHECK_FALSE(l.pad_a);
    CHECK_FALSE(l.pad_b);
    CHECK(l.pad_c);
    CHECK(l.c_offset == 0);
    CHECK(l.bytes == 64 * 64 * 2);
    CHECK(padded_kernels(l) == 2);
  }
}

TEST_CASE("padded layout: regions 256-byte aligned, disjoint, inside the scratch, and within the bound",
          "[matmul][padded]") {
  const std::vector<int> extents{1, 7, 8, 9, 63, 64, 65, 127, 513, 1023, 4097};
  for (int m : extents) {
    for (int n : extents) {
      for (int k : extents) {
        const Dims d{m, n, k};
        for (int alignment = 0; alignment < 8; ++alignment) {
          const PaddedLayout l = padded_layout(d, alignment & 1, alignment & 2, alignment & 4);
          INFO(m << "x" << n << "x" << k << " alignment bits " << alignment);
          CHECK(l.k_pitch % 64 == 0);
          CHECK(l.n_pitch % 64 == 0);
          CHECK(l.k_pitch >= k);
          CHECK(l.k_pitch < k + 64);
          CHECK(l.n_pitch >= n);
          CHECK(l.n_pitch < n + 64);
          std::size_t end = 0;
          auto region = [&](bool present, std::size_t offset, long long rows, long long pitch) {
            if (!present) return;
            CHECK(offset % 256 == 0);
            CHECK(offset >= end);  // after the previous region
            end = offset + static_cast<std::size_t>(rows * pitch * 2);
            CHECK(end <= l.bytes);
          };
          region(l.pad_a, l.a_offset, m, l.k_pitch);
          region(l.pad_b, l.b_offset, k, l.n_pitch);
          region(l.pad_c, l.c_offset, m, l.n_pitch);
          CHECK(l.bytes <= padded_layout_bound(d).bytes);
          CHECK(l.pad_a == (k % 8 != 0 || !(alignment & 1)));
          CHECK(l.pad_b == (n % 64 != 0 || !(alignment & 2)));
          CHECK(l.pad_c == (n % 8 != 0 || !(alignment & 4)));
          const PaddedLayout kept = padded_layout(d, alignment & 1, alignment & 2, alignment & 4, ShortRows::kept);
          CHECK(kept.pad_a == l.pad_a);
          CHECK(kept.pad_b == (n % 8 != 0 || !(alignment & 2)));
          CHECK(kept.pad_c == l.pad_c);
          CHECK(kept.bytes <= l.bytes);
        }
      }
    }
  }
}

TEST_CASE("auto: padded plans only for unaligned 16-bit shapes or N not a multiple of 64, with scratch for the layout they run, where the "
          "model puts them ahead of the element-wise wgmma kernel", "[matmul][auto][padded]") {
  const std::vector<int> extents{1, 7, 64, 100, 129, 513, 1000, 1023, 1024, 4096, 4097, 4104, 8191};
  for (const AutoDevice device : {kH100, AutoDevice{78, true}}) {
    for (int m : extents) {
      for (int n : extents) {
        for (int k : extents) {
          for (bool aligned_pointers : {true, false}) {
            const Dims d{m, n, k};
            const AutoPlan p = plan_auto(d, DType::f16, device, aligned_pointers);
            const bool aligned = k % 8 == 0 && n % 8 == 0 && aligned_pointers;
            INFO(m << "x" << n << "x" << k << " on " << device.sm_count << " SMs, pointers aligned "
                   << aligned_pointers << ": " << auto_kernel_name(p.kernel));
            if (!padded_kernel(p.kernel)) {
              CHECK(p.padded_bytes == 0);
              if (!aligned) {  // what unaligned shapes ran before, where the padded call does not
                CHECK((p.kernel == AutoKernel::wgmma || p.kernel == AutoKernel::wgmma_split_k ||
                       p.kernel == AutoKernel::tensor_core || (p.kernel == AutoKernel::gemv && m <= 8)));
              }
              continue;
            }
            CHECK((!aligned || n % 64 != 0));  // an aligned shape only for B's rows off 128 bytes
            const PaddedLayout layout = padded_layout(d, aligned_pointers, aligned_pointers, aligned_pointers, p.short_rows);
            const PaddedLayout other = padded_layout(d, aligned_pointers, aligned_pointers, aligned_pointers,
                                                     p.short_rows == ShortRows::kept ? ShortRows::copied : ShortRows::kept);
            CHECK(p.padded_bytes == layout.bytes);
            CHECK(p.padded_bytes > 0);
            CHECK(p.splits == 1);
            CHECK(p.workspace_bytes == 0);
            CHECK(p.transposed_b_bytes == 0);
            CHECK(static_cast<double>(m) * n * k > kAutoSmallVolume);
            const TmaTile tile = p.kernel == AutoKernel::wgmma_tma_padded ? TmaTile::n256 : TmaTile::n128;
            const int splits = 2 * ((m + 127) / 128) * ((n + 255) / 256) > device.sm_count ? 1 : 2;
            const double padded_us = padded_estimate_us(d, layout, tile, device.sm_count);
            if (aligned) {  // against the staged kernel reading B's rows off 128 bytes, on the slowest tile it may run
              CHECK(p.short_rows == ShortRows::copied);
              double direct_us = 0;
              for (TmaTile t : {TmaTile::n256, TmaTile::n192, TmaTile::n128}) {
                direct_us = std::max(direct_us, padded_estimate_us(d, PaddedLayout{}, t, device.sm_count));
              }
              CHECK(padded_us < direct_us);
              CHECK(direct_us > staged_estimate_us(d, TmaTile::n128, device.sm_count));  // the short rows charged
            } else {
              CHECK(padded_us < wgmma_elementwise_estimate_us(d, splits, device.sm_count));
              // the layout the model favours: ties keep the copies
              CHECK(padded_us <= padded_estimate_us(d, other, tile, device.sm_count));
              if (p.short_rows == ShortRows::kept) CHECK(padded_us < padded_estimate_us(d, other, tile, device.sm_count));
            }
          }
        }
      }
    }
  }
}

TEST_CASE("padded model: the copies cost their launches and bytes; the zoo's odd shape beats the element-wise "
          "kernel by more than 1.5x", "[matmul][auto][padded]") {
  const Dims zoo{1023, 4097, 513};
  const PaddedLayout l = padded_layout(zoo, true, true, true);
  const double kernel = staged_estimate_us(zoo, TmaTile::n128, 132);
  // 264 narrow tiles: 2 rounds of 9 steps.
  CHECK(kernel == Approx(6.8 + 2 * 9 * 0.67 * 0.575));
  CHECK(padded_estimate_us(zoo, l, TmaTile::n128, 132) == Approx(kernel + 2 * 2.0 + 27464700.0 / 2.5e6));
  // The element-wise kernel: 136 tiles in 2 waves of 9 steps at 2.86 µs (its measured 51.5 µs).
  CHECK(wgmma_elementwise_estimate_us(zoo, 1, 132) == Approx(2 * 9 * 2.86));
  CHECK(wgmma_elementwise_estimate_us(zoo, 1, 132) > 1.5 * padded_estimate_us(zoo, l, TmaTile::n128, 132));
  // An aligned problem's padded call is the staged kernel alone.
  const Dims square{4096, 4096, 4096};
  CHECK(padded_estimate_us(square, padded_layout(square, true, true, true), TmaTile::n256, 132) ==
        staged_estimate_us(square, TmaTile::n256, 132));
}

TEST_CASE("auto: aligned 16-bit shapes copy B to rows of 128-byte multiples where the model says it pays",
          "[matmul][auto][padded]") {
  const auto kernel_of = [](Dims d) { return plan_auto(d, DType::bf16, kH100, true).kernel; };
  // Measured on the H200 (NOTES.md, "128-byte rows", with C copied too): the padded call won at
  // 6472x6584x3176 (463.7 against 566.3 µs) and 4096x4104x4096 (251.6 against 263.6), lost at
  // 8192x8200x1024 (275.3 against 260.9: copies of a large C for a short K).
  CHECK(padded_kernel(kernel_of({6472, 6584, 3176})));
  CHECK(padded_kernel(kernel_of({4096, 4104, 4096})));
  // Session 28: copying C as well cost more than it saved; B alone won at 8192x8200x1024 (208.5
  // against 250.3), 6472x6584x3176 (411.9 against 564.6) and 4096x4104x4096 (235.6 against 275.2).
  CHECK(padded_kernel(kernel_of({8192, 8200, 1024})));
  // A's rows cost nothing off 128 bytes, and N a multiple of 64 needs no copy.
  CHECK(kernel_of({4096, 4096, 4104}) == AutoKernel::wgmma_tma_staged);
  CHECK(kernel_of({1024, 8192, 4104}) == AutoKernel::wgmma_tma_staged);
  CHECK_FALSE(padded_kernel(kernel_of({4096, 4096, 4096})));
  const AutoPlan p = plan_auto({6472, 6584, 3176}, DType::bf16, kH100, true);
  const PaddedLayout l = padded_layout({6472, 6584, 3176}, true, true, true);
  CHECK_FALSE(l.pad_a);
  CHECK(l.pad_b);
  CHECK_FALSE(l.pad_c);
  CHECK(p.padded_bytes == l.bytes);
}

TEST_CASE("auto: odd K with N a multiple of 8 but not of 64 copies B only where the model says it pays",
          "[matmul][auto][padded]") {
  // A is copied (K % 8 != 0); B's rows TMA could read. Two rounds of tiles over a B of 17 MB: its
  // copy (about 15 µs) costs more than the kernel's short rows save.
  const Dims short_k{1024, 8200, 1023};
  const AutoPlan p = plan_auto(short_k, DType::bf16, kH100, true);
  REQUIRE(padded_kernel(p.kernel));
  CHECK(p.short_rows == ShortRows::kept);
  const PaddedLayout kept = padded_layout(short_k, true, true, true, ShortRows::kept);
  CHECK(kept.pad_a);
  CHECK_FALSE(kept.pad_b);
  CHECK_FALSE(kept.pad_c);
  CHECK(p.padded_bytes == kept.bytes);
  CHECK(padded_estimate_us(short_k, kept, TmaTile::n256, 132) <
        padded_estimate_us(short_k, padded_layout(short_k, true, true, true), TmaTile::n256, 132));
  // More rows of tiles over the same B: the copy pays (8192x8200x1023: measured 265.7 µs keeping
  // the short rows, session 28), as with long K.
  for (const Dims copies : {Dims{8192, 8200, 1023}, Dims{6472, 6584, 3175}}) {
    const AutoPlan p_copies = plan_auto(copies, DType::bf16, kH100, true);
    REQUIRE(padded_kernel(p_copies.kernel));
    CHECK(p_copies.short_rows == ShortRows::copied);
  }
  // Misaligned pointers copy everything whatever the choice.
  const AutoPlan misaligned = plan_auto(short_k, DType::bf16, kH100, false);
  REQUIRE(padded_kernel(misaligned.kernel));
  CHECK(misaligned.padded_bytes == padded_layout_bound(short_k).bytes);
}
