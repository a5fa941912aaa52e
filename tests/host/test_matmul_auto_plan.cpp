// matmul's `auto` rule (kernels/matmul/matmul_auto_plan.hpp): which kernel and how many K splits
// each class of problem gets, and the limits every plan keeps. No GPU.
#include "kernels/matmul/matmul_auto_plan.hpp"
#include "kernels/matmul/matmul_kernels.hpp"
#include "support/catch.hpp"

#include <cstdint>
#include <string>
#include <vector>

using namespace kbench;
using namespace kbench::matmul;

namespace {

const AutoDevice kH100{132, true};
const AutoDevice kA100{108, false};

AutoPlan plan(int m, int n, int k, DType dtype = DType::f16, AutoDevice device = kH100, bool aligned = true) {
  return plan_auto({m, n, k}, dtype, device, aligned);
}

std::int64_t steps_of(int k) { return (std::int64_t{k} + kWgmmaStepK - 1) / kWgmmaStepK; }

}  // namespace

TEST_CASE("auto: fp32 runs register_blocked, tf32 tensor_core, on any shape and device", "[matmul][auto]") {
  for (const Dims d : {Dims{4096, 4096, 4096}, Dims{16, 4096, 4096}, Dims{256, 256, 65536}, Dims{7, 13, 5}}) {
    CHECK(plan(d.m, d.n, d.k, DType::f32).kernel == AutoKernel::register_blocked);
    CHECK(plan(d.m, d.n, d.k, DType::tf32).kernel == AutoKernel::tensor_core);
    CHECK(plan(d.m, d.n, d.k, DType::f32).splits == 1);
  }
}

TEST_CASE("auto: 16-bit without wgmma runs tensor_core", "[matmul][auto]") {
  for (DType dtype : {DType::f16, DType::bf16}) {
    const AutoPlan p = plan(256, 256, 65536, dtype, kA100);
    CHECK(p.kernel == AutoKernel::tensor_core);
    CHECK(p.workspace_bytes == 0);
  }
}

TEST_CASE("auto: 16-bit on Hopper, whole tiles (TMA) when they fill half the SMs, tensor_core when tiny",
          "[matmul][auto]") {
  CHECK(plan(4096, 4096, 4096).kernel == AutoKernel::wgmma_tma);       // 512 tiles
  CHECK(plan(8192, 8192, 8192, DType::bf16).kernel == AutoKernel::wgmma_tma);
  CHECK(plan(2048, 2048, 2048).kernel == AutoKernel::wgmma_tma);       // 128 tiles: no split
  CHECK(plan(8192, 1024, 4096).kernel == AutoKernel::wgmma_tma);
  CHECK(plan(8192, 1024, 2048).kernel == AutoKernel::wgmma_tma);       // the zoo's non-square shapes
  CHECK(plan(1024, 8192, 512, DType::bf16).kernel == AutoKernel::wgmma_tma);
  CHECK(plan(1000, 1032, 1016, DType::f16, AutoDevice{78, true}).kernel == AutoKernel::wgmma_tma);  // 40 tiles
  CHECK(plan(1000, 1032, 1016).kernel == AutoKernel::wgmma_split_k);  // 40 tiles for 132 SMs: K split
  CHECK(plan(512, 512, 512).kernel == AutoKernel::tensor_core);        // at kAutoSmallVolume
  CHECK(plan(256, 256, 256).kernel == AutoKernel::tensor_core);
  CHECK(plan(127, 4099, 65).kernel == AutoKernel::tensor_core);
}

TEST_CASE("auto: few output tiles split K over one wave of blocks", "[matmul][auto]") {
  struct Case {
    Dims dims;
    int splits;
  };
  // tiles = ceil(M/128)·ceil(N/256); splits = min(132 / tiles, steps / 4, 64), evened out.
  const std::vector<Case> cases{{{16, 4096, 4096}, 8},        // 16 tiles, 64 steps
                                {{64, 8192, 8192}, 4},        // 32 tiles
                                {{256, 256, 65536}, 64},      // 2 tiles: 66, capped at 64
                                {{1024, 1024, 32768}, 4},     // 32 tiles
                                {{1000, 1000, 1000}, 4},      // 32 tiles, 16 steps
                                {{17, 4099, 8192}, 7}};       // 17 tiles, 128 steps: 7 × 19 (the last 14)
  for (const Case& c : cases) {
    INFO(c.dims.m << "x" << c.dims.n << "x" << c.dims.k);
    const AutoPlan p = plan(c.dims.m, c.dims.n, c.dims.k);
    CHECK(p.kernel == AutoKernel::wgmma_split_k);
    CHECK(p.splits == c.splits);
    CHECK(p.workspace_bytes == std::size_t(p.splits) * c.dims.m * c.dims.n * sizeof(float));
  }
}

TEST_CASE("auto: unaligned 16-bit shapes take the cp.async wgmma kernel with K split or half the SMs' tiles, "
          "else tensor_core", "[matmul][auto]") {
  CHECK(plan(17, 4099, 8191).kernel == AutoKernel::wgmma_split_k);   // N, K odd; 17 tiles
  CHECK(plan(257, 129, 65537).kernel == AutoKernel::wgmma_split_k);
  CHECK(plan(4096, 4099, 4096).kernel == AutoKernel::wgmma);         // 544 tiles: no split, no TMA
  CHECK(plan(4096, 4096, 4095).kernel == AutoKernel::wgmma);
  CHECK(plan(1023, 4097, 513).kernel == AutoKernel::wgmma);          // the zoo's odd shape: 136 tiles
  CHECK(plan(1023, 4097, 65, DType::f16, AutoDevice{300, true}).kernel == AutoKernel::tensor_core);  // 136 < 150, 2 steps
  CHECK(plan(127, 4099, 65).kernel == AutoKernel::tensor_core);      // 17 tiles, 2 K steps: no split
  // Misaligned pointers count as unaligned shapes.
  CHECK(plan(4096, 4096, 4096, DType::f16, kH100, false).kernel == AutoKernel::wgmma);
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
            if (p.kernel != AutoKernel::wgmma_split_k) {
              CHECK(p.splits == 1);
              CHECK(p.workspace_bytes == 0);
              continue;
            }
            CHECK(p.splits >= 2);
            CHECK(p.splits <= kMaxSplitK);
            // The launcher gives each split ceil(steps / splits) steps: the last one starts inside K.
            const std::int64_t per_split = (steps_of(k) + p.splits - 1) / p.splits;
            CHECK((p.splits - 1) * per_split < steps_of(k));
            CHECK(per_split >= kAutoMinStepsPerSplit);
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

TEST_CASE("auto: every wgmma_tma plan is a shape the TMA kernel accepts", "[matmul][auto]") {
  alignas(16) static const unsigned char buffer[16] = {};
  const std::vector<int> extents{1, 7, 8, 16, 100, 128, 129, 255, 256, 1000, 1016, 1024, 4096, 4099, 8192};
  for (const AutoDevice device : {kH100, AutoDevice{78, true}, AutoDevice{2, true}}) {
    for (int m : extents) {
      for (int n : extents) {
        for (int k : extents) {
          for (bool aligned : {true, false}) {
            const AutoPlan p = plan(m, n, k, DType::bf16, device, aligned);
            if (p.kernel != AutoKernel::wgmma_tma) continue;
            INFO(m << "x" << n << "x" << k << " " << device.sm_count << " SMs");
            CHECK(aligned);
            CHECK(wgmma_tma_unsupported({m, n, k}, buffer, buffer, buffer).empty());
            CHECK(p.workspace_bytes == 0);
          }
        }
      }
    }
  }
}
