// The matmul op: C = A·B, row-major, A is M×K, B is K×N, C is M×N, for a shape {M, N, K}. Its
// variants are declared here, once each, beside the launchers they call (matmul_kernels.hpp,
// matmul_cublas.hpp).
#include "kernels/matmul/matmul_op.hpp"

#include "harness/device/cuda_check.hpp"
#include "harness/device/cuda_resources.hpp"
#include "harness/device/current_device.hpp"
#include "harness/ops/dtype.hpp"
#include "harness/ops/dtype_dispatch.hpp"
#include "harness/ops/problem.hpp"
#include "kernels/matmul/matmul_auto.hpp"
#include "kernels/matmul/matmul_auto_split.hpp"
#include "kernels/matmul/matmul_cublas.hpp"
#include "kernels/matmul/matmul_gemv.hpp"
#include "kernels/matmul/matmul_kernels.hpp"
#include "kernels/matmul/matmul_problem.hpp"
#include "kernels/matmul/matmul_reference.hpp"
#include "kernels/matmul/matmul_stream_k.hpp"

#include "kbench/ops/matmul.hpp"

#include <algorithm>
#include <cstring>
#include <memory>
#include <stdexcept>

namespace kbench {

namespace {

using matmul::Dims;

/// The extents of `shape`; throws std::invalid_argument for one reject_matmul_shape refuses
/// (the kernels index in 32 bits).
Dims checked_dims(const Shape& shape) {
  const std::string why = matmul::reject_matmul_shape(shape);
  if (!why.empty()) throw std::invalid_argument("matmul: shape " + format_shape(shape) + ": " + why);
  return matmul::dims_of(shape);
}

/// The launchers' view of the args' extents (checked by make_args).
Dims dims_of(const MatmulArgs& args) {
  return {static_cast<int>(args.m), static_cast<int>(args.n), static_cast<int>(args.k)};
}

/// The args' pointers typed as T.
template <typename T>
struct Operands {
  const T* a;
  const T* b;
  T* c;
};

template <typename T>
Operands<T> operands(const MatmulArgs& args) {
  return {static_cast<const T*>(args.a), static_cast<const T*>(args.b), static_cast<T*>(args.c)};
}

/// Thrown by a launch handed a dtype its variant does not declare (the workload filters these).
std::logic_error undeclared_dtype(const char* variant, DType dtype) {
  return std::logic_error(std::string("matmul ") + variant + ": no kernel for " + std::string(dtype_name(dtype)));
}

Variant<MatmulArgs> naive() {
  Variant<MatmulArgs> v;
  v.name = "naive";
  v.description = "one thread per element of C, operands straight from global memory (tf32: computes in fp32)";
  v.launch = [](const MatmulArgs& args, cudaStream_t stream) {
    dispatch_dtype(args.dtype, [&](auto tag) {
      const auto x = operands<typename decltype(tag)::type>(args);
      matmul::launch_naive(x.a, x.b, x.c, dims_of(args), stream);
    });
  };
  return v;
}

Variant<MatmulArgs> tiled() {
  Variant<MatmulArgs> v;
  v.name = "tiled";
  v.description = "32x32 shared-memory tiles, one element per thread (tf32: computes in fp32)";
  v.launch = [](const MatmulArgs& args, cudaStream_t stream) {
    dispatch_dtype(args.dtype, [&](auto tag) {
      const auto x = operands<typename decltype(tag)::type>(args);
      matmul::launch_tiled(x.a, x.b, x.c, dims_of(args), stream);
    });
  };
  return v;
}

Variant<MatmulArgs> register_blocked() {
  Variant<MatmulArgs> v;
  v.name = "register_blocked";
  v.description =
      "128x128 block tile, 8x8 per thread in registers, double-buffered shared memory, 16-byte loads; "
      "below one tile per SM: 16x32 tiles with K split over the block's 8 warps";
  v.dtypes = {DType::f32};
  v.launch = [](const MatmulArgs& args, cudaStream_t stream) {
    const auto x = operands<float>(args);
    matmul::launch_register_blocked(x.a, x.b, x.c, dims_of(args), stream);
  };
  return v;
}

/// register_blocked with its 128×128 kernel's panels copied by cp.async (a 3-stage ring), warps
/// shaped by `warps`; named `name`.
Variant<MatmulArgs> register_blocked_async(const char* name, matmul::SimtWarps warps, const char* warp_text) {
  Variant<MatmulArgs> v;
  v.name = name;
  v.description = std::string("register_blocked's 128x128 tile and 8x8 per thread with A and B copied to shared "
                              "memory by cp.async (3-stage ring, no staging registers), warps of ") +
                  warp_text + "; below one tile per SM: register_blocked's 16x32 tiles";
  v.dtypes = {DType::f32};
  v.launch = [warps](const MatmulArgs& args, cudaStream_t stream) {
    const auto x = operands<float>(args);
    matmul::launch_register_blocked_async(x.a, x.b, x.c, dims_of(args), warps, stream);
  };
  return v;
}

Variant<MatmulArgs> tensor_core() {
  Variant<MatmulArgs> v;
  v.name = "tensor_core";
  v.description =
      "mma.sync tensor cores (fp16/bf16 m16n8k16, tf32 m16n8k8), ldmatrix, 64x64 per warp, cp.async "
      "multi-stage pipeline (fp16/bf16: 128x256 block tile, 3 stages; tf32: 128x128, 4 stages; "
      "at most one such tile per 8 SMs: 32x32 tiles of four warps splitting K)";
  v.dtypes = {DType::f16, DType::bf16, DType::tf32};
  v.launch = [](const MatmulArgs& args, cudaStream_t stream) {
    const Dims dims = dims_of(args);
    switch (args.dtype) {
      case DType::f16: {
        const auto x = operands<__half>(args);
        return matmul::launch_tensor_core(x.a, x.b, x.c, dims, stream);
      }
      case DType::bf16: {
        const auto x = operands<__nv_bfloat16>(args);
        return matmul::launch_tensor_core(x.a, x.b, x.c, dims, stream);
      }
      case DType::tf32: {
        const auto x = operands<float>(args);
        return matmul::launch_tensor_core_tf32(x.a, x.b, x.c, dims, stream);
      }
      case DType::f32: break;
    }
    throw undeclared_dtype("tensor_core", args.dtype);
  };
  return v;
}

Variant<MatmulArgs> wgmma() {
  Variant<MatmulArgs> v;
  v.name = "wgmma";
  v.description =
      "Hopper warpgroup MMA (wgmma m64n256k16, sm_90a; compute capability 9.0 only), 128x256 block tile of "
      "two warpgroups, 128-byte-swizzled shared memory filled by cp.async, 4 stages, one MMA group in flight";
  v.dtypes = {DType::f16, DType::bf16};
  v.cannot_run = [](const MatmulArgs& args) {
    return matmul::wgmma_unavailable(args.device.cc_major, args.device.cc_minor);
  };
  v.launch = [](const MatmulArgs& args, cudaStream_t stream) {
    if (args.dtype == DType::f16) {
      const auto x = operands<__half>(args);
      return matmul::launch_wgmma(x.a, x.b, x.c, dims_of(args), stream);
    }
    if (args.dtype == DType::bf16) {
      const auto x = operands<__nv_bfloat16>(args);
      return matmul::launch_wgmma(x.a, x.b, x.c, dims_of(args), stream);
    }
    throw undeclared_dtype("wgmma", args.dtype);
  };
  return v;
}

/// The wgmma tile fed by TMA: the operands' tensor maps are encoded once per problem, outside the
/// timed window; shapes TMA cannot load (K or N not a multiple of 8) are refused by name.
Variant<MatmulArgs> wgmma_tma() {
  Variant<MatmulArgs> v;
  v.name = "wgmma_tma";
  v.description =
      "wgmma m64n256k16 (sm_90a; compute capability 9.0 only) fed by TMA: persistent grid of one block per SM, "
      "a producer warpgroup issuing 128-byte-swizzled TMA loads into a 4-stage mbarrier ring, two consumer "
      "warpgroups on 128x256 tiles; K and N multiples of 8";
  v.dtypes = {DType::f16, DType::bf16};
  v.cannot_run = [](const MatmulArgs& args) {
    if (std::string why = matmul::wgmma_unavailable(args.device.cc_major, args.device.cc_minor); !why.empty()) {
      return why;
    }
    return matmul::wgmma_tma_unsupported(dims_of(args), args.a, args.b, args.c);
  };
  v.prepare = [](const MatmulArgs& args) -> CallFn {
    const Dims dims = dims_of(args);
    if (args.dtype == DType::f16) {
      const auto x = operands<__half>(args);
      auto maps = std::make_shared<const matmul::WgmmaTmaOperands<__half>>(matmul::make_wgmma_tma_operands(x.a, x.b, dims));
      return [maps, c = x.c, dims](cudaStream_t stream) { matmul::launch_wgmma_tma(*maps, c, dims, stream); };
    }
    if (args.dtype == DType::bf16) {
      const auto x = operands<__nv_bfloat16>(args);
      auto maps = std::make_shared<const matmul::WgmmaTmaOperands<__nv_bfloat16>>(
          matmul::make_wgmma_tma_operands(x.a, x.b, dims));
      return [maps, c = x.c, dims](cudaStream_t stream) { matmul::launch_wgmma_tma(*maps, c, dims, stream); };
    }
    throw undeclared_dtype("wgmma_tma", args.dtype);
  };
  return v;
}

/// The staged variant's name for `tile`: wgmma_tma_staged (128×256), _n192 or _n128.
std::string staged_name(matmul::TmaTile tile) {
  switch (tile) {
    case matmul::TmaTile::n256: return "wgmma_tma_staged";
    case matmul::TmaTile::n192: return "wgmma_tma_staged_n192";
    case matmul::TmaTile::n128: return "wgmma_tma_staged_n128";
  }
  return "?";
}

std::string tile_description(matmul::TmaTile tile) {
  switch (tile) {
    case matmul::TmaTile::n256: return "128x256 tiles";
    case matmul::TmaTile::n192: return "128x192 tiles (m64n192k16, 4-stage ring)";
    case matmul::TmaTile::n128: return "128x128 tiles (m64n128k16, 6-stage ring)";
  }
  return "?";
}

/// Why the staged TMA kernel (whole tiles or stream-K) cannot run these operands, or empty.
std::string staged_cannot_run(const MatmulArgs& args) {
  if (std::string why = matmul::wgmma_unavailable(args.device.cc_major, args.device.cc_minor); !why.empty()) {
    return why;
  }
  return matmul::wgmma_tma_staged_unsupported(dims_of(args), args.a, args.b, args.c);
}

/// The TMA kernel with its epilogue through shared memory and TMA stores, on 128×256 tiles
/// (`wgmma_tma_staged`), 128×192 (`_n192`) or 128×128 (`_n128`); the three tensor maps are encoded
/// once per problem, outside the timed window.
Variant<MatmulArgs> wgmma_tma_staged(matmul::TmaTile tile) {
  Variant<MatmulArgs> v;
  v.name = staged_name(tile);
  v.description = "wgmma_tma's persistent, warp-specialised kernel (compute capability 9.0 only) on " +
                  tile_description(tile) +
                  ", C rounded into swizzled shared-memory panels and written by TMA stores while the consumers "
                  "start the next tile; K and N multiples of 8, C 16-byte aligned";
  v.dtypes = {DType::f16, DType::bf16};
  v.cannot_run = staged_cannot_run;
  v.prepare = [tile](const MatmulArgs& args) -> CallFn {
    const Dims dims = dims_of(args);
    if (args.dtype == DType::f16) {
      const auto x = operands<__half>(args);
      auto maps = std::make_shared<const matmul::WgmmaTmaStagedOperands<__half>>(
          matmul::make_wgmma_tma_staged_operands(x.a, x.b, x.c, dims));
      return [maps, dims, tile](cudaStream_t stream) { matmul::launch_wgmma_tma_staged(*maps, dims, tile, stream); };
    }
    if (args.dtype == DType::bf16) {
      const auto x = operands<__nv_bfloat16>(args);
      auto maps = std::make_shared<const matmul::WgmmaTmaStagedOperands<__nv_bfloat16>>(
          matmul::make_wgmma_tma_staged_operands(x.a, x.b, x.c, dims));
      return [maps, dims, tile](cudaStream_t stream) { matmul::launch_wgmma_tma_staged(*maps, dims, tile, stream); };
    }
    throw undeclared_dtype(staged_name(tile).c_str(), args.dtype);
  };
  return v;
}

/// A call's workspace, zeroed once (gemv's tickets and stream-K's flags must start at zero; the other plans overwrite theirs).
std::shared_ptr<const DeviceBuffer> zeroed_workspace(std::size_t bytes) {
  return std::make_shared<const DeviceBuffer>(zeroed_device_buffer(bytes));
}

/// The staged TMA kernel's 128×256 tiles under stream-K (matmul_stream_k.hpp): one block per SM,
/// the last rounds' tile steps spread evenly over them; the slots and flags are allocated and zeroed
/// once per problem, outside the timed window.
Variant<MatmulArgs> wgmma_tma_stream_k() {
  Variant<MatmulArgs> v;
  v.name = "wgmma_tma_stream_k";
  v.description =
      "wgmma_tma_staged's 128x256 kernel (compute capability 9.0 only) under stream-K: one block per SM runs "
      "whole tiles for all but the last two rounds, then an even share of the remaining tiles' 64-deep K steps; a "
      "tile split between blocks is finished by the block holding its first step, which adds the others' fp32 "
      "parts (handed over through a workspace slot and flag per block); shapes whose tiles fill the SMs a whole "
      "number of times, or number fewer than the SMs, run every tile whole; K and N multiples of 8, C 16-byte aligned";
  v.dtypes = {DType::f16, DType::bf16};
  v.cannot_run = staged_cannot_run;
  v.prepare = [](const MatmulArgs& args) -> CallFn {
    const Dims dims = dims_of(args);
    const matmul::StreamKSchedule schedule =
        matmul::stream_k_schedule(dims, matmul::kWgmmaTileN, matmul::stream_k_grid(dims, args.device.sm_count));
    auto workspace = zeroed_workspace(matmul::stream_k_workspace_bytes(schedule.grid, matmul::kWgmmaTileN));
    auto call = [&](auto tag) -> CallFn {
      using T = typename decltype(tag)::type;
      const auto x = operands<T>(args);
      auto maps = std::make_shared<const matmul::WgmmaTmaStagedOperands<T>>(
          matmul::make_wgmma_tma_staged_operands(x.a, x.b, x.c, dims));
      return [maps, workspace, dims, schedule](cudaStream_t stream) {
        matmul::launch_wgmma_tma_stream_k(*maps, dims, schedule, const_cast<void*>(workspace->get()), stream);
      };
    };
    if (args.dtype == DType::f16) return call(TypeTag<__half>{});
    if (args.dtype == DType::bf16) return call(TypeTag<__nv_bfloat16>{});
    throw undeclared_dtype("wgmma_tma_stream_k", args.dtype);
  };
  return v;
}

/// The tail-split variant's name for `tile` (auto's name for the same kernel): wgmma_tma_tail_split
/// (128×256), _n192 or _n128.
std::string tail_split_name(matmul::TmaTile tile) {
  return std::string(matmul::auto_kernel_name(matmul::tma_tail_split_kernel(matmul::tma_tile_n(tile))));
}

/// The staged TMA kernel with the last, partial round of tiles split over the SMs
/// (matmul_tile_schedule.hpp, TailSplit): the plan, the parts buffer and the maps are made once per
/// problem, outside the timed window.
Variant<MatmulArgs> wgmma_tma_tail_split(matmul::TmaTile tile) {
  Variant<MatmulArgs> v;
  v.name = tail_split_name(tile);
  v.description = staged_name(tile) +
                  " (compute capability 9.0 only) where its tiles pass a whole number of rounds on the SMs: one "
                  "block per SM runs the whole rounds' tiles whole, then the last round's tiles each split over K "
                  "into as many units as fill the SMs once, their fp32 parts added in split order by a second "
                  "kernel; refuses shapes with no partial round to split; K and N multiples of 8, C 16-byte aligned";
  v.dtypes = {DType::f16, DType::bf16};
  v.kernels_per_call = 2;
  v.cannot_run = [tile](const MatmulArgs& args) {
    if (std::string why = staged_cannot_run(args); !why.empty()) return why;
    const Dims dims = dims_of(args);
    if (matmul::plan_tail_split(dims, matmul::tma_tile_n(tile), args.device.sm_count).splits < 2) {
      return "no partial last round to split on " + std::to_string(args.device.sm_count) +
             " SMs (the tiles fill them at most once or a whole number of times, or K is under " +
             std::to_string(2 * matmul::kAutoMinStepsPerSplit * matmul::kWgmmaStepK) + "): " + staged_name(tile) +
             " runs this shape";
    }
    return std::string();
  };
  v.prepare = [tile](const MatmulArgs& args) -> CallFn {
    const Dims dims = dims_of(args);
    const int tile_n = matmul::tma_tile_n(tile);
    const matmul::TailSplit plan = matmul::plan_tail_split(dims, tile_n, args.device.sm_count);
    auto parts = std::make_shared<const DeviceBuffer>(matmul::tail_split_parts_bytes(plan, tile_n));
    auto call = [&](auto tag) -> CallFn {
      using T = typename decltype(tag)::type;
      const auto x = operands<T>(args);
      auto maps = std::make_shared<const matmul::WgmmaTmaStagedOperands<T>>(
          matmul::make_wgmma_tma_staged_operands(x.a, x.b, x.c, dims));
      return [maps, parts, c = x.c, dims, tile, plan](cudaStream_t stream) {
        matmul::launch_wgmma_tma_tail_split(*maps, c, static_cast<float*>(const_cast<void*>(parts->get())), dims,
                                            tile, plan, stream);
      };
    };
    if (args.dtype == DType::f16) return call(TypeTag<__half>{});
    if (args.dtype == DType::bf16) return call(TypeTag<__nv_bfloat16>{});
    throw undeclared_dtype(tail_split_name(tile).c_str(), args.dtype);
  };
  return v;
}

/// The staged TMA kernel on any 16-bit shape: operands TMA cannot address (rows not a multiple of
/// 16 bytes, or misaligned), and B whose rows are not 128-byte multiples (the kernel read such rows
/// 1.3-1.6x slower), are copied inside the call into padded scratch, C (only where TMA cannot write
/// it) through scratch and a copy-out (matmul_padded_layout.hpp). The scratch and the maps are made once per problem, outside
/// the timed window; the copies are inside it.
Variant<MatmulArgs> wgmma_tma_padded(matmul::TmaTile tile) {
  Variant<MatmulArgs> v;
  const bool narrow = tile == matmul::TmaTile::n128;
  v.name = narrow ? "wgmma_tma_padded_n128" : "wgmma_tma_padded";
  v.description = std::string(narrow ? "wgmma_tma_staged_n128" : "wgmma_tma_staged") +
                  " on any shape (compute capability 9.0 only): A whose rows are not a multiple of 16 bytes and B "
                  "whose rows are not 128-byte multiples are first copied (one kernel) into scratch of 128-byte rows; C, "
                  "where its rows are not a multiple of 16 bytes or it is misaligned, is written to such scratch and "
                  "copied out (a third kernel); refuses shapes with nothing to copy (the staged variant runs those)";
  v.dtypes = {DType::f16, DType::bf16};
  v.kernels_per_call = 3;  // where K and N are not multiples of 8
  v.cannot_run = [narrow](const MatmulArgs& args) {
    if (std::string why = matmul::wgmma_unavailable(args.device.cc_major, args.device.cc_minor); !why.empty()) {
      return why;
    }
    if (matmul::padded_layout_for(dims_of(args), args.a, args.b, args.c).bytes == 0) {
      return std::string("nothing to copy (K a multiple of 8, N of 64, operands 16-byte aligned): ") +
             (narrow ? "wgmma_tma_staged_n128" : "wgmma_tma_staged") + " runs this shape as it is";
    }
    return std::string();
  };
  v.prepare = [tile, name = v.name](const MatmulArgs& args) -> CallFn {
    const Dims dims = dims_of(args);
    auto scratch =
        std::make_shared<const DeviceBuffer>(matmul::padded_layout_for(dims, args.a, args.b, args.c).bytes);
    auto call = [&](auto tag) -> CallFn {
      using T = typename decltype(tag)::type;
      const auto x = operands<T>(args);
      auto maps = std::make_shared<const matmul::WgmmaTmaPaddedOperands<T>>(
          matmul::make_wgmma_tma_padded_operands(x.a, x.b, x.c, dims, scratch->get()));
      return [maps, scratch, dims, tile](cudaStream_t stream) {
        matmul::launch_wgmma_tma_padded(*maps, dims, tile, stream);
      };
    };
    if (args.dtype == DType::f16) return call(TypeTag<__half>{});
    if (args.dtype == DType::bf16) return call(TypeTag<__nv_bfloat16>{});
    throw undeclared_dtype(name.c_str(), args.dtype);
  };
  return v;
}

/// TF32 on Hopper's wgmma. Each call first writes Bᵀ to a workspace (TF32 wgmma reads both
/// operands K-major; the pre-pass is inside the timed call), then runs the TMA-fed kernel over the
/// whole of K. The workspace and the tensor maps are made once per problem, outside the timed window.
Variant<MatmulArgs> wgmma_tf32() {
  Variant<MatmulArgs> v;
  v.name = "wgmma_tf32";
  v.description =
      "TF32 on Hopper's warpgroup MMA (wgmma m64n256k8, sm_90a; compute capability 9.0 only): a pre-pass writes "
      "B transposed (TF32 wgmma reads both operands K-major), then a persistent grid of one block per SM, a "
      "producer warpgroup issuing 128-byte-swizzled TMA loads into a 4-stage mbarrier ring of 32-deep steps, two "
      "consumer warpgroups on 128x256 tiles; K a multiple of 4";
  v.dtypes = {DType::tf32};
  v.kernels_per_call = 2;
  v.cannot_run = [](const MatmulArgs& args) {
    if (std::string why = matmul::wgmma_unavailable(args.device.cc_major, args.device.cc_minor); !why.empty()) {
      return why;
    }
    return matmul::wgmma_tf32_unsupported(dims_of(args), args.a, args.c);
  };
  v.prepare = [](const MatmulArgs& args) -> CallFn {
    if (args.dtype != DType::tf32) throw undeclared_dtype("wgmma_tf32", args.dtype);
    const Dims dims = dims_of(args);
    const auto x = operands<float>(args);
    auto transposed_b = std::make_shared<const DeviceBuffer>(matmul::wgmma_tf32_transposed_b_bytes(dims));
    auto maps = std::make_shared<const matmul::WgmmaTf32Operands>(
        matmul::make_wgmma_tf32_operands(x.a, transposed_b->as<float>(), dims));
    return [maps, transposed_b, b = x.b, c = x.c, dims](cudaStream_t stream) {
      matmul::launch_transpose(b, transposed_b->as<float>(), dims.k, dims.n, stream);
      matmul::launch_wgmma_tf32(*maps, c, dims, 1, stream);
    };
  };
  return v;
}

/// What a framework would ship: per problem, a kernel and launch shape from a fixed rule
/// (matmul_auto_plan.hpp; NOTES.md, "auto"), with its split-K workspace allocated outside the
/// timed window. Some plans launch more than one kernel (a split-K plan the product's slices, then
/// their sum, as cuBLAS's own split-K does; the padded and transposed copies of the outer-product and
/// wgmma_tf32 plans before the product): kernels_per_call stays 1, the count of most plans, and the
/// CUPTI breakdown reports the kernels each call traced.
Variant<MatmulArgs> auto_variant() {
  Variant<MatmulArgs> v;
  v.name = "auto";
  v.description =
      "per problem, from a fixed rule on M, N, K, dtype and device: gemv for M <= 8 (16-bit at 5-8 rows only "
      "where K or N is not a multiple of 8); on Hopper in 16-bit, wgmma_tma_staged on "
      "128x256 or 128x128 tiles, whichever leaves the smaller last wave (128x256 for M <= 64, whose second "
      "warpgroup then issues no MMAs; K and N multiples of 8; for M >= 128 the tail split on that tile "
      "(wgmma_tma_tail_split) where its model, 10 us for the parts and the second kernel charged, is 5% faster; "
      "where N is not a "
      "multiple of 64, wgmma_tma_padded where its model, B copied to rows of 128-byte multiples, beats the "
      "staged kernel reading B's rows off 128 bytes, modelled 1.4x slower; other shapes "
      "wgmma_tma_padded on the same tile where its model, the copies included, beats wgmma's element-wise "
      "copies), or wgmma with K split over the SMs and a reduction kernel when the 128x256 tiles fill under half "
      "of them (2 splits, or 3+ where M >= 128, K <= 4096 and the 128x128 tiles fill a quarter of the SMs: "
      "whole K on 128x128 tiles instead; other aligned 3+ splits: the TMA kernel's split-K on the 128x256, "
      "128x192 or 128x128 tile whose wave of splits finishes soonest, where M >= 128); tensor_core below 512^3, off Hopper and for unaligned shapes of "
      "few tiles that do not split; fp32 and tf32: register_blocked_async's 128x128 tile / the small-tile kernel "
      "(16x32 tiles; 32x32 or 48x32 for M of 17-64; A's rows padded to a multiple of 4 floats first where K is not "
      "one) / for M of 17-128 the outer-product kernel (64x32 or 32x64 tiles, 8x8 outputs a thread, on a "
      "transposed copy of A written first) / tensor_core (128x128 or 32x32), with K split and the fp32 reduction "
      "where a cost model of each finds it faster; tf32 on Hopper: wgmma_tf32 (whole or K split; where K is not a multiple of 4, on copies of A and "
      "the transposed B with rows padded to a multiple of 4) where its model, the copies included, is faster still";
  v.prepare = [](const MatmulArgs& args) -> CallFn {
    matmul::AutoPlan plan = matmul::plan_for(args);
    auto workspace = zeroed_workspace(plan.transposed_b_bytes + plan.workspace_bytes + plan.padded_bytes);
    std::shared_ptr<const matmul::AutoTmaOperands> tma;
    try {
      tma = std::make_shared<const matmul::AutoTmaOperands>(
          matmul::auto_tma_operands(plan, args, workspace->as<float>()));
    } catch (const CudaError&) {
      // A driver without cuTensorMapEncodeTiled, or one that refuses the maps: the kernels without
      // TMA (16-bit: the same tiles through cp.async, `wgmma`), as a framework would fall back.
      plan = matmul::plan_without_tma(args);
      tma = std::make_shared<const matmul::AutoTmaOperands>();
      workspace = zeroed_workspace(plan.transposed_b_bytes + plan.workspace_bytes + plan.padded_bytes);
    }
    return [plan, args, workspace, tma](cudaStream_t stream) {
      matmul::launch_auto(plan, args, workspace->as<float>(), *tma, stream);
    };
  };
  return v;
}

/// The GEMV kernels for M <= 8 in every dtype (auto's plan for fp32 and tf32 at those rows, and
/// 16-bit up to 4), with its chunk count and zeroed tickets made outside the timed window.
Variant<MatmulArgs> gemv() {
  Variant<MatmulArgs> v;
  v.name = "gemv";
  v.description =
      "M <= 8 only: B's columns in strips of 512-byte row stretches, K in chunks filling the SMs, the chunks' "
      "fp32 sums added by each strip's last block; fp16/bf16 with N a multiple of 8 and B 16-byte aligned on "
      "tensor cores (mma.sync on C^T = B^T A^T, B through cp.async stages), the rest 16- or 8-byte loads and "
      "fp32 FMAs (tf32: computes in fp32)";
  v.cannot_run = [](const MatmulArgs& args) {
    return matmul::gemv_unsupported(dims_of(args));
  };
  v.prepare = [](const MatmulArgs& args) -> CallFn {
    const Dims dims = dims_of(args);
    const int chunks = matmul::gemv_chunks(dims, element_size(args.dtype), args.device.sm_count,
                                           current_shared_memory_per_sm());
    auto workspace = zeroed_workspace(matmul::gemv_workspace_bytes(dims, element_size(args.dtype), chunks));
    return [args, dims, chunks, workspace](cudaStream_t stream) {
      dispatch_dtype(args.dtype, [&](auto tag) {
        const auto x = operands<typename decltype(tag)::type>(args);
        matmul::launch_gemv(x.a, x.b, x.c, dims, chunks, workspace->get(), stream);
      });
    };
  };
  return v;
}

Variant<MatmulArgs> cublas() {
  Variant<MatmulArgs> v;
  v.name = "cublas";
  v.role = VariantRole::baseline;
  v.description = "cublasGemmEx, row-major via the transpose; fp32 without TF32, tf32 with COMPUTE_32F_FAST_TF32";
  // One handle and workspace per problem, created outside the timed window and owned by the call.
  v.prepare = [](const MatmulArgs& args) -> CallFn {
    auto handle = std::make_shared<const matmul::CublasMatmul>();
    const Dims dims = dims_of(args);
    return [handle, args, dims](cudaStream_t stream) { handle->run(args.dtype, args.a, args.b, args.c, dims, stream); };
  };
  return v;
}

/// The sample's seed, from the inputs' first values: each input set, and each run, is checked at
/// its own positions, while the same inputs always give the same ones.
std::uint64_t sample_seed(const std::vector<std::vector<float>>& inputs) {
  std::uint64_t hash = 0xCBF29CE484222325ull;  // FNV-1a over 32-bit words
  for (const std::vector<float>& tensor : inputs) {
    for (std::size_t i = 0; i < std::min<std::size_t>(tensor.size(), 64); ++i) {
      std::uint32_t bits;
      std::memcpy(&bits, &tensor[i], sizeof bits);
      hash = (hash ^ bits) * 0x100000001B3ull;
    }
  }
  return hash;
}

/// C in float64 from the exact inputs: every element when C has at most
/// matmul::kFullCheckLimit, otherwise at sampled positions (matmul::sample_positions), where
/// the workload also requires every element of C to be finite.
std::vector<OutputReference> reference(const Problem& problem, const std::vector<std::vector<float>>& inputs) {
  const Dims dims = checked_dims(problem.shape);
  const std::vector<std::int64_t> positions = matmul::sample_positions(dims.m, dims.n, sample_seed(inputs));
  matmul::ReferenceValues values = matmul::reference_at(inputs[0], inputs[1], dims.m, dims.n, dims.k, positions);
  OutputReference c;
  c.values = std::move(values.value);
  c.scale = std::move(values.scale);
  if (static_cast<std::int64_t>(positions.size()) < std::int64_t{dims.m} * dims.n) c.positions = positions;
  return {std::move(c)};
}

std::vector<Shape> shapes_for(const std::string& size_class, const std::vector<Shape>&) {
  if (size_class == "small") return {{512, 512, 512}};
  if (size_class == "medium") return {{1024, 1024, 1024}, {2048, 2048, 2048}};
  if (size_class == "large") return {{4096, 4096, 4096}};
  if (size_class == "xlarge") return {{8192, 8192, 8192}};
  if (size_class == "batch") return {{1000, 1000, 1000}, {4096, 1024, 8192}, {127, 4099, 65}};  // not tile multiples
  return {};
}

Traffic traffic(const Problem& problem) {
  const double m = static_cast<double>(problem.shape.at(0));
  const double n = static_cast<double>(problem.shape.at(1));
  const double k = static_cast<double>(problem.shape.at(2));
  const double size = static_cast<double>(dtype_size(problem.dtype));
  const char* math = problem.dtype == DType::f32    ? "fp32"
                     : problem.dtype == DType::tf32 ? "tf32_tensor"
                                                    : "fp16_tensor";
  return {(m * k + k * n) * size, m * n * size, 2 * m * n * k, math};
}

OpDefinition<MatmulArgs> matmul_definition() {
  OpDefinition<MatmulArgs> op;
  op.name = "matmul";
  op.summary = "C = A·B, row-major; shape MxNxK (A is MxK, B is KxN); fp32 accumulation";
  op.dtypes = {DType::f32, DType::f16, DType::bf16, DType::tf32};
  op.reject_shape = matmul::reject_matmul_shape;
  op.shapes_for = shapes_for;
  op.traffic = traffic;
  // The cuBLAS baseline's workspace, the most that auto's split-K slices can take, stream-K's slots, for tf32 the
  // transposed B of wgmma_tf32 (and of auto's plans that run it), for 16-bit the padded copies of
  // wgmma_tma_padded (and of auto's plans that run it), for fp32 auto's padded A or Aᵀ of the small
  // tiles, for tf32 the padded A of auto's wgmma_tf32 plans where K is not a multiple of 4.
  op.scratch_bytes = [](const Problem& problem) {
    const Dims dims = checked_dims(problem.shape);
    const double transposed_b =
        problem.dtype == DType::tf32 ? static_cast<double>(matmul::wgmma_tf32_transposed_b_bytes(dims)) : 0.0;
    const bool half = problem.dtype == DType::f16 || problem.dtype == DType::bf16;
    double padded = 0.0;
    if (half) {
      padded = static_cast<double>(matmul::padded_layout_bound(dims).bytes);
    } else if (problem.dtype == DType::tf32 && dims.k % 4 != 0) {
      padded = static_cast<double>(matmul::wgmma_tf32_padded_a_bytes(dims));
    } else if (problem.dtype == DType::f32 && dims.m <= matmul::kOuterMaxRows) {
      padded = static_cast<double>(std::max<std::int64_t>(static_cast<std::int64_t>(matmul::simt_padded_a_bytes(dims)),
                                                          matmul::outer_at_bytes(dims)));
    }
    // wgmma_tma_stream_k: a slot a block, at most a block a tile and kStreamKMostBlocks.
    const double stream_k =
        half ? static_cast<double>(matmul::stream_k_workspace_bytes(
                   matmul::stream_k_grid(dims, matmul::kStreamKMostBlocks), matmul::kWgmmaTileN))
             : 0.0;
    return static_cast<double>(matmul::kCublasWorkspaceBytes) +
           static_cast<double>(matmul::auto_workspace_bound(dims)) + transposed_b + padded + stream_k;
  };
  op.inputs = [](const Problem& problem) {
    const Dims dims = checked_dims(problem.shape);
    return std::vector<InputSpec>{{"A", std::int64_t{dims.m} * dims.k}, {"B", std::int64_t{dims.k} * dims.n}};
  };
  op.outputs = [](const Problem& problem) {
    const Dims dims = checked_dims(problem.shape);
    return std::vector<OutputSpec>{{"C", std::int64_t{dims.m} * dims.n}};
  };
  op.reference = reference;
  op.tolerance = matmul::matmul_tolerance;
  op.describe_position = [](const Problem& problem, std::size_t, std::int64_t flat) {
    const std::int64_t n = problem.shape.at(1);
    return "row " + std::to_string(flat / n) + ", col " + std::to_string(flat % n);
  };
  op.make_args = [](const Problem& problem, const Buffers& buffers) {
    const Dims dims = checked_dims(problem.shape);
    return MatmulArgs{problem.dtype, dims.m, dims.n, dims.k, buffers.inputs[0], buffers.inputs[1],
                      buffers.outputs[0], buffers.device};
  };
  op.variants = {naive(),
                 tiled(),
                 register_blocked(),
                 register_blocked_async("register_blocked_async", matmul::SimtWarps::rows4_cols8,
                                        "4x8 threads (one shared wavefront per fragment load)"),
                 tensor_core(),
                 wgmma(),
                 wgmma_tma(),
                 wgmma_tma_staged(matmul::TmaTile::n256),
                 wgmma_tma_staged(matmul::TmaTile::n192),
                 wgmma_tma_staged(matmul::TmaTile::n128),
                 wgmma_tma_stream_k(),
                 wgmma_tma_tail_split(matmul::TmaTile::n256),
                 wgmma_tma_tail_split(matmul::TmaTile::n192),
                 wgmma_tma_tail_split(matmul::TmaTile::n128),
                 wgmma_tma_padded(matmul::TmaTile::n256),
                 wgmma_tma_padded(matmul::TmaTile::n128),
                 wgmma_tf32(),
                 auto_variant(),
                 gemv(),
                 cublas()};
  return op;
}

}  // namespace

void register_matmul(Registrar& registrar) { registrar.add_op(matmul_definition()); }

}  // namespace kbench
