// matmul's `auto` rule (kernels/matmul/matmul_auto_plan.hpp): which kernel and how many K splits
// each class of problem gets, and the limits every plan keeps. No GPU.
#include "kernels/matmul/matmul_auto_plan.hpp"
#include "kernels/matmul/matmul_auto_split.hpp"
#include "kernels/matmul/matmul_gemv.hpp"
#include "kernels/matmul/matmul_kernels.hpp"
#include "support/catch.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

using namespace kbench;
using namespace kbench::matmul;

namespace {

/// Shared memory an SM holds: Hopper 228 KB, the A100 164 KB, Ada 100 KB.
constexpr std::int64_t kHopperShared = 233472, kA100Shared = 167936, kAdaShared = 102400;
const AutoDevice kH100{132, true, kHopperShared};
const AutoDevice kA100{108, false, kA100Shared};
/// 132 SMs without wgmma: the tf32 plans of the mma.sync model alone (test_matmul_auto_tf32.cpp
/// checks where wgmma_tf32 takes over from it on the H100).
const AutoDevice kH100MmaSync{132, false, kHopperShared};

AutoPlan plan(int m, int n, int k, DType dtype = DType::f16, AutoDevice device = kH100, bool aligned = true) {
  return plan_auto({m, n, k}, dtype, device, aligned);
}


/// The K per step that a split-K kernel's launcher divides among the splits.
int split_step_k(AutoKernel kernel) {
  switch (kernel) {
    case AutoKernel::wgmma_split_k:
    case AutoKernel::wgmma_tma_split_k:
    case AutoKernel::wgmma_tma_split_k_n192:
    case AutoKernel::wgmma_tma_split_k_n128: return kWgmmaStepK;
    case AutoKernel::register_blocked_split_k: return 8;
    case AutoKernel::small_simt_split_k: return 128;  // a round of 8 warps' chunks of 16 k
    case AutoKernel::outer_simt_split_k: return 128;
    case AutoKernel::tensor_core_split_k: return 16;
    case AutoKernel::tensor_core_small_split_k: return 32;
    case AutoKernel::wgmma_tf32_split_k: return kWgmmaTf32StepK;
    default: return 0;
  }
}

bool fp32_kernel(AutoKernel k) {
  return k == AutoKernel::register_blocked || k == AutoKernel::register_blocked_split_k ||
         k == AutoKernel::small_simt || k == AutoKernel::small_simt_split_k || k == AutoKernel::outer_simt ||
         k == AutoKernel::outer_simt_split_k;
}

bool tf32_kernel(AutoKernel k, bool wgmma) {
  if (wgmma && (k == AutoKernel::wgmma_tf32 || k == AutoKernel::wgmma_tf32_split_k)) return true;
  return k == AutoKernel::tensor_core || k == AutoKernel::tensor_core_split_k ||
         k == AutoKernel::tensor_core_small_split_k;
}

}  // namespace

TEST_CASE("auto: fp32 runs the SIMT kernels, tf32 the mma.sync ones (and TF32 wgmma on Hopper), on any shape of "
          "more than 8 rows and any device",
          "[matmul][auto]") {
  for (const Dims d : {Dims{4096, 4096, 4096}, Dims{16, 4096, 4096}, Dims{256, 256, 65536}, Dims{9, 13, 5},
                       Dims{3000, 1000, 2000}, Dims{17, 4099, 8191}}) {
    for (const AutoDevice device : {kH100, kA100}) {
      INFO(d.m << "x" << d.n << "x" << d.k << " on " << device.sm_count << " SMs");
      CHECK(fp32_kernel(plan(d.m, d.n, d.k, DType::f32, device).kernel));
      CHECK(tf32_kernel(plan(d.m, d.n, d.k, DType::tf32, device).kernel, device.wgmma));
    }
  }
}

TEST_CASE("auto: fp32 and tf32 split K where few tiles or a partial wave leave SMs idle", "[matmul][auto]") {
  struct Case {
    Dims dims;
    DType dtype;
    AutoKernel kernel;
    int splits;
  };
  // The choices the model makes on 132 SMs (NOTES.md, "fp32 and TF32 split-K", has each one's sums),
  // by class: large square, small M, large K, non-square.
  const std::vector<Case> cases{
      {{4096, 4096, 4096}, DType::f32, AutoKernel::register_blocked, 1},          // 1024 tiles: 8 per SM
      {{8192, 8192, 8192}, DType::f32, AutoKernel::register_blocked, 1},
      {{512, 512, 32768}, DType::f32, AutoKernel::register_blocked_split_k, 16},  // 16 tiles × 16: 2 per SM
      {{256, 256, 65536}, DType::f32, AutoKernel::register_blocked_split_k, 64},
      {{3000, 1000, 2000}, DType::f32, AutoKernel::register_blocked_split_k, 2},  // 192 tiles: 1.45 waves; 311.1 against whole K's 385.1 (session 16)
      {{1024, 1024, 1024}, DType::f32, AutoKernel::small_simt, 1},                // 2048 small tiles
      {{32, 4096, 4096}, DType::f32, AutoKernel::small_simt_split_k, 2},  // 128 tiles of 32×32: 39.7 µs against 16×32 whole's 40.5 (session 21)
      {{16, 4096, 4096}, DType::f32, AutoKernel::small_simt, 1},
      {{64, 8192, 8192}, DType::f32, AutoKernel::outer_simt, 1},  // 256 tiles of 32×64: 202.5 µs against 32×32's 246.1 (H200, session 22)
      {{4096, 4096, 4096}, DType::tf32, AutoKernel::tensor_core, 1},
      {{2048, 2048, 2048}, DType::tf32, AutoKernel::tensor_core, 1},
      {{32, 4096, 4096}, DType::tf32, AutoKernel::tensor_core_small_split_k, 3},  // 128 tiles of 32×32
      {{512, 512, 32768}, DType::tf32, AutoKernel::tensor_core_split_k, 16},
      {{64, 8192, 8192}, DType::tf32, AutoKernel::tensor_core_split_k, 4},
      {{3000, 1000, 2000}, DType::tf32, AutoKernel::tensor_core, 1},   // 192 tiles: the split's 24 MB of slices cost more
      {{2000, 3000, 1000}, DType::tf32, AutoKernel::tensor_core, 1}};
  for (const Case& c : cases) {
    INFO(c.dims.m << "x" << c.dims.n << "x" << c.dims.k << " " << (c.dtype == DType::f32 ? "fp32" : "tf32"));
    const AutoPlan p = plan(c.dims.m, c.dims.n, c.dims.k, c.dtype, c.dtype == DType::tf32 ? kH100MmaSync : kH100);
    CHECK(auto_kernel_name(p.kernel) == auto_kernel_name(c.kernel));
    CHECK(p.splits == c.splits);
    CHECK(p.workspace_bytes == (c.splits == 1 ? 0 : std::size_t(p.splits) * c.dims.m * c.dims.n * sizeof(float)));
  }
}

TEST_CASE("auto: fp32 of 17-64 rows takes the taller small tiles, others the 16-row one", "[matmul][auto]") {
  struct Case {
    Dims dims;
    SimtSmallRows rows;
  };
  // H100, session 21 (NOTES.md, "Taller small tiles"): 47x8192x8192 48×32 184 µs, 32×32 235, 16×32
  // 258; 64x8192x8192 32×32 243, 48×32 348, 16×32 373; 24x8192x4096 32×32 63, 16×32 84-96.
  for (const Case& c : {Case{{47, 8192, 8192}, SimtSmallRows::r48}, Case{{40, 16384, 2048}, SimtSmallRows::r48},
                        Case{{24, 8192, 4096}, SimtSmallRows::r32}, Case{{16, 4096, 4096}, SimtSmallRows::r16},
                        Case{{12, 8192, 8192}, SimtSmallRows::r16}}) {
    const AutoPlan p = plan(c.dims.m, c.dims.n, c.dims.k, DType::f32);
    INFO(c.dims.m << "x" << c.dims.n << "x" << c.dims.k << ": " << auto_kernel_name(p.kernel) << ", "
                  << simt_small_rows(p.simt_rows) << " rows");
    CHECK(runs_small_simt(p));
    CHECK(p.simt_rows == c.rows);
  }
  // Taller problems never weigh the 32- and 48-row tiles; the outer-product ones up to 128 rows.
  for (const Dims d : {Dims{65, 8192, 8192}, Dims{200, 72, 264}, Dims{1024, 1024, 1024}, Dims{96, 3001, 2999},
                       Dims{129, 4096, 4096}}) {
    bool outer = false;
    for (const SplitKernel& kernel : fp32_kernels(d, true)) {
      CHECK(kernel.simt_rows == SimtSmallRows::r16);
      outer = outer || kernel.whole == AutoKernel::outer_simt;
    }
    INFO(d.m << "x" << d.n << "x" << d.k);
    CHECK(outer == (d.m <= kOuterMaxRows));
  }
}

TEST_CASE("auto: fp32 of 17-128 rows takes the outer-product tiles where its model puts them ahead, with Aᵀ in the "
          "workspace",
          "[matmul][auto]") {
  struct Case {
    Dims dims;
    OuterSimtTile tile;
    int splits;
  };
  // H200, session 22 (NOTES.md, "Outer-product small tiles"), best of each kernel: 64x8192x8192
  // 32×64 202.5 µs, 32×32 246.1; 56x3001x20011 (N, K odd) 64×32 split 8 224.5, 32×32 289.0, 32×64
  // 266.3; 61x4096x12289 (K odd) 32×64 158.5-162.4, 32×32 192.1.
  for (const Case& c : {Case{{64, 8192, 8192}, OuterSimtTile::rows32_cols64, 1},
                        Case{{56, 3001, 20011}, OuterSimtTile::rows64_cols32, 8},
                        Case{{61, 4096, 12289}, OuterSimtTile::rows32_cols64, 2}}) {
    const AutoPlan p = plan(c.dims.m, c.dims.n, c.dims.k, DType::f32);
    INFO(c.dims.m << "x" << c.dims.n << "x" << c.dims.k << ": " << auto_kernel_name(p.kernel) << ", " << p.splits);
    CHECK(runs_outer_simt(p));
    CHECK(p.outer_tile == c.tile);
    CHECK(p.splits == c.splits);
    // Aᵀ: K rounded up to 16 rows of 64 floats, in front of the slices.
    CHECK(p.padded_bytes == static_cast<std::size_t>(ceil_div64(c.dims.k, 16) * 16 * 64 * 4));
    CHECK(p.workspace_bytes == (c.splits == 1 ? 0 : std::size_t(c.splits) * c.dims.m * c.dims.n * sizeof(float)));
  }
  // Past 64 rows, against the 128×128 tile (H100, session 22, auto / cuBLAS): 96x8192x8192 32×64
  // 319.6 µs / 337.1 (the 128×128 split plan took 403.9), 127x4099x65 11.9 / 9.0 (128×128 19.2).
  CHECK(runs_outer_simt(plan(96, 8192, 8192, DType::f32)));
  CHECK(runs_outer_simt(plan(127, 4099, 65, DType::f32)));
  // 80x3001x12007 (N odd): 128×128 split 11 239.2, the 32×64 tile's best 245.9.
  CHECK_FALSE(runs_outer_simt(plan(80, 3001, 12007, DType::f32)));
  // Where the 48-row tile's rows fit M better, it stays (47x8192x8192: 185.3 µs against 200.8).
  CHECK(runs_small_simt(plan(47, 8192, 8192, DType::f32)));
  CHECK(runs_small_simt(plan(37, 12653, 6109, DType::f32)));
  // The transpose is charged to the outer tiles' estimates, and B's 4-byte copies cost the 32×64
  // tile (32 a lane per chunk) more than the 64×32 one (16).
  const Dims odd{56, 3001, 20011};
  const Dims even{56, 3000, 20011};
  for (const SplitKernel& kernel : fp32_kernels(odd, true)) {
    if (kernel.whole != AutoKernel::outer_simt) continue;
    CHECK(kernel.fixed_us > 0);
    for (const SplitKernel& aligned : fp32_kernels(even, true)) {
      if (aligned.whole != AutoKernel::outer_simt || aligned.outer_tile != kernel.outer_tile) continue;
      CHECK(kernel.step_us > aligned.step_us);
    }
  }
  // No Aᵀ past the workspace cap: 64 × 2^19 floats is exactly 128 MB.
  for (const SplitKernel& kernel : fp32_kernels({40, 64, 1 << 19}, true)) CHECK(kernel.whole != AutoKernel::outer_simt);
}

TEST_CASE("auto: fp32 small-tile plans pad A where K is not a multiple of 4 or a pointer is misaligned, for few "
          "rows only",
          "[matmul][auto]") {
  struct Case {
    Dims dims;
    bool aligned_pointers;
    std::size_t padded_bytes;  ///< M × K rounded up to 4 floats, × 4 bytes, rounded up to 256; 0: not padded
  };
  for (const Case& c : {Case{{37, 12653, 6109}, true, 904704},  // 37 × 6112 × 4 = 904,576
                        Case{{33, 10007, 4001}, true, 528640},   // 33 × 4004 × 4 = 528,528
                        Case{{16, 4096, 4096}, true, 0},         // every 16-byte path
                        Case{{16, 4096, 4096}, false, 262144},   // a misaligned pointer: 16 × 4096 × 4
                        Case{{45, 2003, 1000}, true, 0}}) {      // N odd, K a multiple of 4: B 4-byte, A as given
    const AutoPlan p = plan(c.dims.m, c.dims.n, c.dims.k, DType::f32, kH100, c.aligned_pointers);
    INFO(c.dims.m << "x" << c.dims.n << "x" << c.dims.k << (c.aligned_pointers ? "" : ", misaligned") << ": "
                  << auto_kernel_name(p.kernel));
    CHECK(runs_small_simt(p));
    CHECK(p.padded_bytes == c.padded_bytes);
  }
  // Off the 16-byte paths, problems of more than 128 rows (64 for the small tiles), or whose padded
  // A or Aᵀ would pass the workspace cap, keep the 128×128 kernel's element-wise copies and copy
  // nothing (A of 16384 rows would be a 268 MB copy per call).
  for (const Dims d : {Dims{16384, 64, 4095}, Dims{4096, 100, 999}, Dims{129, 4099, 65}, Dims{1024, 1023, 1024},
                       Dims{33, 100, 9999999}}) {
    for (bool aligned_pointers : {true, false}) {
      const AutoPlan p = plan(d.m, d.n, d.k, DType::f32, kH100, aligned_pointers);
      INFO(d.m << "x" << d.n << "x" << d.k << (aligned_pointers ? "" : ", misaligned") << ": "
                  << auto_kernel_name(p.kernel));
      CHECK((p.kernel == AutoKernel::register_blocked || p.kernel == AutoKernel::register_blocked_split_k));
      CHECK(p.padded_bytes == 0);
      // tf32 may take its 32×32 tile off the 16-byte paths (4-byte copies), but only split: its
      // whole-K launcher runs the 128×128 tile there.
      const AutoPlan t = plan(d.m, d.n, d.k, DType::tf32, kH100, aligned_pointers);
      if (t.kernel == AutoKernel::tensor_core_small_split_k) CHECK(t.splits >= 2);
    }
  }
  for (const SplitKernel& kernel : tf32_kernels(false, 37)) {
    if (kernel.tile_m == kTf32SmallTile) CHECK(kernel.whole_tile == WholeTile::never);
  }
  // The padded copy is charged to every small tile's estimate.
  const Dims odd{37, 12653, 6109};
  for (const SplitKernel& kernel : fp32_kernels(odd, true)) {
    if (kernel.whole != AutoKernel::small_simt) continue;
    CHECK(kernel.fixed_us > 0);
    SplitKernel uncharged = kernel;
    uncharged.fixed_us = 0;
    CHECK(split_estimate_us(odd, kernel, 2, 132) == split_estimate_us(odd, uncharged, 2, 132) + kernel.fixed_us);
  }
  // The few-row odd shapes of the fifth draw run the small tiles, not the 128×128 kernel split 8 ways.
  CHECK(plan(37, 12653, 6109, DType::f32).kernel == AutoKernel::small_simt_split_k);
  CHECK(auto_workspace_bound({37, 12653, 6109}) >= plan(37, 12653, 6109, DType::f32).workspace_bytes);
}

TEST_CASE("auto: the fp32/tf32 model picks the kernel and split count it estimates fastest", "[matmul][auto]") {
  for (const Dims d : {Dims{512, 512, 32768}, Dims{3000, 1000, 2000}, Dims{32, 4096, 4096}, Dims{1, 4096, 4096},
                       Dims{257, 129, 65537}, Dims{4096, 4096, 4096}, Dims{1024, 1024, 1024}, Dims{8192, 1024, 2048},
                       Dims{64, 8192, 8192}}) {
    for (bool tf32 : {false, true}) {
      const std::vector<SplitKernel> kernels = tf32 ? tf32_kernels(true, d.m) : fp32_kernels(d, true);
      const AutoPlan p = plan_split_model(d, kernels, 132);
      double best = 1e30;
      double chosen = -1;
      for (const SplitKernel& kernel : kernels) {
        const int splits = best_splits(d, kernel, 132);
        if (splits == 0) {
          // No whole-K plan for this tile (its launcher runs the other one) and K too short to split.
          CHECK_FALSE(whole_runs_tile(d, kernel, 132));
          continue;
        }
        CHECK((splits > 1 || whole_runs_tile(d, kernel, 132)));
        const double us = split_estimate_us(d, kernel, splits, 132);
        best = std::min(best, us);
        // Several tiles may share a kernel (tf32's whole-K tensor_core, planned on two tiles): the faster counts.
        if ((splits == 1 ? kernel.whole : kernel.split) == p.kernel && splits == p.splits) chosen = chosen < 0 ? us : std::min(chosen, us);
        // best_splits is no worse than any count it may take.
        for (int s = 1; s <= kMaxSplitK; ++s) {
          const std::int64_t steps = (std::int64_t{d.k} + kernel.step_k - 1) / kernel.step_k;
          if (s == 1 && !whole_runs_tile(d, kernel, 132)) continue;
          if (s > 1 && (steps / s < kernel.min_steps ||
                        std::size_t(s) * d.m * d.n * sizeof(float) > kAutoWorkspaceCapBytes)) {
            continue;
          }
          INFO(d.m << "x" << d.n << "x" << d.k << " " << auto_kernel_name(kernel.split) << " s=" << s);
          CHECK(us <= split_estimate_us(d, kernel, s, 132) + 1e-9);
        }
      }
      INFO(d.m << "x" << d.n << "x" << d.k << (tf32 ? " tf32 " : " fp32 ") << auto_kernel_name(p.kernel));
      CHECK(chosen == best);
    }
  }
}

TEST_CASE("auto: the split estimate charges the reduction and never beats reading A and B", "[matmul][auto]") {
  const SplitKernel big = fp32_kernels({4096, 4096, 4096}, true).front();
  const Dims d{4096, 4096, 4096};
  // 4096³ on 132 SMs: doubling the splits doubles the blocks per SM and halves their steps, so
  // only the reduction's cost differs.
  CHECK(split_estimate_us(d, big, 2, 132) > split_estimate_us(d, big, 1, 132));
  // 1x4096x4096 reads 64 MB of B: at least ~21 µs however it is split.
  for (int s = 1; s <= kMaxSplitK; ++s) CHECK(split_estimate_us({1, 4096, 4096}, big, s, 132) >= 20.0);
}

TEST_CASE("auto: on the H100 rows of 2026-11-24 the model ranks the measured-faster plan first", "[matmul][auto]") {
  // Each row: the plain whole-K variant's plan (its launcher's tile) and auto's; `split_faster`: the
  // measured µs (cold medians, NOTES.md) put auto's split plan ahead of the whole-K kernel.
  struct Row {
    Dims dims;
    bool tf32;
    bool split_faster;
  };
  const std::vector<Row> rows{{{512, 512, 32768}, false, true},   // 487.1 against 521.0
                              {{3000, 1000, 2000}, false, true},  // session 16: async 2-split 311.1 against whole K's 385.1
                              {{32, 4096, 4096}, false, true},    // session 21: 32×32 split 2 39.7 against 16×32 whole 40.5
                              {{32, 4096, 4096}, true, true},     // 37.5 against 136.2
                              {{512, 512, 32768}, true, true},    // 129.3 against 455.4
                              {{3000, 1000, 2000}, true, false},  // 142.2 against 105.7
                              {{64, 8192, 8192}, true, true}};    // 115.5 against 274.1
  for (const Row& r : rows) {
    const std::vector<SplitKernel> kernels = r.tf32 ? tf32_kernels(true, r.dims.m) : fp32_kernels(r.dims, true);
    double whole_us = -1;
    double split_us = 1e30;
    for (const SplitKernel& kernel : kernels) {
      // The plain variant's launcher runs the first listed tile whose whole-K kernel runs
      // (fp32: 128×128 when its tiles fill the SMs, else 16×32; tf32: the one tile that qualifies).
      if (whole_us < 0 && whole_runs_tile(r.dims, kernel, 132)) whole_us = split_estimate_us(r.dims, kernel, 1, 132);
      const std::int64_t steps = (std::int64_t{r.dims.k} + kernel.step_k - 1) / kernel.step_k;
      for (int s = 2; s <= kMaxSplitK && steps / s >= kernel.min_steps; ++s) {
        split_us = std::min(split_us, split_estimate_us(r.dims, kernel, s, 132));
      }
    }
    INFO(r.dims.m << "x" << r.dims.n << "x" << r.dims.k << (r.tf32 ? " tf32" : " fp32") << ": whole " << whole_us
                  << " µs, best split " << split_us << " µs");
    REQUIRE(whole_us > 0);
    const AutoPlan p = plan(r.dims.m, r.dims.n, r.dims.k, r.tf32 ? DType::tf32 : DType::f32, kH100MmaSync);
    CHECK((p.splits > 1) == r.split_faster);
    if (!r.split_faster) CHECK(whole_us < split_us);
  }
}

TEST_CASE("auto: a last wave of fewer blocks than an SM holds costs less than a full round, more than its share",
          "[matmul][auto]") {
  CHECK(rounds_for(4, 2) == 2.0);
  CHECK(rounds_for(3, 3) == 1.0);
  for (int resident : {2, 3, 4}) {
    for (int last = 1; last < resident; ++last) {
      INFO(last << " of " << resident);
      const double alone = rounds_for(last, resident);
      CHECK(alone < 1.0);
      CHECK(alone > static_cast<double>(last) / resident);
      CHECK(rounds_for(resident + last, resident) == Approx(1.0 + alone));
    }
  }
}

TEST_CASE("auto: 16-bit without wgmma runs tensor_core", "[matmul][auto]") {
  for (DType dtype : {DType::f16, DType::bf16}) {
    const AutoPlan p = plan(256, 256, 65536, dtype, kA100);
    CHECK(p.kernel == AutoKernel::tensor_core);
    CHECK(p.workspace_bytes == 0);
  }
}

TEST_CASE("auto: 16-bit on Hopper, whole tiles (staged TMA) when they fill half the SMs, tensor_core when tiny",
          "[matmul][auto]") {
  CHECK(plan(4096, 4096, 4096).kernel == AutoKernel::wgmma_tma_staged);       // 512 tiles
  CHECK(plan(8192, 8192, 8192, DType::bf16).kernel == AutoKernel::wgmma_tma_staged);
  CHECK(plan(2048, 2048, 2048).kernel == AutoKernel::wgmma_tma_staged);       // 128 tiles: no split
  CHECK(plan(8192, 1024, 4096).kernel == AutoKernel::wgmma_tma_staged);
  CHECK(plan(8192, 1024, 2048).kernel == AutoKernel::wgmma_tma_staged);       // the zoo's non-square shapes
  CHECK(plan(1024, 8192, 512, DType::bf16).kernel == AutoKernel::wgmma_tma_staged);
  // 78 SMs: 40 tiles of 128x256 (one round) or 72 of 128x128 (one round of half the MMAs).
  CHECK(plan(1000, 1032, 1016, DType::f16, AutoDevice{78, true}).kernel == AutoKernel::wgmma_tma_staged_n128);
  // 132 SMs: the 128x256 tiles would split K 3 ways; 72 whole-K 128x128 tiles of 16 steps won
  // (14.7 against 20.7 µs, bf16, session 16).
  CHECK(plan(1000, 1032, 1016).kernel == AutoKernel::wgmma_tma_staged_n128);
  CHECK(plan(512, 512, 512).kernel == AutoKernel::tensor_core);        // at kAutoSmallVolume
  CHECK(plan(256, 256, 256).kernel == AutoKernel::tensor_core);
  CHECK(plan(127, 4099, 65).kernel == AutoKernel::tensor_core);
}

TEST_CASE("auto: 128x192 or 128x128 staged tiles where they leave a smaller last wave, or instead of 2 K splits",
          "[matmul][auto]") {
  struct Case {
    Dims dims;
    AutoKernel kernel;
  };
  // On 132 SMs; rounds = ceil(tiles / 132), a 128x192 round costing kAutoN192TileCost (0.7875) and a
  // 128x128 one kAutoNarrowTileCost (0.575) of a 128x256 one, less where edge tiles are cheaper
  // (matmul_tile_schedule.hpp); a narrower tile must be 5 % cheaper (kAutoNarrowerTileGain).
  // Tiles: 128x256 / 128x192 / 128x128.
  const std::vector<Case> cases{
      {{1536, 4096, 1024}, AutoKernel::wgmma_tma_staged_n192},  // 192: 2 rounds; 264: 2 × 0.7875 = 1.58; 384: 3 × 0.575 = 1.73
      {{3072, 3072, 1024}, AutoKernel::wgmma_tma_staged_n192},  // 288: 3; 384: 3 → 2.36; 576: 5 → 2.88
      {{3072, 3072, 3072}, AutoKernel::wgmma_tma_staged_n192},  // the same tiles
      {{6144, 768, 3072}, AutoKernel::wgmma_tma_staged_n192},   // 144: 2; 192: 2 → 1.58; 288: 3 → 1.73
      // 153 tiles, edges last: 1.575; 187 of 128x192: 1.575; 289 narrow, 33 edges: 1.51, not 5 % under
      {{2053, 2056, 264}, AutoKernel::wgmma_tma_staged},
      {{2560, 2560, 2560}, AutoKernel::wgmma_tma_staged},       // 200: 2; 280, edges last: 1.94 (not 5 % under); 400: 2.3
      {{1024, 8192, 512}, AutoKernel::wgmma_tma_staged},        // 256: 2; 512: 4 → 2.3
      {{2048, 2048, 2048}, AutoKernel::wgmma_tma_staged},       // 128: 1; 256: 2 → 1.15
      {{4096, 4096, 4096}, AutoKernel::wgmma_tma_staged},       // 512: 4; 1024: 8 → 4.6
      {{512, 4096, 2048}, AutoKernel::wgmma_tma_staged_n128},   // 64 tiles: 2 splits → 128 whole 128x128 tiles (88 of 128x192: 0.79)
      {{1024, 2048, 1024}, AutoKernel::wgmma_tma_staged_n128},  // the same
      {{1024, 1024, 32768}, AutoKernel::wgmma_tma_split_k},     // 32 tiles: 4 splits stay
      {{64, 8192, 8192}, AutoKernel::wgmma_split_k}};  // under a tile of rows: cp.async
  for (const Case& c : cases) {
    INFO(c.dims.m << "x" << c.dims.n << "x" << c.dims.k);
    const AutoPlan p = plan(c.dims.m, c.dims.n, c.dims.k);
    CHECK(auto_kernel_name(p.kernel) == auto_kernel_name(c.kernel));
    if (split_step_k(p.kernel) == 0) {
      CHECK(p.splits == 1);
      CHECK(p.workspace_bytes == 0);
    }
  }
  // Unaligned shapes take the same tile through padded copies.
  CHECK(plan(1536, 4097, 1024).kernel == AutoKernel::wgmma_tma_padded_n128);
  CHECK(plan(1536, 4096, 1024, DType::f16, kH100, false).kernel == AutoKernel::wgmma_tma_padded_n128);
  CHECK(plan(1024, 8191, 512).kernel == AutoKernel::wgmma_tma_padded);
}

TEST_CASE("auto: 3+ K splits of 128x256 tiles give way to whole K on 128x128 tiles when M fills a tile, K is short and the tiles fill a quarter of the SMs",
          "[matmul][auto]") {
  // H100, session 16, bf16 cold µs (split / whole 128x128): each side of the rule measured.
  for (const Dims d : {Dims{1000, 1032, 1016}, Dims{768, 1024, 2048}, Dims{704, 1504, 3000}, Dims{512, 2048, 4096},
                       Dims{256, 4096, 4096}, Dims{1000, 1000, 1000}}) {
    INFO(d.m << "x" << d.n << "x" << d.k);
    CHECK(staged_whole_k_beats_split(d, 132));
    CHECK(plan(d.m, d.n, d.k, DType::bf16).kernel == AutoKernel::wgmma_tma_staged_n128);
  }
  // 90x5120x5120 31.3 / 32.7 and 64x11008x4096 41.6 / 44.3 (M under a tile), 16x8192x8192 52.2 /
  // 76.4 (M under a tile; 128 steps), 1024x1024x32768 117.2 / 171.4 (512 steps).
  for (const Dims d : {Dims{90, 5120, 5120}, Dims{64, 11008, 4096}, Dims{16, 8192, 8192}, Dims{1024, 1024, 32768}}) {
    INFO(d.m << "x" << d.n << "x" << d.k);
    CHECK_FALSE(staged_whole_k_beats_split(d, 132));
    CHECK(plan(d.m, d.n, d.k, DType::bf16).kernel ==
          (d.m >= 128 ? AutoKernel::wgmma_tma_split_k : AutoKernel::wgmma_split_k));
  }
  CHECK_FALSE(staged_whole_k_beats_split({128, 4096, 4096}, 132));  // 32 narrow tiles: under a quarter of 132
  CHECK(staged_whole_k_beats_split({128, 4096, 4096}, 128));
}

TEST_CASE("auto: few output tiles split K over one wave of blocks", "[matmul][auto]") {
  struct Case {
    Dims dims;
    int splits;
    AutoKernel kernel;
  };
  // tiles = ceil(M/128)·ceil(N/256); splits = min(132 / tiles, steps / 4, 64), evened out. Aligned
  // shapes of 128 rows or more run them on the TMA kernel (its 128×256 tile wherever that finishes
  // soonest, as here).
  const std::vector<Case> cases{{{16, 4096, 4096}, 8, AutoKernel::wgmma_split_k},     // 16 tiles, 64 steps
                                {{64, 8192, 8192}, 4, AutoKernel::wgmma_split_k},     // 32 tiles
                                {{256, 256, 65536}, 64, AutoKernel::wgmma_tma_split_k},   // 2 tiles: 66, capped at 64
                                {{1024, 1024, 32768}, 4, AutoKernel::wgmma_tma_split_k},  // 32 tiles
                                {{17, 4099, 8192}, 7, AutoKernel::wgmma_split_k}};  // 17 tiles, 128 steps: 7 × 19 (the last 14)
  for (const Case& c : cases) {
    INFO(c.dims.m << "x" << c.dims.n << "x" << c.dims.k);
    const AutoPlan p = plan(c.dims.m, c.dims.n, c.dims.k);
    CHECK(auto_kernel_name(p.kernel) == auto_kernel_name(c.kernel));
    CHECK(p.splits == c.splits);
    CHECK(p.workspace_bytes == std::size_t(p.splits) * c.dims.m * c.dims.n * sizeof(float));
  }
}

TEST_CASE("auto: aligned 16-bit shapes that split 3+ ways run the TMA kernel's split-K on the tile whose wave "
          "finishes soonest",
          "[matmul][auto]") {
  struct Case {
    Dims dims;
    AutoKernel kernel;
    int splits;
  };
  // Per tile: splits filling 132 SMs once; cost = rounds × steps per split × the tile's cost (1,
  // 0.7875, 0.575 of a 128×256 tile's).
  const std::vector<Case> cases{
      // 256: 8 tiles × 16 → 32 steps × 1 = 32; 192: 8 × 16 → 32 × 0.7875 = 25.2; 128: 12 × 11 → 47 × 0.575 = 27.0
      {{512, 384, 32768}, AutoKernel::wgmma_tma_split_k_n192, 16},
      {{512, 384, 131072}, AutoKernel::wgmma_tma_split_k_n192, 16},
      {{384, 384, 49152}, AutoKernel::wgmma_tma_split_k_n192, 22},  // 6 tiles of 192 (one of 256 half empty)
      {{128, 128, 131072}, AutoKernel::wgmma_tma_split_k_n128, 64},  // one 128×128 tile: 64 splits of 32 steps
      {{1024, 1024, 32768}, AutoKernel::wgmma_tma_split_k, 4}};
  for (const Case& c : cases) {
    INFO(c.dims.m << "x" << c.dims.n << "x" << c.dims.k);
    for (DType dtype : {DType::f16, DType::bf16}) {
      const AutoPlan p = plan(c.dims.m, c.dims.n, c.dims.k, dtype);
      CHECK(auto_kernel_name(p.kernel) == auto_kernel_name(c.kernel));
      CHECK(p.splits == c.splits);
      CHECK(p.workspace_bytes == std::size_t(p.splits) * c.dims.m * c.dims.n * sizeof(float));
      CHECK(tma_split_plan(c.dims, 132).kernel == p.kernel);
    }
  }
  // Under a tile of rows the cp.async kernel keeps the split (the TMA kernel measured 6-13 % slower
  // there on the 128×256 tile; narrower tiles are not measured), with the count of that tile.
  for (const Dims d : {Dims{90, 5120, 5120}, Dims{16, 8192, 8192}, Dims{64, 11008, 4096}, Dims{64, 384, 65536}}) {
    INFO(d.m << "x" << d.n << "x" << d.k);
    CHECK_FALSE(tma_split_beats_cp_async(d));
    const AutoPlan p = plan(d.m, d.n, d.k, DType::bf16);
    CHECK(p.kernel == AutoKernel::wgmma_split_k);
    if (tma_split_plan(d, 132).kernel == AutoKernel::wgmma_tma_split_k) CHECK(p.splits == tma_split_plan(d, 132).splits);
  }
  // The same shapes off TMA's alignment stay on the cp.async kernel's split.
  CHECK(plan(512, 384, 32768, DType::bf16, kH100, false).kernel == AutoKernel::wgmma_split_k);
  CHECK(plan(512, 383, 32768).kernel == AutoKernel::wgmma_split_k);
}

TEST_CASE("auto: aligned 16-bit shapes of at most 64 rows on the staged kernel take its 128x256 tile", "[matmul][auto]") {
  // 2 K splits of 128×256 tiles that the model would move to whole K on 128×128 tiles, and whole K
  // on many tiles: with the second warpgroup idle, the wide tile (H200, session 31).
  for (const Dims d : {Dims{60, 14336, 5120}, Dims{32, 14336, 4096}, Dims{64, 12288, 4096}, Dims{8, 16384, 4096},
                       Dims{16, 40960, 1024}}) {
    INFO(d.m << "x" << d.n << "x" << d.k);
    for (DType dtype : {DType::f16, DType::bf16}) CHECK(plan(d.m, d.n, d.k, dtype).kernel == AutoKernel::wgmma_tma_staged);
  }
  // 65 rows keep the model's tile; 3+ splits keep the cp.async split; shapes TMA cannot read, the padded rule.
  CHECK(plan(65, 14336, 5120).kernel == AutoKernel::wgmma_tma_staged_n128);
  CHECK(plan(64, 11008, 4096).kernel == AutoKernel::wgmma_split_k);
  CHECK(plan(60, 14336, 5120, DType::f16, kH100, false).kernel != AutoKernel::wgmma_tma_staged);
}

TEST_CASE("auto: unaligned 16-bit shapes take the padded TMA call where they run whole K (or would split 2 ways), "
          "the cp.async wgmma split-K for 3 or more splits, tensor_core for few tiles that do not split",
          "[matmul][auto]") {
  CHECK(plan(17, 4099, 8191).kernel == AutoKernel::wgmma_split_k);   // N, K odd; 17 tiles: 7 splits
  CHECK(plan(257, 129, 65537).kernel == AutoKernel::wgmma_split_k);
  // 544 wide tiles, the 32 of the last column one live panel: 4.36; 1056 narrow: 4.6 (H200, session 32:
  // 237.7 / 280.3 µs)
  CHECK(plan(4096, 4099, 4096).kernel == AutoKernel::wgmma_tma_padded);
  CHECK(plan(4096, 4096, 4095).kernel == AutoKernel::wgmma_tma_padded);
  // Aligned, B's rows off 128 bytes: the padded call on 128x256 tiles, 128x128 not 5 % ahead
  // (kAutoNarrowerTileGain; H200, session 32: 50.1 against 58.4 µs).
  CHECK(plan(2056, 2056, 2056).kernel == AutoKernel::wgmma_tma_padded);
  CHECK(plan(1023, 4097, 513).kernel == AutoKernel::wgmma_tma_padded_n128);  // the zoo's odd shape: 136 / 264 tiles
  CHECK(plan(1000, 2001, 1003).kernel == AutoKernel::wgmma_tma_padded_n128);  // 64 wide tiles: 2 splits → 128 narrow
  CHECK(plan(1023, 4097, 65, DType::f16, AutoDevice{300, true}).kernel == AutoKernel::tensor_core);  // 136 < 150, 2 steps
  CHECK(plan(127, 4099, 65).kernel == AutoKernel::tensor_core);      // 17 tiles, 2 K steps: no split
  // Misaligned pointers count as unaligned shapes.
  CHECK(plan(4096, 4096, 4096, DType::f16, kH100, false).kernel == AutoKernel::wgmma_tma_padded);
  CHECK(plan(16, 4096, 4096, DType::f16, kH100, false).kernel == AutoKernel::wgmma_split_k);
}

TEST_CASE("auto: every plan's splits are in range and none is empty, its workspace within the bounds",
          "[matmul][auto]") {
  const std::vector<int> extents{1, 7, 16, 64, 100, 128, 129, 255, 256, 1000, 1024, 4096, 4099, 8192, 65536, 65537};
  for (const AutoDevice device : {kH100, AutoDevice{78, true}, AutoDevice{2, true}, AutoDevice{0, true}}) {
    for (int m : extents) {
      for (int n : extents) {
        for (int k : extents) {
          if (!reject_matmul_shape({m, n, k}).empty()) continue;
          for (DType dtype : {DType::f32, DType::tf32, DType::f16, DType::bf16}) {
            const AutoPlan p = plan(m, n, k, dtype, device);
            INFO(m << "x" << n << "x" << k << " " << device.sm_count << " SMs: " << auto_kernel_name(p.kernel) << " / "
                   << p.splits);
            CHECK(p.workspace_bytes <= auto_workspace_bound({m, n, k}));
            CHECK(p.workspace_bytes <= kAutoWorkspaceCapBytes);
            const bool transposes_b = p.kernel == AutoKernel::wgmma_tf32 || p.kernel == AutoKernel::wgmma_tf32_split_k;
            CHECK(p.transposed_b_bytes == (transposes_b ? wgmma_tf32_transposed_b_bytes({m, n, k}) : 0));
            if (p.kernel == AutoKernel::gemv) {
              CHECK(m <= kGemvMaxRows);
              CHECK(p.splits >= 1);
              CHECK(p.splits <= kMaxSplitK);
              CHECK(p.workspace_bytes == gemv_workspace_bytes({m, n, k}, element_size(dtype), p.splits));
              // Every chunk starts inside K.
              CHECK(std::int64_t{gemv_chunk_rows({m, n, k}, p.splits)} * (p.splits - 1) < k);
              continue;
            }
            if (runs_tma_tail_split(p)) {  // parts of the last round's tiles, not slices of C
              const int tile_n = auto_tma_tile_n(p.kernel);
              CHECK(p.splits == p.tail.splits);
              CHECK(p.splits >= 2);
              CHECK(p.splits <= kMaxSplitK);
              CHECK(p.workspace_bytes == tail_split_parts_bytes(p.tail, tile_n));
              CHECK(p.tail.whole_tiles % device.sm_count == 0);
              CHECK(p.tail.tail_tiles * p.splits <= device.sm_count);
              CHECK(std::int64_t{p.tail.whole_tiles} + p.tail.tail_tiles ==
                    std::int64_t{(m + 127) / 128} * ((n + tile_n - 1) / tile_n));
              const std::int64_t steps = (std::int64_t{k} + kWgmmaStepK - 1) / kWgmmaStepK;
              CHECK((p.splits - 1) * ((steps + p.splits - 1) / p.splits) < steps);
              continue;
            }
            const int step_k = split_step_k(p.kernel);
            if (step_k == 0) {
              CHECK(p.splits == 1);
              CHECK(p.workspace_bytes == 0);
              continue;
            }
            CHECK(p.splits >= 2);
            CHECK(p.splits <= kMaxSplitK);
            CHECK(p.workspace_bytes == std::size_t(p.splits) * m * n * sizeof(float));
            // The launcher gives each split ceil(steps / splits) steps: the last one starts inside K.
            const std::int64_t steps = (std::int64_t{k} + step_k - 1) / step_k;
            const std::int64_t per_split = (steps + p.splits - 1) / p.splits;
            CHECK((p.splits - 1) * per_split < steps);
            if (step_k == kWgmmaStepK) CHECK(per_split >= kAutoMinStepsPerSplit);
          }
        }
      }
    }
  }
}

TEST_CASE("wgmma_tma: TMA loads K and N multiples of 8 from 16-byte aligned operands, and refuses the rest by name",
          "[matmul][auto]") {
  alignas(16) static const unsigned char buffer[64] = {};
  const void* aligned = buffer;
  const void* off8 = buffer + 8;
  const void* off4 = buffer + 4;
  CHECK(wgmma_tma_unsupported({4096, 4096, 4096}, aligned, aligned, aligned).empty());
  CHECK(wgmma_tma_unsupported({1, 8, 8}, aligned, aligned, aligned).empty());
  CHECK(wgmma_tma_unsupported({1021, 1032, 1016}, aligned, aligned, off4).empty());  // M any, C 4-byte aligned
  const std::string odd = wgmma_tma_unsupported({1023, 4097, 513}, aligned, aligned, aligned);
  CHECK(odd.find("K and N to be multiples of 8") != std::string::npos);
  CHECK(odd.find("1023x4097x513 (MxNxK)") != std::string::npos);
  CHECK_FALSE(wgmma_tma_unsupported({64, 64, 36}, aligned, aligned, aligned).empty());   // K
  CHECK_FALSE(wgmma_tma_unsupported({64, 136 + 2, 64}, aligned, aligned, aligned).empty());  // N
  CHECK(wgmma_tma_unsupported({64, 64, 64}, off8, aligned, aligned) == "TMA needs A and B 16-byte aligned");
  CHECK(wgmma_tma_unsupported({64, 64, 64}, aligned, off8, aligned) == "TMA needs A and B 16-byte aligned");
  CHECK(wgmma_tma_unsupported({64, 64, 64}, aligned, aligned, buffer + 2) == "the stores need C 4-byte aligned");
}

TEST_CASE("auto: every staged TMA plan is a shape the TMA kernels accept", "[matmul][auto]") {
  alignas(16) static const unsigned char buffer[16] = {};
  const std::vector<int> extents{1, 7, 8, 16, 100, 128, 129, 255, 256, 1000, 1016, 1024, 4096, 4099, 8192};
  for (const AutoDevice device : {kH100, AutoDevice{78, true}, AutoDevice{2, true}}) {
    for (int m : extents) {
      for (int n : extents) {
        for (int k : extents) {
          for (bool aligned : {true, false}) {
            const AutoPlan p = plan(m, n, k, DType::bf16, device, aligned);
            if (p.kernel != AutoKernel::wgmma_tma_staged && p.kernel != AutoKernel::wgmma_tma_staged_n192 &&
                p.kernel != AutoKernel::wgmma_tma_staged_n128) {
              continue;
            }
            INFO(m << "x" << n << "x" << k << " " << device.sm_count << " SMs");
            CHECK(aligned);
            CHECK(wgmma_tma_staged_unsupported({m, n, k}, buffer, buffer, buffer).empty());
            CHECK(p.workspace_bytes == 0);
          }
        }
      }
    }
  }
}

TEST_CASE("auto: M of 1 to 8 runs gemv (16-bit at 5-8 rows: shapes TMA cannot read), K in chunks that fill the "
          "SMs, none empty",
          "[matmul][auto][gemv]") {
  for (DType dtype : {DType::f32, DType::tf32, DType::f16, DType::bf16}) {
    const int most_aligned_rows = element_size(dtype) == 2 ? kAutoGemvMaxRows16 : kGemvMaxRows;
    for (int m = 1; m <= kGemvMaxRows + 1; ++m) {
      INFO(dtype_name(dtype) << " M = " << m);
      CHECK((plan(m, 4096, 4096, dtype).kernel == AutoKernel::gemv) == (m <= most_aligned_rows));
      CHECK((plan(m, 4096, 4096, dtype, kH100, false).kernel == AutoKernel::gemv) == (m <= kGemvMaxRows));
      CHECK((plan(m, 4097, 4099, dtype).kernel == AutoKernel::gemv) == (m <= kGemvMaxRows));
      CHECK((plan(m, 13, 5, dtype, kA100).kernel == AutoKernel::gemv) == (m <= kGemvMaxRows));
    }
  }
  // fp32 1x4096x4096: 32 strips of 128 columns, 4 blocks per SM (4 sums a thread): 16 chunks of
  // 256 rows fill one wave of 528; slices and 32 tickets in the workspace.
  const AutoPlan fp32 = plan(1, 4096, 4096, DType::f32);
  CHECK(fp32.splits == 16);
  CHECK(gemv_chunk_rows({1, 4096, 4096}, 16) == 256);
  CHECK(fp32.workspace_bytes == 16 * 4096 * 4 + 256);
  // bf16 8x16384x4096 (the gemv variant): the tensor-core kernel (N a multiple of 8), 4 blocks per
  // SM on Hopper, 64 strips of 256 columns, 8 chunks (512 blocks of 528 resident), 512 rows each;
  // 3 blocks per SM on the A100 (108 SMs): 5 chunks, 320 blocks of 324.
  CHECK(gemv_mma_blocks_per_sm(kHopperShared) == 4);
  CHECK(gemv_mma_blocks_per_sm(kA100Shared) == 3);
  CHECK(gemv_mma_blocks_per_sm(kAdaShared) == 1);
  CHECK(gemv_mma_blocks_per_sm(0) == 0);
  CHECK(gemv_resident_blocks_per_sm({8, 16384, 4096}, 2, kHopperShared) == 4);
  CHECK(gemv_strips({8, 16384, 4096}, 2) == 64);
  CHECK(gemv_chunks({8, 16384, 4096}, 2, 132, kHopperShared) == 8);
  CHECK(gemv_chunk_rows({8, 16384, 4096}, 8) == 512);
  CHECK(gemv_chunks({8, 16384, 4096}, 2, 108, kA100Shared) == 5);
  // The tensor-core kernel reads 16-bit B whose rows are whole 16-byte vectors, at any M of 1-8,
  // where 3 of its blocks fit an SM; elsewhere (and where the device is unknown) the SIMT kernels.
  alignas(16) static const std::uint16_t b16[16] = {};
  for (int m = 1; m <= kGemvMaxRows; ++m) CHECK(gemv_mma_reads({m, 4104, 777}, 2, b16, kHopperShared));
  CHECK(gemv_mma_reads({8, 4104, 777}, 2, b16, kA100Shared));
  CHECK_FALSE(gemv_mma_reads({8, 4104, 777}, 2, b16, kAdaShared));
  CHECK_FALSE(gemv_mma_reads({8, 4104, 777}, 2, b16, 0));
  CHECK_FALSE(gemv_mma_reads({kGemvMaxRows + 1, 4104, 777}, 2, b16, kHopperShared));
  CHECK_FALSE(gemv_mma_reads({8, 4100, 777}, 2, b16, kHopperShared));      // rows of 8200 bytes
  CHECK_FALSE(gemv_mma_reads({8, 4104, 777}, 2, b16 + 1, kHopperShared));  // B 2 bytes off
  CHECK_FALSE(gemv_mma_reads({8, 4104, 777}, 4, b16, kHopperShared));      // fp32
  CHECK(gemv_resident_blocks_per_sm({3, 1000, 64}, 2, kAdaShared) == gemv_blocks_per_sm(gemv_rows(3) * 8));
  CHECK(gemv_resident_blocks_per_sm({3, 1000, 64}, 4, kHopperShared) ==
        gemv_blocks_per_sm(gemv_rows(3) * gemv_columns(3, 4)));
  // N odd: the SIMT kernel, 8 rows of 4 columns a thread (32 sums: 3 blocks per SM), 64 column
  // lanes: 64 strips, 6 chunks (384 blocks of 396 resident), 688 rows each.
  CHECK(gemv_columns(8, 2) == 4);
  CHECK(gemv_resident_blocks_per_sm({8, 16383, 4096}, 2, kHopperShared) == 3);
  CHECK(gemv_strips({8, 16383, 4096}, 2) == 64);
  CHECK(gemv_chunks({8, 16383, 4096}, 2, 132, kHopperShared) == 6);
  CHECK(gemv_chunk_rows({8, 16383, 4096}, 6) == 688);
  // 16-bit up to 4 rows: 8 columns a thread, strips of 256.
  CHECK(gemv_columns(4, 2) == 8);
  CHECK(gemv_strips({3, 1000, 64}, 2) == 4);
  // 594 strips for 528 resident blocks: one chunk would leave a last wave of 66 blocks; 6 chunks
  // fill 96 % of their 7th wave.
  CHECK(plan(1, 151936, 1024, DType::bf16).splits == 6);
  // Wide N fills the SMs without chunks: no workspace.
  const AutoPlan wide = plan(1, 131072, 4096, DType::f32);
  CHECK(wide.splits == 1);
  CHECK(wide.workspace_bytes == 0);
  // Few columns and long K: chunks up to kMaxSplitK, each at least 64 rows.
  CHECK(plan(1, 64, 1 << 20, DType::f16).splits == kMaxSplitK);
  CHECK(plan(2, 64, 100, DType::f32).splits == 1);
  CHECK(plan(2, 64, 128, DType::f32).splits == 2);
  // Wide N that still takes chunks keeps auto's workspace cap, aligned or not (16-bit at 5-8 rows
  // takes gemv only when misaligned), and within the op's bound.
  for (const Dims d : {Dims{4, 304384, 4096}, Dims{8, 256000, 4096}, Dims{1, 1 << 24, 4096}}) {
    for (DType dtype : {DType::f32, DType::bf16}) {
      for (bool aligned : {true, false}) {
        INFO(d.m << "x" << d.n << "x" << d.k << " " << dtype_name(dtype) << " aligned " << aligned);
        const AutoPlan p = plan_auto(d, dtype, kH100, aligned);
        CHECK(p.workspace_bytes <= kAutoWorkspaceCapBytes);
        CHECK(p.workspace_bytes <= auto_workspace_bound(d));
        if (p.kernel == AutoKernel::gemv) CHECK(p.splits <= gemv_most_chunks(d, element_size(dtype)));
      }
    }
  }
  CHECK(gemv_most_chunks({4, 304384, 4096}, 2) < 7);  // 7 chunks of slices would be 34 MB
  CHECK(auto_workspace_bound({8, 134217728, 8}) <= kAutoWorkspaceCapBytes);
  CHECK(gemv_unsupported({9, 64, 64}).find("M <= 8") != std::string::npos);
  CHECK(gemv_unsupported({8, 64, 64}).empty());
}

TEST_CASE("auto: a plan's TMA tile width follows its kernel's name", "[matmul][auto]") {
  for (int k = 0; k <= static_cast<int>(AutoKernel::gemv); ++k) {
    const auto kernel = static_cast<AutoKernel>(k);
    const std::string name(auto_kernel_name(kernel));
    INFO(name);
    const bool tma_tiles = name.rfind("wgmma_tma_staged", 0) == 0 || name.rfind("wgmma_tma_padded", 0) == 0 ||
                           name.rfind("wgmma_tma_split_k", 0) == 0 || name.rfind("wgmma_tma_tail_split", 0) == 0;
    const int expected = !tma_tiles ? 0 : name.find("_n192") != std::string::npos ? 192
                                        : name.find("_n128") != std::string::npos ? 128
                                                                                  : 256;
    CHECK(auto_tma_tile_n(kernel) == expected);
    if (expected > 0) CHECK(tma_tile_n(tma_tile_of_width(expected)) == expected);
  }
}
