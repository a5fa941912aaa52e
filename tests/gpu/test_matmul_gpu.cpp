// Every matmul variant and every dtype it runs against the CPU reference, on fresh random inputs
// with the output poisoned first: on shapes that are not multiples of any tile (1, 7, 13, 127,
// 4099, odd K) and on one shape per size class up to 2048³ (bigger ones only run through the
// benchmark). Runs only where a CUDA device is present (see support/catch_main.cpp).
#include "harness/device/cuda_check.hpp"
#include "harness/device/cuda_resources.hpp"
#include "harness/device/current_device.hpp"
#include "harness/ops/dtype_dispatch.hpp"
#include "kernels/matmul/matmul_auto_plan.hpp"
#include "kernels/matmul/matmul_gemv.hpp"
#include "kernels/matmul/matmul_kernels.hpp"
#include "harness/ops/registry.hpp"
#include "harness/config/size_classes.hpp"
#include "support/catch.hpp"
#include "support/test_variants.hpp"
#include "support/gpu_test_scope.hpp"

#include "kbench/ops/matmul.hpp"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <random>
#include <stdexcept>
#include <type_traits>

using namespace kbench;

namespace {

const Op& matmul_op() {
  static Registry registry = [] {
    Registry r;
    register_all_ops(r);
    return r;
  }();
  return *registry.find("matmul");
}

/// Set by the launch of "refused_everywhere", which must never run.
bool refused_variant_launched = false;

/// matmul with two test-only variants, declared as a plugin would: one that writes nothing and one
/// that no device can run.
const Op& matmul_with_test_variants() {
  static Registry registry = [] {
    Registry r;
    register_all_ops(r);
    r.add_variant("matmul", test::writes_nothing<MatmulArgs>());
    Variant<MatmulArgs> refused;
    refused.name = "refused_everywhere";
    refused.description = "test-only: no device runs it";
    refused.cannot_run = [](const MatmulArgs&) { return std::string("test-only, runs nowhere"); };
    refused.launch = [](const MatmulArgs&, cudaStream_t) { refused_variant_launched = true; };
    r.add_variant<MatmulArgs>("matmul", std::move(refused));
    return r;
  }();
  return *registry.find("matmul");
}

/// `splits` fp32 slices of `dims` filled with NaN bits, so that a split kernel that leaves any
/// element of any slice unwritten (an empty split's zeros included) fails verification.
std::shared_ptr<const DeviceBuffer> poisoned_slices(int splits, matmul::Dims dims) {
  auto slices = std::make_shared<const DeviceBuffer>(std::size_t(splits) * dims.m * dims.n * sizeof(float));
  REQUIRE(cudaMemset(slices->as<float>(), 0xFF, slices->bytes()) == cudaSuccess);
  return slices;
}

/// wgmma's split-K kernels with a fixed split count, whatever the shape: launch_wgmma_partials
/// into a workspace of `splits` slices, then launch_split_k_reduce.
Variant<MatmulArgs> wgmma_split_k(int splits) {
  Variant<MatmulArgs> v;
  v.name = "wgmma_split_k_" + std::to_string(splits);
  v.description = "test-only: wgmma partials over a fixed number of K splits, then their reduction";
  v.dtypes = {DType::f16, DType::bf16};
  v.cannot_run = [](const MatmulArgs& args) {
    return matmul::wgmma_unavailable(args.device.cc_major, args.device.cc_minor);
  };
  v.prepare = [splits](const MatmulArgs& args) -> CallFn {
    const matmul::Dims dims{static_cast<int>(args.m), static_cast<int>(args.n), static_cast<int>(args.k)};
    auto workspace = poisoned_slices(splits, dims);
    return [splits, args, dims, workspace](cudaStream_t stream) {
      float* slices = workspace->as<float>();
      if (args.dtype == DType::f16) {
        matmul::launch_wgmma_partials(static_cast<const __half*>(args.a), static_cast<const __half*>(args.b), slices,
                                      dims, splits, stream);
        matmul::launch_split_k_reduce(slices, splits, static_cast<__half*>(args.c), dims, stream);
      } else {
        matmul::launch_wgmma_partials(static_cast<const __nv_bfloat16*>(args.a),
                                      static_cast<const __nv_bfloat16*>(args.b), slices, dims, splits, stream);
        matmul::launch_split_k_reduce(slices, splits, static_cast<__nv_bfloat16*>(args.c), dims, stream);
      }
    };
  };
  return v;
}

std::string wgmma_tma_split_k_name(matmul::TmaTile tile, int splits, bool in_graph = false) {
  return "wgmma_tma_split_k_n" + std::to_string(matmul::tma_tile_n(tile)) + "_" + std::to_string(splits) +
         (in_graph ? "_graph" : "");
}

/// The TMA kernel's split-K (launch_wgmma_tma_partials on `tile`) with a fixed split count, then
/// launch_split_k_reduce (a dependent launch); shapes TMA can address only (K and N multiples of
/// 8). `in_graph`: each call captures the two launches in a CUDA graph and replays it, as hot mode
/// does.
Variant<MatmulArgs> wgmma_tma_split_k(matmul::TmaTile tile, int splits, bool in_graph = false) {
  Variant<MatmulArgs> v;
  v.name = wgmma_tma_split_k_name(tile, splits, in_graph);
  v.description = "test-only: the TMA kernel's partials over a fixed number of K splits, then their reduction";
  v.dtypes = {DType::f16, DType::bf16};
  v.cannot_run = [](const MatmulArgs& args) {
    const std::string why = matmul::wgmma_unavailable(args.device.cc_major, args.device.cc_minor);
    if (!why.empty()) return why;
    const matmul::Dims dims{static_cast<int>(args.m), static_cast<int>(args.n), static_cast<int>(args.k)};
    return matmul::wgmma_tma_unsupported(dims, args.a, args.b, args.c);
  };
  v.prepare = [tile, splits, in_graph](const MatmulArgs& args) -> CallFn {
    const matmul::Dims dims{static_cast<int>(args.m), static_cast<int>(args.n), static_cast<int>(args.k)};
    auto workspace = poisoned_slices(splits, dims);
    return dispatch_dtype(args.dtype, [&](auto tag) -> CallFn {
      using T = typename decltype(tag)::type;
      if constexpr (std::is_same_v<T, float>) {
        throw std::logic_error("wgmma_tma_split_k: 16-bit only");
      } else {
        const auto maps = matmul::make_wgmma_tma_operands(static_cast<const T*>(args.a), static_cast<const T*>(args.b), dims);
        auto call = [tile, splits, args, dims, workspace, maps](cudaStream_t stream) {
          matmul::launch_wgmma_tma_partials(maps, workspace->as<float>(), dims, tile, splits, stream);
          matmul::launch_split_k_reduce(workspace->as<float>(), splits, static_cast<T*>(args.c), dims, stream);
        };
        if (!in_graph) return call;
        // Once eagerly, so that the kernels and their attributes are loaded outside the capture;
        // then C and the slices poisoned again, and the captured graph replayed.
        return [call, args, dims, workspace](cudaStream_t stream) {
          call(stream);
          const std::size_t c_bytes = std::size_t(dims.m) * dims.n * sizeof(T);
          REQUIRE(cudaMemsetAsync(args.c, 0xFF, c_bytes, stream) == cudaSuccess);
          REQUIRE(cudaMemsetAsync(workspace->as<float>(), 0xFF, workspace->bytes(), stream) == cudaSuccess);
          CapturedGraph(stream, call).launch(stream);
        };
      }
    });
  };
  return v;
}

const std::vector<matmul::TmaTile> kTmaTiles{matmul::TmaTile::n256, matmul::TmaTile::n192, matmul::TmaTile::n128};

/// The split counts the split-K test runs: one split, an odd count, and the most.
// 8 and 9: either side of the reduction's hand-over between its few-slices and 8-warp kernels.
const std::vector<int> kForcedSplits{1, 3, 8, 9, matmul::kMaxSplitK};

/// The fp32 / TF32 split-K kernels (launch_*_partials, then launch_split_k_reduce) with a fixed
/// split count, whatever the shape.
enum class Fp32Split {
  register_blocked,
  register_blocked_async,
  small_simt,
  small_simt_32,
  small_simt_48,
  outer_64x32,
  outer_32x64,
  tf32_big,
  tf32_small
};

const char* fp32_split_name(Fp32Split kernel) {
  switch (kernel) {
    case Fp32Split::register_blocked: return "register_blocked";
    case Fp32Split::register_blocked_async: return "register_blocked_async";
    case Fp32Split::small_simt: return "small_simt";
    case Fp32Split::small_simt_32: return "small_simt_32";
    case Fp32Split::small_simt_48: return "small_simt_48";
    case Fp32Split::outer_64x32: return "outer_simt_64x32";
    case Fp32Split::outer_32x64: return "outer_simt_32x64";
    case Fp32Split::tf32_big: return "tensor_core_big";
    case Fp32Split::tf32_small: return "tensor_core_small";
  }
  return "?";
}

matmul::OuterSimtTile outer_tile_of(Fp32Split kernel) {
  return kernel == Fp32Split::outer_64x32 ? matmul::OuterSimtTile::rows64_cols32 : matmul::OuterSimtTile::rows32_cols64;
}

Variant<MatmulArgs> fp32_split_k(Fp32Split kernel, int splits) {
  Variant<MatmulArgs> v;
  v.name = std::string(fp32_split_name(kernel)) + "_split_k_" + std::to_string(splits);
  v.description = "test-only: fp32/tf32 partials over a fixed number of K splits, then their reduction";
  const bool tf32 = kernel == Fp32Split::tf32_big || kernel == Fp32Split::tf32_small;
  v.dtypes = {tf32 ? DType::tf32 : DType::f32};
  v.prepare = [kernel, splits](const MatmulArgs& args) -> CallFn {
    const matmul::Dims dims{static_cast<int>(args.m), static_cast<int>(args.n), static_cast<int>(args.k)};
    const bool outer = kernel == Fp32Split::outer_64x32 || kernel == Fp32Split::outer_32x64;
    const std::size_t at_bytes = outer ? static_cast<std::size_t>(matmul::outer_at_bytes(dims)) : 0;
    auto workspace =
        std::make_shared<const DeviceBuffer>(at_bytes + std::size_t(splits) * dims.m * dims.n * sizeof(float));
    return [kernel, splits, args, dims, workspace, at_bytes](cudaStream_t stream) {
      float* at = workspace->as<float>();
      float* slices = at + at_bytes / sizeof(float);
      const float* a = static_cast<const float*>(args.a);
      const float* b = static_cast<const float*>(args.b);
      switch (kernel) {
        case Fp32Split::register_blocked:
          matmul::launch_register_blocked_partials(a, b, slices, dims, splits, stream);
          break;
        case Fp32Split::register_blocked_async:
          matmul::launch_register_blocked_async_partials(a, b, slices, dims, splits, stream);
          break;
        case Fp32Split::small_simt: matmul::launch_small_simt_partials(a, b, slices, dims, splits, stream); break;
        case Fp32Split::small_simt_32:
          matmul::launch_small_simt_partials(a, b, slices, dims, splits, stream, matmul::SimtSmallRows::r32);
          break;
        case Fp32Split::small_simt_48:
          matmul::launch_small_simt_partials(a, b, slices, dims, splits, stream, matmul::SimtSmallRows::r48);
          break;
        case Fp32Split::outer_64x32:
        case Fp32Split::outer_32x64:
          matmul::launch_transpose_a_for_outer(a, dims.k, dims, at, stream);
          matmul::launch_outer_simt_partials({at, b, slices}, dims, splits, outer_tile_of(kernel), stream);
          break;
        case Fp32Split::tf32_big:
          matmul::launch_tensor_core_tf32_partials(a, b, slices, dims, matmul::Tf32Tile::big, splits, stream);
          break;
        case Fp32Split::tf32_small:
          matmul::launch_tensor_core_tf32_partials(a, b, slices, dims, matmul::Tf32Tile::small, splits, stream);
          break;
      }
      matmul::launch_split_k_reduce(slices, splits, static_cast<float*>(args.c), dims, stream);
    };
  };
  return v;
}

const std::vector<Fp32Split> kFp32Splits{Fp32Split::register_blocked, Fp32Split::register_blocked_async,
                                         Fp32Split::small_simt,       Fp32Split::small_simt_32,
                                         Fp32Split::small_simt_48,    Fp32Split::outer_64x32,
                                         Fp32Split::outer_32x64,      Fp32Split::tf32_big,
                                         Fp32Split::tf32_small};

const std::vector<matmul::SimtSmallRows> kSimtSmallRows{matmul::SimtSmallRows::r16, matmul::SimtSmallRows::r32,
                                                        matmul::SimtSmallRows::r48};

std::string small_simt_whole_name(matmul::SimtSmallRows rows, bool padded) {
  return "small_simt_whole_" + std::to_string(matmul::simt_small_rows(rows)) + (padded ? "_padded_a" : "");
}

/// The small-tile SIMT kernel whole K (launch_small_simt) at one tile height, whatever the shape;
/// `padded`: A first copied with its rows padded to a multiple of 4 floats (launch_pad_rows_fp32), as
/// `auto` does where K is not one.
Variant<MatmulArgs> small_simt_whole(matmul::SimtSmallRows rows, bool padded) {
  Variant<MatmulArgs> v;
  v.name = small_simt_whole_name(rows, padded);
  v.description = "test-only: the small-tile SIMT kernel, whole K, at one tile height";
  v.dtypes = {DType::f32};
  v.prepare = [rows, padded](const MatmulArgs& args) -> CallFn {
    const matmul::Dims dims{static_cast<int>(args.m), static_cast<int>(args.n), static_cast<int>(args.k)};
    const int pitch = padded ? matmul::simt_a_pitch(dims.k) : dims.k;
    auto scratch = std::make_shared<const DeviceBuffer>(std::size_t(dims.m) * pitch * sizeof(float));
    return [rows, padded, args, dims, pitch, scratch](cudaStream_t stream) {
      matmul::SimtOperands x{static_cast<const float*>(args.a), dims.k, static_cast<const float*>(args.b),
                             static_cast<float*>(args.c)};
      if (padded) {
        matmul::launch_pad_rows_fp32(x.a, dims.m, dims.k, scratch->as<float>(), pitch, stream);
        x.a = scratch->as<float>();
        x.a_pitch = pitch;
      }
      matmul::launch_small_simt(x, dims, stream, rows);
    };
  };
  return v;
}

std::string outer_simt_whole_name(matmul::OuterSimtTile tile, bool b_offset) {
  return "outer_simt_whole_" + std::to_string(matmul::outer_simt_rows(tile)) + "x" +
         std::to_string(matmul::outer_simt_cols(tile)) + (b_offset ? "_b_offset" : "");
}

/// The outer-product SIMT kernel whole K on one tile, Aᵀ written first (as `auto` does), whatever the
/// shape. `b_offset`: B read from that many floats into a copy of it (1: B misaligned, 4-byte copies).
Variant<MatmulArgs> outer_simt_whole(matmul::OuterSimtTile tile, int b_offset) {
  Variant<MatmulArgs> v;
  v.name = outer_simt_whole_name(tile, b_offset != 0);
  v.description = "test-only: the outer-product SIMT kernel, whole K, on one tile";
  v.dtypes = {DType::f32};
  v.prepare = [tile, b_offset](const MatmulArgs& args) -> CallFn {
    const matmul::Dims dims{static_cast<int>(args.m), static_cast<int>(args.n), static_cast<int>(args.k)};
    const std::size_t at_bytes = static_cast<std::size_t>(matmul::outer_at_bytes(dims));
    const std::size_t b_bytes = b_offset != 0 ? (std::size_t(dims.k) * dims.n + b_offset) * sizeof(float) : 0;
    auto scratch = std::make_shared<const DeviceBuffer>(at_bytes + b_bytes);
    return [tile, b_offset, args, dims, at_bytes, scratch](cudaStream_t stream) {
      float* at = scratch->as<float>();
      const float* b = static_cast<const float*>(args.b);
      if (b_offset != 0) {
        float* moved = at + at_bytes / sizeof(float) + b_offset;
        KBENCH_CUDA_CALL(cudaMemcpyAsync(moved, b, std::size_t(dims.k) * dims.n * sizeof(float),
                                         cudaMemcpyDeviceToDevice, stream));
        b = moved;
      }
      matmul::launch_transpose_a_for_outer(static_cast<const float*>(args.a), dims.k, dims, at, stream);
      matmul::launch_outer_simt({at, b, static_cast<float*>(args.c)}, dims, tile, stream);
    };
  };
  return v;
}

const std::vector<matmul::OuterSimtTile> kOuterTiles{matmul::OuterSimtTile::rows64_cols32,
                                                     matmul::OuterSimtTile::rows32_cols64};

/// matmul with the fixed-split variants above.
const Op& matmul_with_split_variants() {
  static Registry registry = [] {
    Registry r;
    register_all_ops(r);
    for (int splits : kForcedSplits) {
      r.add_variant("matmul", wgmma_split_k(splits));
      for (matmul::TmaTile tile : kTmaTiles) r.add_variant("matmul", wgmma_tma_split_k(tile, splits));
      r.add_variant("matmul", wgmma_tma_split_k(matmul::TmaTile::n256, splits, true));
      for (Fp32Split kernel : kFp32Splits) r.add_variant("matmul", fp32_split_k(kernel, splits));
    }
    for (matmul::SimtSmallRows rows : kSimtSmallRows) {
      for (bool padded : {false, true}) r.add_variant("matmul", small_simt_whole(rows, padded));
    }
    for (matmul::OuterSimtTile tile : kOuterTiles) {
      for (int b_offset : {0, 1}) r.add_variant("matmul", outer_simt_whole(tile, b_offset));
    }
    return r;
  }();
  return *registry.find("matmul");
}

/// The GEMV kernels over a fixed number of K chunks, whatever the shape (M <= 8): one kernel up to
/// kGemvInKernelMaxChunks chunks, slices and launch_split_k_reduce past it. `b_offset`: B read from
/// that many elements into a copy of it (1: B misaligned, read an element at a time).
Variant<MatmulArgs> gemv_chunks(int chunks, int b_offset = 0) {
  Variant<MatmulArgs> v;
  v.name = "gemv_chunks_" + std::to_string(chunks) + (b_offset != 0 ? "_b_offset" : "");
  v.description = "test-only: the GEMV kernels over a fixed number of K chunks";
  v.cannot_run = [](const MatmulArgs& args) {
    return matmul::gemv_unsupported({static_cast<int>(args.m), static_cast<int>(args.n), static_cast<int>(args.k)});
  };
  v.prepare = [chunks, b_offset](const MatmulArgs& args) -> CallFn {
    const matmul::Dims dims{static_cast<int>(args.m), static_cast<int>(args.n), static_cast<int>(args.k)};
    const std::size_t element = dtype_size(args.dtype);
    const std::size_t b_bytes = std::size_t(dims.k) * std::size_t(dims.n) * element;
    auto workspace = std::make_shared<const DeviceBuffer>(
        zeroed_device_buffer(matmul::gemv_workspace_bytes(dims, element, chunks)));
    auto moved_b = std::make_shared<const DeviceBuffer>(b_offset != 0 ? b_bytes + b_offset * element : 0);
    return [chunks, args, dims, workspace, moved_b, b_offset, element, b_bytes](cudaStream_t stream) {
      const void* b = args.b;
      if (b_offset != 0) {
        void* moved = static_cast<char*>(moved_b->get()) + b_offset * element;
        KBENCH_CUDA_CALL(cudaMemcpyAsync(moved, b, b_bytes, cudaMemcpyDeviceToDevice, stream));
        b = moved;
      }
      dispatch_dtype(args.dtype, [&](auto tag) {
        using T = typename decltype(tag)::type;
        matmul::launch_gemv(static_cast<const T*>(args.a), static_cast<const T*>(b), static_cast<T*>(args.c), dims,
                            chunks, workspace->get(), stream);
      });
    };
  };
  return v;
}

/// Chunk counts the GEMV test forces: one (C written directly), a few, either side of the
/// in-kernel combine's limit, and the most (chunks past K's end sum nothing).
const std::vector<int> kGemvChunks{1, 3, matmul::kGemvInKernelMaxChunks, matmul::kGemvInKernelMaxChunks + 1,
                                   matmul::kMaxSplitK};

/// Chunk counts the GEMV test also runs on a misaligned copy of B.
const std::vector<int> kGemvOffsetChunks{1, 3};

const Op& matmul_with_gemv_variants() {
  static Registry registry = [] {
    Registry r;
    register_all_ops(r);
    for (int chunks : kGemvChunks) r.add_variant("matmul", gemv_chunks(chunks));
    for (int chunks : kGemvOffsetChunks) r.add_variant("matmul", gemv_chunks(chunks, 1));
    return r;
  }();
  return *registry.find("matmul");
}

std::uint64_t fresh_seed() { return (std::uint64_t{std::random_device{}()} << 32) | std::random_device{}(); }

double volume(const Shape& s) { return static_cast<double>(s[0]) * static_cast<double>(s[1]) * static_cast<double>(s[2]); }

std::vector<Shape> shapes_to_check() {
  std::vector<Shape> shapes{{1, 1, 1}, {7, 13, 5}, {127, 4099, 65}, {129, 257, 31}, {1000, 1000, 1000},
                            // K a multiple of 8 but not N, and the reverse: the element-wise
                            // fallbacks with one extent on a 16-byte boundary.
                            {130, 250, 64}, {64, 136, 36},
                            // The small-problem tiles (tensor_core 32×32, register_blocked 16×32)
                            // with every extent partial.
                            {200, 72, 264},
                            // register_blocked's small kernel on whole tiles with 4 chunks of 16 k
                            // for 8 warps: half the warps own none and add zeros.
                            {64, 64, 64},
                            // auto's split-K plans: few output tiles, long K, odd extents (the
                            // element-wise copies), and whole ones (the 16-byte copies; the
                            // reduction's float4 path), a partial last tile row among them.
                            {17, 4099, 8191}, {1, 1000, 3001}, {257, 129, 65537}, {16, 4096, 4096},
                            {264, 256, 32768},
                            // fp32 / tf32 auto: small M (the small-tile split-K kernels), large K
                            // (128×128 split 16 ways), a partial wave split in two, odd extents.
                            {32, 4096, 4096}, {512, 512, 32768}, {3001, 997, 2003}, {3000, 1000, 2000},
                            // fp32 auto on few rows, A padded (K odd): the 32×32 tile whole K with B's
                            // 4-byte copies (N odd) and with its 16-byte ones (N a multiple of 4), the
                            // 48×32 tile split 8 ways (the slices behind the padded A).
                            {45, 2003, 1001}, {29, 4096, 1999}, {40, 1001, 8191},
                            // auto's GEMV plans: one row of B's width, 3 rows of an odd N and K.
                            {1, 4096, 4096}, {3, 4099, 8191},
                            // 16-bit auto on the TMA kernel's split-K on 128×192 and 128×128 tiles
                            // (264x256x32768 above: 128×256), and 60 rows whole K on the 128×256
                            // staged tile, its second warpgroup idle.
                            {512, 384, 32768}, {128, 128, 131072}, {60, 14336, 5120},
                            // 16-bit auto on 128×256 tiles with edges in M and N (136 tiles on 132
                            // SMs, the last row's 8 rows in the second round).
                            {2056, 2048, 2048}};
  // The largest shape of each size class up to 2048³.
  for (const SizeClass& size_class : size_classes_to_test()) {
    const std::vector<Shape> class_shapes = matmul_op().shapes_for(size_class);
    const Shape* largest = nullptr;
    for (const Shape& shape : class_shapes) {
      if (volume(shape) <= 2048.0 * 2048 * 2048 && (!largest || volume(shape) > volume(*largest))) largest = &shape;
    }
    if (largest && std::find(shapes.begin(), shapes.end(), *largest) == shapes.end()) shapes.push_back(*largest);
  }
  return shapes;
}

std::size_t variant_index(const Op& op, const std::string& name) {
  const auto variants = op.variants();
  for (std::size_t v = 0; v < variants.size(); ++v)
    if (variants[v].name == name) return v;
  throw std::logic_error("matmul has no variant " + name);
}

/// Verifies `op`'s variant `name` on `workload`; false, with a warning naming `what`, where this
/// device cannot run it (the caller stops: every later case would say the same).
bool verify_forced(const Op& op, Workload& workload, const std::string& name, const std::string& what,
                   cudaStream_t stream) {
  const std::size_t v = variant_index(op, name);
  if (const std::string why = workload.cannot_run(v); !why.empty()) {
    WARN("matmul " << what << " not checked on this device: " << why);
    return false;
  }
  const Verification check = workload.verify(v, stream);
  INFO(check.message);
  CHECK(check.passed);
  return true;
}

/// Checks the TMA variant `name` on every shape of `shapes` in fp16 and bf16 (fresh inputs,
/// poisoned output). Where the device is not compute capability 9.0 it warns and checks nothing;
/// there, every shape must be one the variant accepts.
void check_tma_variant_on(const std::string& name, const std::vector<Shape>& shapes) {
  const Op& op = matmul_op();
  const std::size_t v = variant_index(op, name);
  CudaStream stream;
  for (const Shape& shape : shapes) {
    for (DType dtype : {DType::f16, DType::bf16}) {
      const std::uint64_t seed = fresh_seed();
      auto workload = op.prepare({shape, dtype, "test"}, seed);
      const std::string why = workload->cannot_run(v);
      if (contains(why, "compute capability 9.0")) {
        WARN("matmul " << name << " not checked on this device: " << why);
        return;
      }
      INFO("matmul " << name << " " << dtype_name(dtype) << " " << format_shape(shape) << " seed " << seed);
      REQUIRE(why.empty());
      const Verification check = workload->verify(v, stream.get());
      INFO(check.message);
      CHECK(check.passed);
    }
  }
}

void check_wgmma_tma_on(const std::vector<Shape>& shapes) { check_tma_variant_on("wgmma_tma", shapes); }

/// The staged TMA variants (128×256, 128×192 and 128×128 tiles).
void check_staged_on(const std::vector<Shape>& shapes) {
  for (const char* name : {"wgmma_tma_staged", "wgmma_tma_staged_n192", "wgmma_tma_staged_n128"}) {
    check_tma_variant_on(name, shapes);
  }
}

/// Checks the fp32 variant `name` on every shape of `shapes` (fresh inputs, poisoned output).
void check_fp32_variant_on(const std::string& name, const std::vector<Shape>& shapes) {
  const Op& op = matmul_op();
  const std::size_t v = variant_index(op, name);
  CudaStream stream;
  for (const Shape& shape : shapes) {
    const std::uint64_t seed = fresh_seed();
    auto workload = op.prepare({shape, DType::f32, "test"}, seed);
    INFO("matmul " << name << " fp32 " << format_shape(shape) << " seed " << seed);
    REQUIRE(workload->cannot_run(v).empty());
    const Verification check = workload->verify(v, stream.get());
    INFO(check.message);
    CHECK(check.passed);
  }
}

/// Both cp.async SIMT variants (warps of 4x8 and of 2x16 threads).
void check_simt_async_on(const std::vector<Shape>& shapes) {
  check_fp32_variant_on("register_blocked_async", shapes);
}

}  // namespace

// register_blocked_async, smallest first: a ring or copy-layout mistake shows on one tile before it
// shows on many. K not a multiple of 4 keeps launch_register_blocked_async off the small-tile
// kernel (which it takes below one tile per SM otherwise) while B still moves in 16-byte copies.
TEST_CASE("register_blocked_async on one 128x128 tile: 128x128x7 (one partial step), 128x128x23 (3 steps), 1x1x1",
          "[gpu][matmul][register_blocked_async]") {
  // 128x128x7: 16-byte B copies, one step of 7 of 8 k; 128x128x23: 3 steps, the 3-stage ring filled
  // once, the last step partial; 1x1x1 and 1x4x5: 4-byte B copies (N = 1) and 16-byte ones (N = 4)
  // on a tile of a single row.
  check_simt_async_on({{128, 128, 7}, {128, 128, 23}, {1, 1, 1}, {1, 4, 5}});
}

TEST_CASE("register_blocked_async on odd shapes: M, N, K not multiples of the 128x128x8 tile, more tiles than SMs",
          "[gpu][matmul][register_blocked_async]") {
  // 129x65x33, 7x13x5, 127x4099x65: 4-byte copies of B (N odd), every edge tile partial;
  // 300x260x13, 1000x1032x1017: 16-byte B copies with K odd (partial last step, A rows not 16-byte
  // aligned); 2053x2056x264 and 2053x2056x267: 17x17 = 289 tiles for 132 SMs (a second wave), K in
  // whole and in partial steps, 24 and 34 steps (the ring wraps many times).
  check_simt_async_on({{129, 65, 33},
                       {7, 13, 5},
                       {127, 4099, 65},
                       {300, 260, 13},
                       {1000, 1032, 1017},
                       {2053, 2056, 264},
                       {2053, 2056, 267}});
}

TEST_CASE("register_blocked_async at the benchmark's shapes: 4096x4096x4096, 3000x1000x2000",
          "[gpu][matmul][register_blocked_async]") {
  check_simt_async_on({{4096, 4096, 4096}, {3000, 1000, 2000}});
}

// The wgmma_tma tests come smallest first: a barrier phase or expect_tx mistake makes the
// kernel trap after about 4 s of waiting (tma.cuh), and the first, one-tile test names it.
TEST_CASE("wgmma_tma on a single tile: one K step, then enough steps to wrap the 4-stage ring",
          "[gpu][matmul][wgmma_tma]") {
  // 64x64x64: one step, a tile mostly outside C; 128x256x64: exactly one tile and step;
  // 128x256x320: 5 steps (the ring wraps once); 100x200x8: one step of which 56 K are zero-filled.
  check_wgmma_tma_on({{64, 64, 64}, {128, 256, 64}, {128, 256, 320}, {100, 200, 8}});
}

TEST_CASE("wgmma_tma on odd shapes TMA accepts: M prime, N and K multiples of 8 but not of the tile",
          "[gpu][matmul][wgmma_tma]") {
  // 1009x1032x1016: 8x5 tiles, every edge partial; 2053x2056x264: 17x9 = 153 tiles, more than the
  // SMs, so blocks take a second tile with the ring's phases carried over from the first (5 steps
  // per tile); 1x8x8 and 127x4104x72: one row, and a single tile row over 17 tile columns.
  check_wgmma_tma_on({{1009, 1032, 1016}, {2053, 2056, 264}, {1, 8, 8}, {127, 4104, 72}});
}

TEST_CASE("wgmma_tma at 4096x4096x4096: 512 tiles, about 4 per block", "[gpu][matmul][wgmma_tma]") {
  check_wgmma_tma_on({{4096, 4096, 4096}});
}

// The staged-epilogue tests, smallest first as above: a store or bulk-group mistake shows on one
// tile before it shows on many.
TEST_CASE("wgmma_tma_staged on a single tile: one K step of 8, 64 and a 128x128 or 128x256 tile",
          "[gpu][matmul][wgmma_tma_staged]") {
  // 128x128x64: one n128 tile, exactly; 128x256x64: one n256 tile (two of n128); 64x64x64: the
  // second consumer's rows and all but one C panel wholly outside C (no store, an empty bulk group);
  // 100x200x8: one step of which 56 K are zero-filled, every panel partial.
  check_staged_on({{128, 128, 64}, {128, 192, 64}, {128, 256, 64}, {64, 64, 64}, {100, 200, 8}, {130, 184, 72}});
}

TEST_CASE("wgmma_tma_staged on short K (8, 24, 520) and odd M with N a multiple of 8 but not of the tile",
          "[gpu][matmul][wgmma_tma_staged]") {
  // 1009x1032x24: 8x5 (n256) / 8x9 (n128) tiles of one step, every edge partial; 200x72x520: 9
  // steps (the ring wraps; K's last step partial), N = 72 leaves panels wholly outside C;
  // 1x8x8 and 127x4104x8: one row, and one tile row over 17 / 33 tile columns of one step.
  check_staged_on({{1009, 1032, 24}, {200, 72, 520}, {1, 8, 8}, {127, 4104, 8}});
}

TEST_CASE("wgmma_tma_staged with several tiles per block: staging buffers and ring phases carried across tiles",
          "[gpu][matmul][wgmma_tma_staged]") {
  // 2053x2056x264: 153 (n256) / 289 (n128) tiles of 5 steps for 132 SMs; 1023x8200x520: 264 / 528
  // tiles of 9 steps, the short-K class; 1024x8192x512: the zoo's short-K shape, 2 / 4 tiles a block.
  check_staged_on({{2053, 2056, 264}, {1023, 8200, 520}, {1024, 8192, 512}});
}

TEST_CASE("wgmma_tma_staged with edge tiles last and narrow edge MMAs: 1, 2 and 3 live panels, short last rows",
          "[gpu][matmul][wgmma_tma_staged]") {
  // On 132 SMs (host-tested in test_matmul_tile_schedule.cpp) edges go last for 2048x2056x200 on
  // 128x256 tiles (16 tiles of one live panel after 128), 2048x1544x200 on 128x192, 2048x1032x200
  // on 128x128, and 2053x2120x72 on 128x256 (2 live panels, and the last row's 5 rows: edges in
  // both); 1024x4104x520 (one live panel), 2056x2048x136 (a last row of 8) and 1100x2240x136 (3
  // live panels) keep the grouped order. Every tile width runs every shape.
  check_staged_on({{2048, 2056, 200}, {2048, 1544, 200}, {2048, 1032, 200}, {2053, 2120, 72}, {1024, 4104, 520},
                   {2056, 2048, 136}, {1100, 2240, 136}});
}

TEST_CASE("wgmma_tma_tail_split on every tile: a partial last round split over K, edge tiles, both orders",
          "[gpu][matmul][wgmma_tma_tail_split]") {
  // Shapes made from this device's SM count so that each tile width has a partial last round:
  // one column of tiles whose 8 columns past the last panel are an edge, SMs + 5 tile rows (the last
  // of 91 rows), K of 520 (2 splits of 5 and 4 steps) and 2056 (splits of 4-5 steps, the last
  // short); three columns, the last of 8 (edges last where that order gains), and SMs / 3 + 1 tile
  // rows, the last of 28 (one warpgroup).
  const int sms = current_sm_count();
  for (const matmul::TmaTile tile : kTmaTiles) {
    const int tile_n = matmul::tma_tile_n(tile);
    const std::vector<Shape> shapes{{128 * (sms + 5) - 37, tile_n - 8, 520},
                                    {128 * (sms + 5) - 37, tile_n - 8, 2056},
                                    {128 * (sms / 3 + 1) - 100, 2 * tile_n + 8, 1032}};
    for (const Shape& shape : shapes) {
      const matmul::Dims dims{static_cast<int>(shape[0]), static_cast<int>(shape[1]), static_cast<int>(shape[2])};
      INFO(format_shape(shape) << " on " << sms << " SMs, tiles " << tile_n << " wide");
      REQUIRE(matmul::plan_tail_split(dims, tile_n, sms).splits >= 2);  // the shape has a tail to split
    }
    check_tma_variant_on(std::string(matmul::auto_kernel_name(matmul::tma_tail_split_kernel(tile_n))), shapes);
  }
}

TEST_CASE("auto's tail split matches the reference where auto takes it on this device",
          "[gpu][matmul][wgmma_tma_tail_split]") {
  // The first shape of K 4096 (M, N from 1280, odd multiples of 256 among them) that auto runs as a
  // tail split on this device's SM count (1792x7424x4096 on 132 SMs, 1280x6912x4096 on 114).
  const int sms = current_sm_count();
  const Op& op = matmul_op();
  CudaStream stream;
  for (int m = 1280; m <= 8192; m += 256) {
    for (int n = 1280; n <= 8192; n += 512) {
      const matmul::Dims dims{m, n, 4096};
      if (!matmul::runs_tma_tail_split(matmul::plan_auto(dims, DType::bf16, matmul::AutoDevice{sms, true}, true))) {
        continue;
      }
      for (DType dtype : {DType::f16, DType::bf16}) {
        const std::uint64_t seed = fresh_seed();
        auto workload = op.prepare({{m, n, 4096}, dtype, "test"}, seed);
        const std::size_t v = variant_index(op, "auto");
        if (const std::string why = workload->cannot_run(v); !why.empty()) {
          WARN("matmul auto not checked here: " << why);
          return;
        }
        INFO("matmul auto " << dtype_name(dtype) << " " << m << "x" << n << "x4096 on " << sms << " SMs seed " << seed);
        const Verification check = workload->verify(v, stream.get());
        INFO(check.message);
        CHECK(check.passed);
      }
      return;
    }
  }
  FAIL("no shape of the search takes the tail split on " << sms << " SMs");
}

TEST_CASE("wgmma_tma_stream_k: tiles split between blocks, edge tiles, whole rounds first",
          "[gpu][matmul][wgmma_tma_stream_k]") {
  // Tiles of 128x256 on 132 SMs: 2048x2056x2056 144 (each split between 2 blocks: 36 of 33-step
  // tiles' steps a block); 2053x2056x264 153 of 5 steps (edge tiles in M and N, ranges of 5-6
  // steps); 1100x4104x1000 153 of 16 (K not a multiple of 64); 4096x4104x1032 544 (3 whole rounds,
  // then 148 tiles split); 1536x2816x200 exactly 132 and 1024x1024x512 32 (every tile whole).
  check_tma_variant_on("wgmma_tma_stream_k", {{2048, 2056, 2056}, {2053, 2056, 264}, {1100, 4104, 1000},
                                              {4096, 4104, 1032}, {1536, 2816, 200}, {1024, 1024, 512}});
}

TEST_CASE("wgmma_tma_stream_k leaves its flags at zero: later calls on the same workspace match the reference",
          "[gpu][matmul][wgmma_tma_stream_k]") {
  const Op& op = matmul_op();
  const std::size_t v = variant_index(op, "wgmma_tma_stream_k");
  CudaStream stream;
  const std::uint64_t seed = fresh_seed();
  auto workload = op.prepare({{2048, 2056, 2056}, DType::bf16, "test"}, seed);
  const std::string why = workload->cannot_run(v);
  if (contains(why, "compute capability 9.0")) {
    WARN("matmul wgmma_tma_stream_k not checked on this device: " << why);
    return;
  }
  REQUIRE(why.empty());
  for (int call = 0; call < 3; ++call) {
    INFO("call " << call << " seed " << seed);
    const Verification check = workload->verify(v, stream.get());
    INFO(check.message);
    CHECK(check.passed);
  }
}

TEST_CASE("wgmma_tma_staged at 4096x4096x4096", "[gpu][matmul][wgmma_tma_staged]") {
  check_staged_on({{4096, 4096, 4096}});
}

// wgmma_tma_padded, smallest first: the copy kernels alone (a wrong shift or bound shows as a
// wrong element, named), then the variants on one tile, then odd extents and misaligned operands.
namespace {

using Bits = std::uint16_t;

Bits pattern(long long i) { return static_cast<Bits>((i * 7919 + 1) & 0xFFFF); }

std::vector<Bits> to_host(const DeviceBuffer& buffer) {
  std::vector<Bits> host(buffer.bytes() / sizeof(Bits));
  KBENCH_CUDA_CALL(cudaMemcpy(host.data(), buffer.get(), buffer.bytes(), cudaMemcpyDeviceToHost));
  return host;
}

/// wgmma_tma_padded_n128 on A, B and C placed `offset` elements past a 16-byte boundary (so every
/// operand goes through the padded copies): the call copies the workload's A and B there and its
/// C back (test-only copies, around the kernels under test).
Variant<MatmulArgs> padded_at_offset(int offset) {
  Variant<MatmulArgs> v;
  v.name = "wgmma_tma_padded_at_offset_" + std::to_string(offset);
  v.description = "test-only: wgmma_tma_padded_n128 on operands 2 x offset bytes past a 16-byte boundary";
  v.dtypes = {DType::f16, DType::bf16};
  v.cannot_run = [](const MatmulArgs& args) {
    return matmul::wgmma_unavailable(args.device.cc_major, args.device.cc_minor);
  };
  v.prepare = [offset](const MatmulArgs& args) -> CallFn {
    const matmul::Dims dims{static_cast<int>(args.m), static_cast<int>(args.n), static_cast<int>(args.k)};
    const std::size_t a_bytes = std::size_t(dims.m) * dims.k * 2, b_bytes = std::size_t(dims.k) * dims.n * 2,
                      c_bytes = std::size_t(dims.m) * dims.n * 2;
    auto a = std::make_shared<const DeviceBuffer>(a_bytes + 16), b = std::make_shared<const DeviceBuffer>(b_bytes + 16),
         c = std::make_shared<const DeviceBuffer>(c_bytes + 16);
    Bits* a_at = a->as<Bits>() + offset;
    Bits* b_at = b->as<Bits>() + offset;
    Bits* c_at = c->as<Bits>() + offset;
    auto scratch = std::make_shared<const DeviceBuffer>(matmul::padded_layout_for(dims, a_at, b_at, c_at).bytes);
    auto copies = [=](cudaStream_t stream) {
      KBENCH_CUDA_CALL(cudaMemcpyAsync(a_at, args.a, a_bytes, cudaMemcpyDeviceToDevice, stream));
      KBENCH_CUDA_CALL(cudaMemcpyAsync(b_at, args.b, b_bytes, cudaMemcpyDeviceToDevice, stream));
    };
    auto call = [&](auto tag) -> CallFn {
      using T = typename decltype(tag)::type;
      auto maps = std::make_shared<const matmul::WgmmaTmaPaddedOperands<T>>(matmul::make_wgmma_tma_padded_operands(
          reinterpret_cast<const T*>(a_at), reinterpret_cast<const T*>(b_at), reinterpret_cast<T*>(c_at), dims,
          scratch->get()));
      return [=](cudaStream_t stream) {
        copies(stream);
        matmul::launch_wgmma_tma_padded(*maps, dims, matmul::TmaTile::n128, stream);
        KBENCH_CUDA_CALL(cudaMemcpyAsync(args.c, c_at, c_bytes, cudaMemcpyDeviceToDevice, stream));
        (void)a, (void)b, (void)c, (void)scratch;  // owned by the call
      };
    };
    if (args.dtype == DType::f16) return call(TypeTag<__half>{});
    return call(TypeTag<__nv_bfloat16>{});
  };
  return v;
}

const Op& matmul_with_offset_variants() {
  static Registry registry = [] {
    Registry r;
    register_all_ops(r);
    for (int offset : {1, 3, 4}) r.add_variant("matmul", padded_at_offset(offset));
    return r;
  }();
  return *registry.find("matmul");
}

void check_padded_on(const std::vector<Shape>& shapes) {
  for (const char* name : {"wgmma_tma_padded", "wgmma_tma_padded_n128"}) check_tma_variant_on(name, shapes);
}

}  // namespace

TEST_CASE("padded copies: rows of 1, 7, 9, 64 and 513 elements into padded scratch and back, at every 2-byte offset",
          "[gpu][matmul][wgmma_tma_padded]") {
  CudaStream stream;
  // A second matrix in the same copy-in launch (5 rows of 3, 1 element past a 16-byte boundary).
  const long long second_rows = 5, second_cols = 3, second_pitch = matmul::padded_pitch(second_cols);
  for (long long cols : {1, 7, 9, 64, 513}) {
    for (long long rows : {1, 3, 37}) {
      for (int offset = 0; offset < 8; ++offset) {
        INFO(rows << " rows of " << cols << " at element offset " << offset);
        const long long pitch = matmul::padded_pitch(cols), elements = rows * cols;
        // Room for both matrices' sources, which overlap at the start of the buffer.
        std::vector<Bits> source(static_cast<std::size_t>(std::max(offset + elements, 1 + second_rows * second_cols) + 8));
        for (std::size_t i = 0; i < source.size(); ++i) source[i] = pattern(static_cast<long long>(i));
        DeviceBuffer src(source.size() * sizeof(Bits)), padded(static_cast<std::size_t>(rows * pitch) * sizeof(Bits)),
            second(static_cast<std::size_t>(second_rows * second_pitch) * sizeof(Bits)),
            back(source.size() * sizeof(Bits));
        KBENCH_CUDA_CALL(cudaMemcpy(src.get(), source.data(), src.bytes(), cudaMemcpyHostToDevice));
        KBENCH_CUDA_CALL(cudaMemset(padded.get(), 0xFF, padded.bytes()));  // the padding must come back zero
        KBENCH_CUDA_CALL(cudaMemset(second.get(), 0xFF, second.bytes()));
        KBENCH_CUDA_CALL(cudaMemset(back.get(), 0xAB, back.bytes()));
        matmul::launch_pad_rows({src.as<Bits>() + offset, rows, cols, padded.get(), pitch},
                                {src.as<Bits>() + 1, second_rows, second_cols, second.get(), second_pitch},
                                stream.get());
        matmul::launch_unpad_rows(padded.get(), pitch, rows, cols, back.as<Bits>() + offset, stream.get());
        KBENCH_CUDA_CALL(cudaStreamSynchronize(stream.get()));
        const std::vector<Bits> in = to_host(padded), in_second = to_host(second), out = to_host(back);
        int wrong = 0;
        for (long long r = 0; r < rows; ++r) {
          for (long long c = 0; c < pitch; ++c) {
            const Bits want = c < cols ? source[static_cast<std::size_t>(offset + r * cols + c)] : Bits{0};
            if (in[static_cast<std::size_t>(r * pitch + c)] != want && wrong++ < 4) FAIL_CHECK("padded row " << r << " col " << c);
          }
        }
        for (long long r = 0; r < second_rows; ++r) {
          for (long long c = 0; c < second_pitch; ++c) {
            const Bits want = c < second_cols ? source[static_cast<std::size_t>(1 + r * second_cols + c)] : Bits{0};
            if (in_second[static_cast<std::size_t>(r * second_pitch + c)] != want && wrong++ < 4) {
              FAIL_CHECK("second matrix row " << r << " col " << c);
            }
          }
        }
        for (std::size_t i = 0; i < out.size(); ++i) {
          const bool inside = i >= static_cast<std::size_t>(offset) && i < static_cast<std::size_t>(offset + elements);
          const Bits want = inside ? source[i] : Bits{0xABAB};  // nothing written outside C
          if (out[i] != want && wrong++ < 4) FAIL_CHECK("copied-out element " << i);
        }
        CHECK(wrong == 0);
      }
    }
  }
}

TEST_CASE("wgmma_tma_padded on one tile: K, N or both odd (1, 7, 9), each operand copied or used in place",
          "[gpu][matmul][wgmma_tma_padded]") {
  // 1x1x1 and 7x7x7: all three operands copied; 64x64x7: A alone (B and C in place); 64x7x64: B and
  // C alone; 100x200x9: one K step of which 55 are zero-filled past K; 200x264x136 and
  // 130x1032x1024: N a multiple of 8 whose B rows are not of 128 bytes, copied to such rows (C
  // written in place by TMA); 200x264x7 and 130x1032x1023: the same with A copied too.
  check_padded_on({{1, 1, 1}, {7, 7, 7}, {64, 64, 7}, {64, 7, 64}, {100, 200, 9}, {200, 264, 136}, {130, 1032, 1024},
                   {200, 264, 7}, {130, 1032, 1023}});
}

TEST_CASE("auto's padded call keeping B's short rows (A copied, B read in place) matches the reference",
          "[gpu][matmul][wgmma_tma_padded]") {
  // 1024x8200x1023: K odd, N a multiple of 8 but not of 64, B's copy modelled dearer than its rows
  // (test_matmul_padded.cpp checks the plan).
  check_tma_variant_on("auto", {{1024, 8200, 1023}});
}

TEST_CASE("wgmma_tma_padded refuses a shape with nothing to copy, by name", "[gpu][matmul][wgmma_tma_padded]") {
  const Op& op = matmul_op();
  auto workload = op.prepare({Shape{64, 64, 64}, DType::f16, "test"}, fresh_seed());
  const std::string why = workload->cannot_run(variant_index(op, "wgmma_tma_padded"));
  INFO(why);
  if (!contains(why, "compute capability 9.0")) CHECK(contains(why, "nothing to copy"));
}

TEST_CASE("wgmma_tma_padded on odd extents: 513, 1023, 4097 mixes and primes, several tiles a block",
          "[gpu][matmul][wgmma_tma_padded]") {
  // 1023x4097x513: the zoo's shape (136 / 264 tiles: a second tile on some blocks); its
  // permutations; 127x4099x65: one tile row; 1009x1031x1013: primes; 17x4099x8191: small M,
  // long K (128 steps); 4099x129x1031: many tile rows, N one column past a tile.
  check_padded_on({{1023, 4097, 513},
                   {513, 1023, 4097},
                   {4097, 513, 1023},
                   {127, 4099, 65},
                   {1009, 1031, 1013},
                   {17, 4099, 8191},
                   {4099, 129, 1031}});
}

TEST_CASE("wgmma_tma_padded with A, B and C 2, 6 and 8 bytes past a 16-byte boundary", "[gpu][matmul][wgmma_tma_padded]") {
  const Op& op = matmul_with_offset_variants();
  CudaStream stream;
  for (const Shape& shape : {Shape{7, 13, 5}, Shape{64, 64, 64}, Shape{1023, 4097, 513}}) {
    for (DType dtype : {DType::f16, DType::bf16}) {
      for (int offset : {1, 3, 4}) {
        const std::uint64_t seed = fresh_seed();
        auto workload = op.prepare({shape, dtype, "test"}, seed);
        const std::size_t v = variant_index(op, "wgmma_tma_padded_at_offset_" + std::to_string(offset));
        const std::string why = workload->cannot_run(v);
        if (!why.empty()) {
          WARN("wgmma_tma_padded not checked at offsets on this device: " << why);
          return;
        }
        INFO(dtype_name(dtype) << " " << format_shape(shape) << " offset " << offset << " seed " << seed);
        const Verification check = workload->verify(v, stream.get());
        INFO(check.message);
        CHECK(check.passed);
      }
    }
  }
}

TEST_CASE("wgmma_tma refuses shapes TMA cannot load, by name, and auto still runs them", "[gpu][matmul][wgmma_tma]") {
  const Op& op = matmul_op();
  CudaStream stream;
  for (const Shape& shape : {Shape{1023, 4097, 513}, Shape{256, 264, 36}}) {
    auto workload = op.prepare({shape, DType::f16, "test"}, fresh_seed());
    const std::string why = workload->cannot_run(variant_index(op, "wgmma_tma"));
    INFO(format_shape(shape) << ": " << why);
    CHECK_FALSE(why.empty());
    if (!contains(why, "compute capability 9.0")) CHECK(contains(why, "TMA needs K and N to be multiples of 8"));
    CHECK_THROWS_AS(workload->launch(variant_index(op, "wgmma_tma"), stream.get()), std::invalid_argument);
    const Verification check = workload->verify(variant_index(op, "auto"), stream.get());
    INFO(check.message);
    CHECK(check.passed);
  }
}

TEST_CASE("every matmul variant matches the reference for every dtype it runs", "[gpu][matmul]") {
  const Op& op = matmul_op();
  CudaStream stream;
  const auto variants = op.variants();
  for (const Shape& shape : shapes_to_check()) {
    for (DType dtype : op.dtypes()) {
      const std::uint64_t seed = fresh_seed();
      auto workload = op.prepare({shape, dtype, "test"}, seed);
      const std::int64_t outputs = shape[0] * shape[1];
      for (std::size_t v = 0; v < variants.size(); ++v) {
        if (!variants[v].supports(dtype) || variant_skipped_by_env(variants[v].name)) continue;
        if (const std::string why = workload->cannot_run(v); !why.empty()) {
          WARN("matmul " << variants[v].name << " not checked on " << format_shape(shape) << " here: " << why);
          continue;
        }
        INFO("matmul " << variants[v].name << " " << dtype_name(dtype) << " " << format_shape(shape) << " seed "
                       << seed);
        const Verification check = workload->verify(v, stream.get());
        INFO(check.message);
        CHECK(check.passed);
        if (outputs <= 65536) {
          CHECK(check.checked == outputs);
        } else {
          CHECK(check.checked >= 4096);
        }
      }
    }
  }
}

TEST_CASE("every matmul dtype has a kbench variant beside the naive ones and the baseline", "[gpu][matmul]") {
  // Guards the dtype lists: fp32 runs register_blocked, the tensor dtypes tensor_core.
  const auto variants = matmul_op().variants();
  for (DType dtype : matmul_op().dtypes()) {
    const bool fast = std::any_of(variants.begin(), variants.end(), [&](const VariantInfo& v) {
      return v.supports(dtype) && (v.name == "register_blocked" || v.name == "tensor_core");
    });
    INFO(dtype_name(dtype));
    CHECK(fast);
  }
}

TEST_CASE("the wgmma variant runs on compute capability 9.0 and is refused elsewhere, by name", "[gpu][matmul]") {
  int device = 0, major = 0, minor = 0;
  REQUIRE(cudaGetDevice(&device) == cudaSuccess);
  REQUIRE(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) == cudaSuccess);
  REQUIRE(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device) == cudaSuccess);
  const Op& op = matmul_op();
  const std::size_t wgmma = variant_index(op, "wgmma");
  auto workload = op.prepare({{64, 64, 64}, DType::f16, "test"}, 1);
  const std::string why = workload->cannot_run(wgmma);
  CHECK(why.empty() == (major == 9 && minor == 0));
  CudaStream stream;
  if (why.empty()) {
    const Verification check = workload->verify(wgmma, stream.get());
    INFO(check.message);
    CHECK(check.passed);
  } else {
    // Refused for the device (not the dtype, which wgmma runs), by launch and verify alike.
    CHECK(contains(why, "compute capability 9.0"));
    for (int verified = 0; verified < 2; ++verified) {
      try {
        if (verified) {
          workload->verify(wgmma, stream.get());
        } else {
          workload->launch(wgmma, stream.get());
        }
        FAIL("matmul wgmma was not refused on compute capability " << major << "." << minor);
      } catch (const std::invalid_argument& refusal) {
        CHECK(contains(refusal.what(), "matmul wgmma: " + why));
      }
    }
  }
  CHECK(workload->cannot_run(variant_index(op, "tensor_core")).empty());
}

TEST_CASE("a matmul variant that cannot run is refused before it launches", "[gpu][matmul]") {
  // Where wgmma runs (an H100), this is the refusal path it would take elsewhere.
  const Op& op = matmul_with_test_variants();
  const std::size_t refused = variant_index(op, "refused_everywhere");
  auto workload = op.prepare({{16, 16, 16}, DType::f32, "test"}, 1);
  CHECK(workload->cannot_run(refused) == "test-only, runs nowhere");
  CudaStream stream;
  CHECK_THROWS_AS(workload->launch(refused, stream.get()), std::invalid_argument);
  CHECK_THROWS_AS(workload->verify(refused, stream.get()), std::invalid_argument);
  CHECK_FALSE(refused_variant_launched);
}

TEST_CASE("a matmul variant that writes nothing fails verification", "[gpu][matmul]") {
  // Proves the check can fail: every element is still the poison. Both a fully checked output
  // and a sampled one.
  const Op& op = matmul_with_test_variants();
  const std::size_t writes_nothing = variant_index(op, "writes_nothing");
  CudaStream stream;
  for (const Shape& shape : {Shape{7, 13, 5}, Shape{300, 400, 8}}) {
    for (DType dtype : op.dtypes()) {
      auto workload = op.prepare({shape, dtype, "test"}, fresh_seed());
      const Verification check = workload->verify(writes_nothing, stream.get());
      INFO(dtype_name(dtype) << " " << format_shape(shape) << ": " << check.message);
      CHECK_FALSE(check.passed);
      CHECK(check.mismatches == shape[0] * shape[1]);
      CHECK(contains(check.message, "row 0, col 0"));
    }
  }
}

TEST_CASE("a matmul variant index that does not exist is an error, not a silent no-op", "[gpu][matmul]") {
  CudaStream stream;
  auto workload = matmul_op().prepare({{16, 16, 16}, DType::f32, "test"}, 1);
  CHECK_THROWS_AS(workload->launch(99, stream.get()), std::out_of_range);
  CHECK_THROWS_AS(workload->launch(matmul_op().variants().size(), stream.get()), std::out_of_range);
  // A variant that exists but not for this dtype refuses too.
  CHECK_THROWS_AS(workload->launch(variant_index(matmul_op(), "tensor_core"), stream.get()), std::invalid_argument);
}

TEST_CASE("wgmma split-K matches the reference for any split count, empty splits included", "[gpu][matmul]") {
  // 64 splits of 7x13x5 (one K step) leave 63 splits empty: they must add zeros. 7x13 and 257x129
  // take the reduction's scalar path, the others its float4 path.
  const Op& op = matmul_with_split_variants();
  CudaStream stream;
  for (const Shape& shape : {Shape{7, 13, 5}, Shape{200, 72, 264}, Shape{130, 250, 64}, Shape{257, 129, 4097},
                             Shape{128, 512, 2048}, Shape{17, 4099, 1031}}) {
    for (DType dtype : {DType::f16, DType::bf16}) {
      const std::uint64_t seed = fresh_seed();
      auto workload = op.prepare({shape, dtype, "test"}, seed);
      for (int splits : kForcedSplits) {
        INFO(splits << " splits, " << dtype_name(dtype) << " " << format_shape(shape) << " seed " << seed);
        if (!verify_forced(op, *workload, "wgmma_split_k_" + std::to_string(splits), "wgmma split-K", stream.get())) {
          return;
        }
      }
    }
  }
}

TEST_CASE("the TMA kernel's split-K matches the reference on every tile for any split count, empty splits included",
          "[gpu][matmul][wgmma_tma_split_k]") {
  // 7x16x8 is one K step: 64 splits leave 63 empty (zeros). 200x72x264 leaves panels outside C;
  // 257x136x4104 and 17x4104x1032 have edge tiles in M, N and K; 64x136x1032 ends M where the second
  // warpgroup's rows begin (it issues no MMAs); 512x384x2048 is the miss's
  // class (N = 384: 2 tiles of 192, 3 of 128, 2 of 256 with one half empty), more units than SMs
  // at 64 splits.
  const Op& op = matmul_with_split_variants();
  CudaStream stream;
  for (const Shape& shape : {Shape{7, 16, 8}, Shape{200, 72, 264}, Shape{257, 136, 4104}, Shape{17, 4104, 1032},
                             Shape{64, 136, 1032}, Shape{512, 384, 2048}}) {
    for (DType dtype : {DType::f16, DType::bf16}) {
      const std::uint64_t seed = fresh_seed();
      auto workload = op.prepare({shape, dtype, "test"}, seed);
      for (matmul::TmaTile tile : kTmaTiles) {
        for (int splits : kForcedSplits) {
          const std::string name = wgmma_tma_split_k_name(tile, splits);
          INFO(name << ", " << dtype_name(dtype) << " " << format_shape(shape) << " seed " << seed);
          if (!verify_forced(op, *workload, name, "TMA split-K", stream.get())) return;
        }
      }
    }
  }
}

TEST_CASE("the TMA kernel's split-K replayed from a CUDA graph (the reduction a dependent launch) matches the reference",
          "[gpu][matmul][wgmma_tma_split_k]") {
  // Each call poisons C and the slices (NaN bits) before the replay: a reduction that read the
  // slices before the split kernel had written them would fail the check.
  const Op& op = matmul_with_split_variants();
  CudaStream stream;
  for (const Shape& shape : {Shape{257, 136, 4104}, Shape{512, 384, 2048}}) {
    const std::uint64_t seed = fresh_seed();
    auto workload = op.prepare({shape, DType::bf16, "test"}, seed);
    for (int splits : kForcedSplits) {
      const std::string name = wgmma_tma_split_k_name(matmul::TmaTile::n256, splits, true);
      INFO(name << ", bf16 " << format_shape(shape) << " seed " << seed);
      if (!verify_forced(op, *workload, name, "TMA split-K in a graph", stream.get())) return;
    }
  }
}

TEST_CASE("fp32 and tf32 split-K match the reference for any split count, empty splits included",
          "[gpu][matmul]") {
  // 64 splits of 7x13x5 or 130x250x64 leave most splits empty; 17x4099x1031 and 257x129x4097 take
  // the element-wise copies (the small-tile kernel's 4-byte ones).
  const Op& op = matmul_with_split_variants();
  CudaStream stream;
  for (const Shape& shape : {Shape{7, 13, 5}, Shape{200, 72, 264}, Shape{130, 250, 64}, Shape{257, 129, 4097},
                             Shape{128, 512, 2048}, Shape{17, 4099, 1031}, Shape{64, 136, 36}, Shape{1, 1000, 3001},
                             Shape{300, 260, 1000}, Shape{131, 257, 999}}) {
    for (DType dtype : {DType::f32, DType::tf32}) {
      const std::uint64_t seed = fresh_seed();
      auto workload = op.prepare({shape, dtype, "test"}, seed);
      for (Fp32Split kernel : kFp32Splits) {
        const bool tf32_kernel = kernel == Fp32Split::tf32_big || kernel == Fp32Split::tf32_small;
        if (tf32_kernel != (dtype == DType::tf32)) continue;
        for (int splits : kForcedSplits) {
          const std::string name = std::string(fp32_split_name(kernel)) + "_split_k_" + std::to_string(splits);
          INFO(name << " " << dtype_name(dtype) << " " << format_shape(shape) << " seed " << seed);
          const Verification check = workload->verify(variant_index(op, name), stream.get());
          INFO(check.message);
          CHECK(check.passed);
        }
      }
    }
  }
}

namespace {

/// Checks each of matmul's variants named `names` in fp32 on every shape of `shapes`, fresh inputs
/// per shape.
void check_fp32_variants(const std::vector<Shape>& shapes, const std::vector<std::string>& names) {
  const Op& op = matmul_with_split_variants();
  CudaStream stream;
  for (const Shape& shape : shapes) {
    const std::uint64_t seed = fresh_seed();
    auto workload = op.prepare({shape, DType::f32, "test"}, seed);
    for (const std::string& name : names) {
      INFO(name << " " << format_shape(shape) << " seed " << seed);
      const Verification check = workload->verify(variant_index(op, name), stream.get());
      INFO(check.message);
      CHECK(check.passed);
    }
  }
}

}  // namespace

TEST_CASE("the small-tile SIMT kernel matches the reference whole K at every tile height, on any alignment, A "
          "padded or not",
          "[gpu][matmul][small_simt]") {
  // Rows below, at and past a tile (16, 32, 48); N and K odd (4-byte copies), multiples of 4 but
  // not of the tile (16-byte copies, guarded), and whole tiles (48x96x128: the 16-row tile's
  // unguarded instantiation); padded, A's rows take 16-byte copies whatever K is (40x1000x1001: B's
  // too).
  std::vector<std::string> names;
  for (matmul::SimtSmallRows rows : kSimtSmallRows) {
    for (bool padded : {false, true}) names.push_back(small_simt_whole_name(rows, padded));
  }
  check_fp32_variants({{7, 13, 5}, {17, 4099, 1031}, {33, 1001, 999}, {47, 517, 2051}, {48, 96, 128}, {64, 136, 36},
                       {49, 260, 1000}, {130, 250, 64}, {40, 1000, 1001}},
                      names);
}

TEST_CASE("the outer-product SIMT kernel matches the reference whole K on both tiles, B aligned or not",
          "[gpu][matmul][outer_simt]") {
  // Rows below, at and past each tile's 32 or 64; N and K odd (B's 4-byte copies), multiples of 4
  // but not of a tile (16-byte copies, guarded), whole tiles, K under one chunk; B moved one float
  // off its alignment (4-byte copies whatever N is).
  std::vector<std::string> names;
  for (matmul::OuterSimtTile tile : kOuterTiles) {
    for (bool b_offset : {false, true}) names.push_back(outer_simt_whole_name(tile, b_offset));
  }
  check_fp32_variants({{7, 13, 5}, {17, 4099, 1031}, {33, 1001, 999}, {47, 517, 2051}, {64, 96, 128}, {64, 136, 36},
                       {65, 260, 1000}, {130, 250, 64}, {40, 1000, 1001}, {56, 3001, 2011}},
                      names);
}

TEST_CASE("fp32 and tf32 split-K refuse a split count out of range", "[gpu][matmul]") {
  CudaStream stream;
  DeviceBuffer operands(3 * 64 * 64 * sizeof(float)), slices(std::size_t(matmul::kMaxSplitK + 1) * 64 * 64 * 4);
  const float* a = operands.as<float>();
  const matmul::Dims dims{64, 64, 64};
  for (int splits : {0, matmul::kMaxSplitK + 1}) {
    INFO(splits);
    CHECK_THROWS_AS(matmul::launch_register_blocked_partials(a, a, slices.as<float>(), dims, splits, stream.get()),
                    std::invalid_argument);
    CHECK_THROWS_AS(
        matmul::launch_register_blocked_async_partials(a, a, slices.as<float>(), dims, splits, stream.get()),
        std::invalid_argument);
    CHECK_THROWS_AS(matmul::launch_small_simt_partials(a, a, slices.as<float>(), dims, splits, stream.get()),
                    std::invalid_argument);
    // A's pitch shorter than K.
    CHECK_THROWS_AS(matmul::launch_small_simt_partials({a, 63, a, slices.as<float>()}, dims, 2, stream.get(),
                                                       matmul::SimtSmallRows::r32),
                    std::invalid_argument);
    // Aᵀ padded past 2^31 elements.
    CHECK_THROWS_AS(matmul::launch_outer_simt_partials({a, a, slices.as<float>()}, {64, 64, 1 << 30}, 2,
                                                       matmul::OuterSimtTile::rows32_cols64, stream.get()),
                    std::invalid_argument);
    CHECK_THROWS_AS(matmul::launch_tensor_core_tf32_partials(a, a, slices.as<float>(), dims, matmul::Tf32Tile::small,
                                                             splits, stream.get()),
                    std::invalid_argument);
  }
}

TEST_CASE("wgmma split-K refuses a split count out of range", "[gpu][matmul]") {
  CudaStream stream;
  int device = 0, major = 0, minor = 0;
  REQUIRE(cudaGetDevice(&device) == cudaSuccess);
  REQUIRE(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) == cudaSuccess);
  REQUIRE(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device) == cudaSuccess);
  if (!matmul::wgmma_unavailable(major, minor).empty()) {
    WARN("matmul wgmma split-K not checked on this device");
    return;
  }
  DeviceBuffer operands(3 * 64 * 64 * sizeof(__half)), slices(std::size_t(matmul::kMaxSplitK + 1) * 64 * 64 * 4);
  const __half* a = operands.as<__half>();
  for (int splits : {0, matmul::kMaxSplitK + 1}) {
    INFO(splits);
    CHECK_THROWS_AS(matmul::launch_wgmma_partials(a, a, slices.as<float>(), {64, 64, 64}, splits, stream.get()),
                    std::invalid_argument);
  }
}

TEST_CASE("the TMA kernel's split-K refuses a split count out of range and a missing or misaligned slice buffer",
          "[gpu][matmul][wgmma_tma_split_k]") {
  int device = 0, major = 0, minor = 0;
  REQUIRE(cudaGetDevice(&device) == cudaSuccess);
  REQUIRE(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) == cudaSuccess);
  REQUIRE(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device) == cudaSuccess);
  if (!matmul::wgmma_unavailable(major, minor).empty()) {
    WARN("matmul TMA split-K not checked on this device");
    return;
  }
  CudaStream stream;
  DeviceBuffer operands(2 * 64 * 64 * sizeof(__half)), slices(std::size_t(matmul::kMaxSplitK + 1) * 64 * 64 * 4);
  const __half* a = operands.as<__half>();
  const auto maps = matmul::make_wgmma_tma_operands(a, a + 64 * 64, {64, 64, 64});
  for (int splits : {0, matmul::kMaxSplitK + 1}) {
    INFO(splits);
    CHECK_THROWS_AS(matmul::launch_wgmma_tma_partials(maps, slices.as<float>(), {64, 64, 64}, matmul::TmaTile::n128,
                                                      splits, stream.get()),
                    std::invalid_argument);
  }
  for (float* slices_at : {static_cast<float*>(nullptr), slices.as<float>() + 1}) {  // none, or 4 bytes off
    CHECK_THROWS_AS(
        matmul::launch_wgmma_tma_partials(maps, slices_at, {64, 64, 64}, matmul::TmaTile::n128, 2, stream.get()),
        std::invalid_argument);
  }
}

TEST_CASE("gemv matches the reference for M of 1 to 8, any chunk count, odd N and K, called twice",
          "[gpu][matmul][gemv]") {
  // Odd N takes the element-at-a-time columns; fp32 N a multiple of 4 the vector loads; 16-bit N a
  // multiple of 8 the tensor-core kernel (at every M of 1-8, N past and short of its 256-column
  // strips, K short of and past its 32-row steps, chunks of 1-2 steps); K below one chunk's
  // minimum, prime, and long. B misaligned by one element (the element path) on every shape. A
  // second call on the same workspace checks that the tickets were left at zero.
  const Op& op = matmul_with_gemv_variants();
  CudaStream stream;
  const std::vector<Shape> shapes{{1, 1, 1},       {2, 7, 5},      {3, 1001, 3001}, {4, 4096, 4096},
                                  {5, 4104, 777},  {6, 257, 4099}, {7, 13, 100003}, {8, 1000, 2048},
                                  {8, 4100, 63},   {1, 65536, 1031}, {3, 96, 131072}, {6, 11921, 1063},
                                  {2, 15841, 509}, {8, 129, 17},    {6, 11920, 1064}, {7, 2048, 8192},
                                  {2, 520, 96}};
  for (const Shape& shape : shapes) {
    for (DType dtype : {DType::f32, DType::f16, DType::bf16}) {
      const std::uint64_t seed = fresh_seed();
      auto workload = op.prepare({shape, dtype, "test"}, seed);
      const auto check_variant = [&](const std::string& name) {
        const std::size_t v = variant_index(op, name);
        INFO(name << ", " << dtype_name(dtype) << " " << format_shape(shape) << " seed " << seed);
        REQUIRE(workload->cannot_run(v).empty());
        for (int call = 0; call < 2; ++call) {
          const Verification check = workload->verify(v, stream.get());
          INFO("call " << call << ": " << check.message);
          CHECK(check.passed);
        }
      };
      for (int chunks : kGemvChunks) check_variant("gemv_chunks_" + std::to_string(chunks));
      for (int chunks : kGemvOffsetChunks) check_variant("gemv_chunks_" + std::to_string(chunks) + "_b_offset");
      // auto's own plan on the same problem.
      const Verification check = workload->verify(variant_index(op, "auto"), stream.get());
      INFO("auto: " << check.message);
      CHECK(check.passed);
    }
  }
}

TEST_CASE("gemv refuses M past 8, chunks out of range and a missing workspace", "[gpu][matmul][gemv]") {
  CudaStream stream;
  const matmul::Dims dims{4, 64, 64};
  DeviceBuffer a(4 * 64 * 4), b(64 * 64 * 4), c(4 * 64 * 4);
  const auto launch = [&](matmul::Dims d, int chunks, void* workspace) {
    matmul::launch_gemv(a.as<float>(), b.as<float>(), c.as<float>(), d, chunks, workspace, stream.get());
  };
  CHECK_THROWS_AS(launch({9, 64, 64}, 1, nullptr), std::invalid_argument);
  CHECK_THROWS_AS(launch(dims, 0, nullptr), std::invalid_argument);
  CHECK_THROWS_AS(launch(dims, matmul::kMaxSplitK + 1, nullptr), std::invalid_argument);
  CHECK_THROWS_AS(launch(dims, 2, nullptr), std::invalid_argument);
  CHECK_NOTHROW(launch(dims, 1, nullptr));
  KBENCH_CUDA_CALL(cudaStreamSynchronize(stream.get()));
}
