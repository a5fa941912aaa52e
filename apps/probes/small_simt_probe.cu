// small_simt_probe: how fast is each tile of the small-tile SIMT kernels
// (kernels/matmul/matmul_small_simt.cu: 16×32, 32×32, 48×32; matmul_outer_simt.cu: 64×32, 32×64,
// with Aᵀ written in the timed call) at each K split, and how far is the
// fp32 `auto` cost model (matmul_auto_split.cpp) from it? A probe behind kernels/matmul/NOTES.md
// ("Taller small tiles"), in kbench's cold method (L2 evicted before each sample, one call per
// event pair, median).
//
//   small_simt_probe [samples] MxNxK ...     (default 30 samples, 47x8192x8192 37x12653x6109
//                                             64x8192x8192 32x4096x4096 24x8192x4096 17x6001x5003
//                                             56x3001x20011 61x4096x12289)
//
// A row per tile and split count: the measured µs, the model's estimate for that plan, and "plan"
// where the model picks it. Each call is that plan run by `auto`'s own launch_auto, so A's padded
// copy (K not a multiple of 4) or Aᵀ is written inside the timed call, as there. Split counts: 1
// (C written directly), 2, 3, 4, 6, 8 (slices, then launch_split_k_reduce). Every row's C is
// compared with the first tile's whole-K call's: the sums differ only in their order (positive
// inputs, so a relative difference is well defined).
#include "apps/probes/probe_support.cuh"
#include "kbench/ops/matmul.hpp"
#include "kernels/matmul/matmul_auto.hpp"
#include "kernels/matmul/matmul_auto_plan.hpp"
#include "kernels/matmul/matmul_auto_split.hpp"
#include "kernels/matmul/matmul_kernels.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

namespace mm = kbench::matmul;

std::vector<float> download(const kbench::DeviceBuffer& c, std::size_t count) {
  std::vector<float> host(count);
  KBENCH_CUDA_CALL(cudaMemcpy(host.data(), c.get(), count * sizeof(float), cudaMemcpyDeviceToHost));
  return host;
}

/// The largest |a - b| / |b| over the elements; NaN where any is NaN (an element never written).
double worst_difference(const std::vector<float>& a, const std::vector<float>& b) {
  double worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const double d = std::fabs(static_cast<double>(a[i]) - b[i]) / std::fabs(static_cast<double>(b[i]));
    if (std::isnan(d) || d > worst) worst = d;
  }
  return worst;
}

/// A tile's name in the probe's rows: the small tiles by height, the outer-product ones by shape.
const char* tile_name(bool outer, mm::SimtSmallRows rows, mm::OuterSimtTile tile) {
  if (outer) return tile == mm::OuterSimtTile::rows64_cols32 ? "outer 64x32" : "outer 32x64";
  switch (rows) {
    case mm::SimtSmallRows::r16: return "16x32";
    case mm::SimtSmallRows::r32: return "32x32";
    case mm::SimtSmallRows::r48: return "48x32";
  }
  return "?";
}

void run_shape(probe::Session& session, mm::Dims dims) {
  constexpr int kMostSplits = 8;
  const std::size_t a_count = static_cast<std::size_t>(dims.m) * dims.k;
  const std::size_t b_count = static_cast<std::size_t>(dims.k) * dims.n;
  const std::size_t c_count = static_cast<std::size_t>(dims.m) * dims.n;
  kbench::DeviceBuffer a(a_count * sizeof(float)), b(b_count * sizeof(float)), c(c_count * sizeof(float));
  // The plans' workspace: A's padded copy or Aᵀ in front, then up to kMostSplits slices.
  const bool pad_a = mm::simt_pads_a(dims, true);
  const std::size_t copy_bytes =
      std::max(mm::simt_padded_a_bytes(dims), static_cast<std::size_t>(mm::outer_at_bytes(dims)));
  kbench::DeviceBuffer workspace(copy_bytes + kMostSplits * c_count * sizeof(float));
  // Positive values of 0.25 to 0.5 (exponent 125, any mantissa).
  probe::fill_hashed<<<1024, 256>>>(a.as<unsigned>(), a_count, 0x007FFFFFu, 1);
  probe::fill_hashed<<<1024, 256>>>(b.as<unsigned>(), b_count, 0x007FFFFFu, 2);
  KBENCH_CHECK_LAUNCH();
  const unsigned exponent = 125u << 23;
  for (kbench::DeviceBuffer* buffer : {&a, &b}) {
    std::vector<unsigned> host(buffer->bytes() / 4);
    KBENCH_CUDA_CALL(cudaMemcpy(host.data(), buffer->get(), buffer->bytes(), cudaMemcpyDeviceToHost));
    for (unsigned& word : host) word |= exponent;
    KBENCH_CUDA_CALL(cudaMemcpy(buffer->get(), host.data(), buffer->bytes(), cudaMemcpyHostToDevice));
  }
  kbench::MatmulArgs args;
  args.m = dims.m, args.n = dims.n, args.k = dims.k;
  args.a = a.get(), args.b = b.get(), args.c = c.get();
  const mm::AutoPlan plan = mm::plan_auto(dims, kbench::DType::f32, {session.device.sm_count, false}, true);
  const double flops = 2.0 * dims.m * dims.n * static_cast<double>(dims.k);
  const bool plan_outer = mm::runs_outer_simt(plan);
  const std::string plan_tile = mm::runs_small_simt(plan) || plan_outer
                                    ? std::string(" ") + tile_name(plan_outer, plan.simt_rows, plan.outer_tile)
                                    : "";
  std::printf("\nfp32 %dx%dx%d (%s copies of B%s): auto's plan %s%s, %d split(s)\n", dims.m, dims.n, dims.k,
              dims.n % 4 == 0 ? "16-byte" : "4-byte", pad_a ? ", A padded for the small tiles" : "",
              std::string(mm::auto_kernel_name(plan.kernel)).c_str(), plan_tile.c_str(), plan.splits);

  std::vector<float> reference;
  for (const mm::SplitKernel& kernel : mm::fp32_kernels(dims, true)) {
    const bool outer = kernel.whole == mm::AutoKernel::outer_simt;
    if (kernel.whole != mm::AutoKernel::small_simt && !outer) continue;
    for (int splits : {1, 2, 3, 4, 6, kMostSplits}) {
      KBENCH_CUDA_CALL(cudaMemset(c.get(), 0xFF, c.bytes()));  // NaN until written
      // The plan `auto` would run for this tile and split count, launched by auto itself: its
      // copies of A (padded, or Aᵀ) are inside the timed call there too.
      mm::AutoPlan forced{splits == 1 ? kernel.whole : kernel.split, splits,
                          splits == 1 ? 0 : splits * c_count * sizeof(float)};
      forced.padded_bytes = outer ? static_cast<std::size_t>(mm::outer_at_bytes(dims))
                                  : pad_a ? mm::simt_padded_a_bytes(dims) : 0;
      forced.simt_rows = kernel.simt_rows;
      forced.outer_tile = kernel.outer_tile;
      const double us = session.cold_us(
          [&] { mm::launch_auto(forced, args, workspace.as<float>(), mm::AutoTmaOperands{}, nullptr); });
      const bool same_tile = outer ? mm::runs_outer_simt(plan) && plan.outer_tile == kernel.outer_tile
                                   : mm::runs_small_simt(plan) && plan.simt_rows == kernel.simt_rows;
      const bool planned = same_tile && plan.splits == splits;
      std::printf("  %-11s splits %d  %9.1f us  %6.1f TFLOP/s  model %9.1f us%s\n",
                  tile_name(outer, kernel.simt_rows, kernel.outer_tile), splits, us,
                  flops / us / 1e6, mm::split_estimate_us(dims, kernel, splits, session.device.sm_count),
                  planned ? "  (plan)" : "");
      const std::vector<float> out = download(c, c_count);
      if (reference.empty()) {
        reference = out;
      } else {
        const double worst = worst_difference(out, reference);
        if (!(worst <= 1e-4)) {
          std::printf("    C differs from the first tile's whole-K call: worst relative difference %.3g\n", worst);
        }
      }
    }
  }
}

bool parse_shape(const char* text, mm::Dims& dims) {
  return std::sscanf(text, "%dx%dx%d", &dims.m, &dims.n, &dims.k) == 3 && dims.m > 0 && dims.n > 0 && dims.k > 0 &&
         static_cast<double>(dims.n) * dims.k < 2147483648.0 && static_cast<double>(dims.m) * dims.k < 2147483648.0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    int samples = 30;
    std::vector<mm::Dims> shapes;
    for (int i = 1; i < argc; ++i) {
      mm::Dims dims;
      if (i == 1 && std::string(argv[i]).find('x') == std::string::npos) {
        samples = std::atoi(argv[i]);
      } else if (parse_shape(argv[i], dims)) {
        shapes.push_back(dims);
      } else {
        samples = 0;
      }
    }
    if (samples < 1) {
      std::fprintf(stderr, "usage: small_simt_probe [samples] MxNxK ...  (extents >= 1, A and B below 2^31 elements)\n");
      return 2;
    }
    if (shapes.empty()) {
      shapes = {{47, 8192, 8192}, {37, 12653, 6109}, {64, 8192, 8192}, {32, 4096, 4096},
                {24, 8192, 4096}, {17, 6001, 5003}, {56, 3001, 20011}, {61, 4096, 12289}};
    }
    probe::Session session(samples);
    session.print_banner();
    for (const mm::Dims& dims : shapes) run_shape(session, dims);
    return 0;
  } catch (const std::exception& error) {
    return probe::fail(error);
  }
}
