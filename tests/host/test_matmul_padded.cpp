// wgmma_tma_padded's layout arithmetic (kernels/matmul/matmul_padded_layout.hpp) and where matmul's
// `auto` sends 16-bit shapes TMA cannot address (kernels/matmul/matmul_auto_padded.hpp). No GPU.
#include "kernels/matmul/matmul_auto_padded.hpp"
#include "kernels/matmul/matmul_auto_plan.hpp"
#include "kernels/matmul/matmul_padded_layout.hpp"
#include "support/catch.hpp"

#include <cstddef>
#include <vector>

using namespace kbench;
using namespace kbench::matmul;

namespace {

const AutoDevice kH100{132, true};

bool padded_kernel(AutoKernel k) { return k == AutoKernel::wgmma_tma_padded || k == AutoKernel::wgmma_tma_padded_n128; }

}  // namespace

TEST_CASE("padded rows: a multiple of 8 elements (16 bytes of fp16/bf16), never shorter than the row",
          "[matmul][padded]") {
  CHECK(padded_pitch(1) == 8);
  CHECK(padded_pitch(7) == 8);
  CHECK(padded_pitch(8) == 8);
  CHECK(padded_pitch(9) == 16);
  CHECK(padded_pitch(513) == 520);
  CHECK(padded_pitch(4097) == 4104);
  CHECK(padded_pitch(65537) == 65544);
}

TEST_CASE("padded layout of the zoo's 1023x4097x513: all three operands copied, 256-byte aligned, end to end",
          "[matmul][padded]") {
  const Dims d{1023, 4097, 513};
  const PaddedLayout l = padded_layout(d, true, true, true);
  CHECK(l.pad_a);
  CHECK(l.pad_b);
  CHECK(l.pad_c);
  CHECK(l.k_pitch == 520);
  CHECK(l.n_pitch == 4104);
  // A: 1023 × 520 × 2 = 1,063,920 B → 1,063,936; B: 513 × 4104 × 2 = 4,210,704 → 4,210,944;
  // C: 1023 × 4104 × 2 = 8,396,784 → 8,396,800.
  CHECK(l.a_offset == 0);
  CHECK(l.b_offset == 1063936);
  CHECK(l.c_offset == 1063936 + 4210944);
  CHECK(l.bytes == 13671680);
  CHECK(padded_kernels(l) == 3);
  // A read and written (1023 × (513 + 520) × 2), B (513 × (4097 + 4104) × 2), C read and written
  // (2 × 1023 × 4097 × 2).
  CHECK(padded_extra_bytes(d, l) == Approx(27292668.0));
}

TEST_CASE("padded layout copies only what TMA cannot address", "[matmul][padded]") {
  SECTION("K odd, N a multiple of 8: A alone, one copy kernel before the GEMM") {
    const PaddedLayout l = padded_layout({1000, 1024, 999}, true, true, true);
    CHECK(l.pad_a);
    CHECK_FALSE(l.pad_b);
    CHECK_FALSE(l.pad_c);
    CHECK(l.k_pitch == 1000);
    CHECK(l.n_pitch == 1024);
    CHECK(l.bytes == 2000128);  // 1000 × 1000 × 2 = 2,000,000 B, rounded up to 256
    CHECK(padded_kernels(l) == 2);
    CHECK(padded_extra_bytes({1000, 1024, 999}, l) == Approx((1000.0 * 999 + 1000.0 * 1000) * 2));
  }
  SECTION("N odd, K a multiple of 8: B and C, B first in the scratch") {
    const PaddedLayout l = padded_layout({100, 7, 64}, true, true, true);
    CHECK_FALSE(l.pad_a);
    CHECK(l.pad_b);
    CHECK(l.pad_c);
    CHECK(l.b_offset == 0);
    CHECK(l.c_offset == 1024);  // 64 × 8 × 2 = 1,024 B
    CHECK(l.bytes == 1024 + 1792);  // 100 × 8 × 2 = 1,600 → 1,792
    CHECK(padded_kernels(l) == 3);
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
          CHECK(l.k_pitch % 8 == 0);
          CHECK(l.n_pitch % 8 == 0);
          CHECK(l.k_pitch >= k);
          CHECK(l.k_pitch < k + 8);
          CHECK(l.n_pitch >= n);
          CHECK(l.n_pitch < n + 8);
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
          CHECK(l.pad_b == (n % 8 != 0 || !(alignment & 2)));
          CHECK(l.pad_c == (n % 8 != 0 || !(alignment & 4)));
        }
      }
    }
  }
}

TEST_CASE("auto: padded plans only for unaligned 16-bit shapes, with scratch for the layout they run, where the "
          "model puts them ahead of the element-wise wgmma kernel", "[matmul][auto][padded]") {
  const std::vector<int> extents{1, 7, 64, 100, 129, 513, 1000, 1023, 1024, 4096, 4097, 8191};
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
            CHECK_FALSE(aligned);
            const PaddedLayout layout = padded_layout(d, aligned_pointers, aligned_pointers, aligned_pointers);
            CHECK(p.padded_bytes == layout.bytes);
            CHECK(p.padded_bytes > 0);
            CHECK(p.splits == 1);
            CHECK(p.workspace_bytes == 0);
            CHECK(p.transposed_b_bytes == 0);
            CHECK(static_cast<double>(m) * n * k > kAutoSmallVolume);
            const TmaTile tile = p.kernel == AutoKernel::wgmma_tma_padded ? TmaTile::n256 : TmaTile::n128;
            const int splits = 2 * ((m + 127) / 128) * ((n + 255) / 256) > device.sm_count ? 1 : 2;
            CHECK(padded_estimate_us(d, layout, tile, device.sm_count) <
                  wgmma_elementwise_estimate_us(d, splits, device.sm_count));
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
  CHECK(padded_estimate_us(zoo, l, TmaTile::n128, 132) == Approx(kernel + 2 * 2.0 + 27292668.0 / 2.5e6));
  // The element-wise kernel: 136 tiles in 2 waves of 9 steps at 2.86 µs (its measured 51.5 µs).
  CHECK(wgmma_elementwise_estimate_us(zoo, 1, 132) == Approx(2 * 9 * 2.86));
  CHECK(wgmma_elementwise_estimate_us(zoo, 1, 132) > 1.5 * padded_estimate_us(zoo, l, TmaTile::n128, 132));
  // An aligned problem's padded call is the staged kernel alone.
  const Dims square{4096, 4096, 4096};
  CHECK(padded_estimate_us(square, padded_layout(square, true, true, true), TmaTile::n256, 132) ==
        staged_estimate_us(square, TmaTile::n256, 132));
}
