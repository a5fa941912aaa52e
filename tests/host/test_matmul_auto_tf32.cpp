// matmul's `auto` rule for tf32 on Hopper (kernels/matmul/matmul_auto_wgmma_tf32.hpp): where the
// TF32 wgmma kernel, its B transpose included, takes over from the mma.sync kernels, and the
// limits its plans keep. No GPU.
#include "kernels/matmul/matmul_auto_plan.hpp"
#include "kernels/matmul/matmul_auto_split.hpp"
#include "kernels/matmul/matmul_auto_wgmma_tf32.hpp"
#include "kernels/matmul/matmul_kernels.hpp"
#include "support/catch.hpp"

#include <cstdint>
#include <string>
#include <vector>

using namespace kbench;
using namespace kbench::matmul;

namespace {

const AutoDevice kH100{132, true};

bool runs_wgmma_tf32(const AutoPlan& p) {
  return p.kernel == AutoKernel::wgmma_tf32 || p.kernel == AutoKernel::wgmma_tf32_split_k;
}

}  // namespace

TEST_CASE("auto: tf32 on Hopper runs wgmma_tf32 where its model, B's transpose included, beats mma.sync",
          "[matmul][auto][wgmma_tf32]") {
  struct Case {
    Dims dims;
    AutoKernel kernel;
    int splits;
  };
  // By class, on 132 SMs (NOTES.md, "TF32 wgmma", has each estimate).
  const std::vector<Case> cases{
      {{4096, 4096, 4096}, AutoKernel::wgmma_tf32, 1},     // square: 512 tiles, 460 µs against mma.sync's 891
      {{2048, 2048, 2048}, AutoKernel::wgmma_tf32, 1},
      {{3000, 1000, 2000}, AutoKernel::wgmma_tf32, 1},     // non-square: 96 tiles, 67 µs against 109
      {{8192, 1024, 2048}, AutoKernel::wgmma_tf32, 1},
      {{1024, 1024, 8192}, AutoKernel::wgmma_tf32_split_k, 4},  // 32 tiles, K split into 4 × 64 steps
      {{32, 4096, 4096}, AutoKernel::tensor_core_small_split_k, 3},  // small M: B's 64 MB transpose alone costs more
      {{64, 8192, 8192}, AutoKernel::tensor_core_split_k, 4},
      {{512, 512, 32768}, AutoKernel::tensor_core_split_k, 16},  // large K: 64 MB of B again
      {{512, 512, 512}, AutoKernel::tensor_core, 1}};            // tiny: the fixed costs
  for (const Case& c : cases) {
    INFO(c.dims.m << "x" << c.dims.n << "x" << c.dims.k);
    const AutoPlan p = plan_auto(c.dims, DType::tf32, kH100, true);
    CHECK(auto_kernel_name(p.kernel) == auto_kernel_name(c.kernel));
    CHECK(p.splits == c.splits);
  }
}

TEST_CASE("auto: a tf32 plan is wgmma_tf32 exactly when its estimate beats the mma.sync model's",
          "[matmul][auto][wgmma_tf32]") {
  for (const Dims d : {Dims{4096, 4096, 4096}, Dims{1000, 1000, 1000}, Dims{3001, 997, 2004}, Dims{1024, 8192, 512},
                       Dims{128, 4096, 4096}, Dims{1024, 1024, 4096}, Dims{768, 768, 768}, Dims{8192, 64, 8192},
                       Dims{256, 256, 65536}, Dims{1023, 4097, 513}, Dims{37, 12653, 6109}, Dims{2000, 3001, 1001}}) {
    const bool aligned = d.k % 4 == 0 && d.n % 4 == 0;
    const double mma_us = choose_split_model(d, tf32_kernels(aligned, d.m), kH100.sm_count).us;
    // K not a multiple of 4: the kernel runs K rounded up, after A's padded copy.
    const Dims padded = wgmma_tf32_dims(d);
    const int splits = wgmma_tf32_best_splits(padded, kH100.sm_count);
    const double wgmma_us = wgmma_tf32_estimate_us(padded, splits, kH100.sm_count) +
                            (padded.k == d.k ? 0.0 : wgmma_tf32_pad_a_us(d));
    const AutoPlan p = plan_auto(d, DType::tf32, kH100, true);
    INFO(d.m << "x" << d.n << "x" << d.k << ": mma.sync " << mma_us << " µs, wgmma_tf32 " << wgmma_us << " µs ("
             << splits << " splits), plan " << auto_kernel_name(p.kernel));
    CHECK(runs_wgmma_tf32(p) == (wgmma_us < mma_us));
    if (runs_wgmma_tf32(p)) CHECK(p.splits == splits);
  }
}

TEST_CASE("auto: tf32 runs wgmma_tf32 only on Hopper with aligned pointers, any K on padded copies",
          "[matmul][auto][wgmma_tf32]") {
  for (const Dims d : {Dims{4096, 4096, 4095}, Dims{3000, 1000, 2002}, Dims{4096, 4097, 4096}, Dims{2048, 2048, 2048}}) {
    INFO(d.m << "x" << d.n << "x" << d.k);
    CHECK_FALSE(runs_wgmma_tf32(plan_auto(d, DType::tf32, AutoDevice{132, false}, true)));
    CHECK_FALSE(runs_wgmma_tf32(plan_auto(d, DType::tf32, kH100, false)));
    const AutoPlan p = plan_auto(d, DType::tf32, kH100, true);
    CHECK(runs_wgmma_tf32(p));
    // A copied into rows of K rounded up to 4 where K is not a multiple of 4, behind Bᵀ.
    CHECK(p.padded_bytes == (d.k % 4 == 0 ? 0 : wgmma_tf32_padded_a_bytes(d)));
  }
  // N is free: the transpose reads any B.
  CHECK(runs_wgmma_tf32(plan_auto({4096, 4097, 4096}, DType::tf32, kH100, true)));
  // H100, session 22: 1023x4097x513 on mma.sync's 128×128 tile with 4-byte copies, whole K, 71.9 µs
  // against cuBLAS's 44.8: the padded wgmma plan instead.
  const AutoPlan odd = plan_auto({1023, 4097, 513}, DType::tf32, kH100, true);
  CHECK(odd.kernel == AutoKernel::wgmma_tf32);
  // Rows of 516 floats, each buffer rounded up to 256 bytes.
  CHECK(odd.transposed_b_bytes == (std::size_t(4097) * 516 * 4 + 255) / 256 * 256);
  CHECK(odd.padded_bytes == (std::size_t(1023) * 516 * 4 + 255) / 256 * 256);
  // The GPU test's other padded shapes (tests/gpu/test_matmul_wgmma_tf32_gpu.cpp) run it too.
  CHECK(plan_auto({2000, 3001, 1001}, DType::tf32, kH100, true).kernel == AutoKernel::wgmma_tf32);
  CHECK(plan_auto({1024, 1024, 8191}, DType::tf32, kH100, true).kernel == AutoKernel::wgmma_tf32_split_k);
  // Few rows keep mma.sync: B's transpose would cost more than the product.
  CHECK_FALSE(runs_wgmma_tf32(plan_auto({37, 12653, 6109}, DType::tf32, kH100, true)));
  // Never for the other dtypes.
  for (DType dtype : {DType::f32, DType::f16, DType::bf16}) {
    CHECK_FALSE(runs_wgmma_tf32(plan_auto({4096, 4096, 4096}, dtype, kH100, true)));
  }
}

TEST_CASE("auto: every wgmma_tf32 plan is a shape the kernel accepts, with its Bᵀ and slices sized",
          "[matmul][auto][wgmma_tf32]") {
  alignas(16) static const unsigned char buffer[16] = {};
  const std::vector<int> extents{1, 7, 8, 100, 128, 129, 256, 1000, 1024, 2000, 4096, 4099, 8192, 32768};
  int seen = 0;
  for (const AutoDevice device : {kH100, AutoDevice{78, true}, AutoDevice{2, true}}) {
    for (int m : extents) {
      for (int n : extents) {
        for (int k : extents) {
          if (!reject_matmul_shape({m, n, k}).empty()) continue;
          const AutoPlan p = plan_auto({m, n, k}, DType::tf32, device, true);
          if (!runs_wgmma_tf32(p)) continue;
          ++seen;
          INFO(m << "x" << n << "x" << k << " " << device.sm_count << " SMs, " << p.splits << " splits");
          CHECK(wgmma_tf32_unsupported(wgmma_tf32_dims({m, n, k}), buffer, buffer).empty());
          CHECK(p.transposed_b_bytes == wgmma_tf32_transposed_b_bytes({m, n, k}));
          CHECK(p.transposed_b_bytes >= std::size_t(n) * wgmma_tf32_dims({m, n, k}).k * sizeof(float));
          CHECK(p.padded_bytes == (k % 4 == 0 ? 0 : wgmma_tf32_padded_a_bytes({m, n, k})));
          CHECK(p.transposed_b_bytes % 256 == 0);
          CHECK((p.splits == 1) == (p.kernel == AutoKernel::wgmma_tf32));
          CHECK(p.workspace_bytes == (p.splits == 1 ? 0 : std::size_t(p.splits) * m * n * sizeof(float)));
          CHECK(p.workspace_bytes <= kAutoWorkspaceCapBytes);
          if (p.splits > 1) {
            const std::int64_t padded_k = wgmma_tf32_dims({m, n, k}).k;
            const std::int64_t steps = (padded_k + kWgmmaTf32StepK - 1) / kWgmmaTf32StepK;
            const std::int64_t per_split = (steps + p.splits - 1) / p.splits;
            CHECK(p.splits <= kMaxSplitK);
            CHECK(per_split >= kWgmmaTf32MinStepsPerSplit);
            CHECK((p.splits - 1) * per_split < steps);  // the last split starts inside K
          }
        }
      }
    }
  }
  CHECK(seen > 0);
}

TEST_CASE("wgmma_tf32 estimate: charges B's transpose, never beats reading A and B, best splits no worse than any",
          "[matmul][auto][wgmma_tf32]") {
  // The transpose grows with K·N: the same product with a wider B costs more.
  CHECK(wgmma_tf32_estimate_us({4096, 8192, 4096}, 1, 132) > wgmma_tf32_estimate_us({8192, 4096, 4096}, 1, 132));
  // 1x4096x4096 reads 64 MB of B (about 27 µs at 2.47 TB/s) and writes it transposed.
  for (int s = 1; s <= kMaxSplitK; ++s) CHECK(wgmma_tf32_estimate_us({1, 4096, 4096}, s, 132) >= 27.0);
  for (const Dims d : {Dims{1024, 1024, 8192}, Dims{512, 512, 32768}, Dims{4096, 4096, 4096}, Dims{100, 100, 65536}}) {
    const int best = wgmma_tf32_best_splits(d, 132);
    const double best_us = wgmma_tf32_estimate_us(d, best, 132);
    const std::int64_t steps = (std::int64_t{d.k} + kWgmmaTf32StepK - 1) / kWgmmaTf32StepK;
    for (int s = 1; s <= kMaxSplitK; ++s) {
      if (s > 1 && (steps / s < kWgmmaTf32MinStepsPerSplit ||
                    std::size_t(s) * d.m * d.n * sizeof(float) > kAutoWorkspaceCapBytes)) {
        continue;
      }
      INFO(d.m << "x" << d.n << "x" << d.k << ": " << best << " splits against " << s);
      CHECK(best_us <= wgmma_tf32_estimate_us(d, s, 132) + 1e-9);
    }
  }
}

TEST_CASE("wgmma_tf32: TMA needs K a multiple of 4 and A 16-byte aligned, the stores C 8-byte aligned; N is free",
          "[matmul][auto][wgmma_tf32]") {
  alignas(16) static const unsigned char buffer[64] = {};
  const void* aligned = buffer;
  CHECK(wgmma_tf32_unsupported({4096, 4096, 4096}, aligned, aligned).empty());
  CHECK(wgmma_tf32_unsupported({1, 1, 4}, aligned, aligned).empty());
  CHECK(wgmma_tf32_unsupported({3001, 997, 2004}, aligned, buffer + 8).empty());  // N odd, C 8-byte aligned
  const std::string odd = wgmma_tf32_unsupported({1023, 4097, 513}, aligned, aligned);
  CHECK(odd.find("K to be a multiple of 4") != std::string::npos);
  CHECK(odd.find("1023x4097x513 (MxNxK)") != std::string::npos);
  CHECK_FALSE(wgmma_tf32_unsupported({64, 64, 6}, aligned, aligned).empty());
  CHECK(wgmma_tf32_unsupported({64, 64, 64}, buffer + 8, aligned) == "TMA needs A 16-byte aligned");
  CHECK(wgmma_tf32_unsupported({64, 64, 64}, aligned, buffer + 4) == "the stores need C 8-byte aligned");
  // Bᵀ's workspace: N×K floats, rounded up to 256 bytes.
  CHECK(wgmma_tf32_transposed_b_bytes({1, 1, 1}) == 256);
  CHECK(wgmma_tf32_transposed_b_bytes({5, 64, 4}) == 1024);
  CHECK(wgmma_tf32_transposed_b_bytes({5, 3, 4096}) == 3 * 4096 * 4);
}
