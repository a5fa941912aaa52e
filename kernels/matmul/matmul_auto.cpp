#include "kernels/matmul/matmul_auto.hpp"

#include "harness/device/current_device.hpp"
#include "harness/ops/dtype.hpp"
#include "harness/ops/dtype_dispatch.hpp"
#include "kernels/matmul/matmul_gemv.hpp"
#include "kernels/matmul/matmul_kernels.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>

namespace kbench::matmul {

namespace {

bool aligned16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

template <typename T>
void launch_16bit(const AutoPlan& plan, const MatmulArgs& args, Dims dims, float* workspace,
                  const AutoTmaOperands& tma, cudaStream_t stream) {
  const T* a = static_cast<const T*>(args.a);
  const T* b = static_cast<const T*>(args.b);
  T* c = static_cast<T*>(args.c);
  switch (plan.kernel) {
    case AutoKernel::tensor_core: return launch_tensor_core(a, b, c, dims, stream);
    case AutoKernel::wgmma: return launch_wgmma(a, b, c, dims, stream);
    case AutoKernel::wgmma_tma: {
      const auto* maps = std::get_if<WgmmaTmaOperands<T>>(&tma);
      if (maps == nullptr) throw std::logic_error("matmul auto: a wgmma_tma plan launched without its tensor maps");
      return launch_wgmma_tma(*maps, c, dims, stream);
    }
    case AutoKernel::wgmma_tma_staged:
    case AutoKernel::wgmma_tma_staged_n192:
    case AutoKernel::wgmma_tma_staged_n128: {
      const auto* maps = std::get_if<WgmmaTmaStagedOperands<T>>(&tma);
      if (maps == nullptr) throw std::logic_error("matmul auto: a staged TMA plan launched without its tensor maps");
      return launch_wgmma_tma_staged(*maps, dims, tma_tile_of_width(auto_tma_tile_n(plan.kernel)), stream);
    }
    case AutoKernel::wgmma_tma_tail_split:
    case AutoKernel::wgmma_tma_tail_split_n192:
    case AutoKernel::wgmma_tma_tail_split_n128: {
      const auto* maps = std::get_if<WgmmaTmaStagedOperands<T>>(&tma);
      if (maps == nullptr) throw std::logic_error("matmul auto: a tail-split plan launched without its tensor maps");
      return launch_wgmma_tma_tail_split(*maps, c, workspace, dims, tma_tile_of_width(auto_tma_tile_n(plan.kernel)),
                                         plan.tail, stream);
    }
    case AutoKernel::wgmma_tma_padded:
    case AutoKernel::wgmma_tma_padded_n128: {
      const auto* maps = std::get_if<WgmmaTmaPaddedOperands<T>>(&tma);
      if (maps == nullptr) throw std::logic_error("matmul auto: a padded TMA plan launched without its tensor maps");
      return launch_wgmma_tma_padded(*maps, dims, tma_tile_of_width(auto_tma_tile_n(plan.kernel)), stream);
    }
    case AutoKernel::wgmma_split_k:
      launch_wgmma_partials(a, b, workspace, dims, plan.splits, stream);
      return launch_split_k_reduce(workspace, plan.splits, c, dims, stream);
    case AutoKernel::wgmma_tma_split_k:
    case AutoKernel::wgmma_tma_split_k_n192:
    case AutoKernel::wgmma_tma_split_k_n128: {
      const auto* maps = std::get_if<WgmmaTmaOperands<T>>(&tma);
      if (maps == nullptr) throw std::logic_error("matmul auto: a TMA split-K plan launched without its tensor maps");
      launch_wgmma_tma_partials(*maps, workspace, dims, tma_tile_of_width(auto_tma_tile_n(plan.kernel)), plan.splits,
                                stream);
      return launch_split_k_reduce(workspace, plan.splits, c, dims, stream);
    }
    default: break;
  }
  throw std::logic_error("matmul auto: plan " + std::string(auto_kernel_name(plan.kernel)) + " for a 16-bit dtype");
}

/// The TF32 wgmma plans: Bᵀ into the workspace's front (rows of K rounded up to 4, zeros past K),
/// then where K is not a multiple of 4 A into such rows behind it, then the kernel on K rounded up,
/// whole K into C or split into the slices behind them and then reduced.
void launch_tf32_wgmma(const AutoPlan& plan, const float* a, const float* b, float* c, Dims dims, float* workspace,
                       const AutoTmaOperands& tma, cudaStream_t stream) {
  const auto* maps = std::get_if<WgmmaTf32Operands>(&tma);
  if (maps == nullptr) throw std::logic_error("matmul auto: a wgmma_tf32 plan launched without its tensor maps");
  const Dims padded = wgmma_tf32_dims(dims);
  launch_transpose_padded(b, dims.k, dims.n, dims.n, workspace, dims.n, padded.k, stream);
  if (plan.padded_bytes > 0) {
    launch_pad_rows_fp32(a, dims.m, dims.k, workspace + plan.transposed_b_bytes / sizeof(float), padded.k, stream);
  }
  if (plan.splits == 1) return launch_wgmma_tf32(*maps, c, padded, 1, stream);
  float* slices = workspace + (plan.transposed_b_bytes + plan.padded_bytes) / sizeof(float);
  launch_wgmma_tf32(*maps, slices, padded, plan.splits, stream);
  launch_split_k_reduce(slices, plan.splits, c, dims, stream);
}

/// fp32 data, computed exactly (DType::f32) or as TF32.
void launch_fp32(const AutoPlan& plan, const MatmulArgs& args, Dims dims, float* workspace,
                 const AutoTmaOperands& tma, cudaStream_t stream) {
  const float* a = static_cast<const float*>(args.a);
  const float* b = static_cast<const float*>(args.b);
  float* c = static_cast<float*>(args.c);
  const bool tf32 = args.dtype == DType::tf32;
  switch (plan.kernel) {
    case AutoKernel::register_blocked:
      if (!tf32) return launch_register_blocked_async(a, b, c, dims, SimtWarps::rows4_cols8, stream);
      break;
    case AutoKernel::register_blocked_split_k:
      if (tf32) break;
      launch_register_blocked_async_partials(a, b, workspace, dims, plan.splits, stream);
      return launch_split_k_reduce(workspace, plan.splits, c, dims, stream);
    case AutoKernel::small_simt:
    case AutoKernel::small_simt_split_k: {
      if (tf32) break;
      SimtOperands x{a, dims.k, b, c};
      float* slices = workspace;
      if (plan.padded_bytes > 0) {
        x.a_pitch = simt_a_pitch(dims.k);
        launch_pad_rows_fp32(a, dims.m, dims.k, workspace, x.a_pitch, stream);
        x.a = workspace;
        slices = workspace + plan.padded_bytes / sizeof(float);
      }
      if (plan.kernel == AutoKernel::small_simt) return launch_small_simt(x, dims, stream, plan.simt_rows);
      x.c = slices;
      launch_small_simt_partials(x, dims, plan.splits, stream, plan.simt_rows);
      return launch_split_k_reduce(slices, plan.splits, c, dims, stream);
    }
    case AutoKernel::outer_simt:
    case AutoKernel::outer_simt_split_k: {
      if (tf32) break;
      launch_transpose_a_for_outer(a, dims.k, dims, workspace, stream);
      OuterOperands x{workspace, b, c};
      if (plan.kernel == AutoKernel::outer_simt) return launch_outer_simt(x, dims, plan.outer_tile, stream);
      float* slices = workspace + plan.padded_bytes / sizeof(float);
      x.c = slices;
      launch_outer_simt_partials(x, dims, plan.splits, plan.outer_tile, stream);
      return launch_split_k_reduce(slices, plan.splits, c, dims, stream);
    }
    case AutoKernel::tensor_core:
      if (tf32) return launch_tensor_core_tf32(a, b, c, dims, stream);
      break;
    case AutoKernel::tensor_core_split_k:
    case AutoKernel::tensor_core_small_split_k:
      if (!tf32) break;
      launch_tensor_core_tf32_partials(
          a, b, workspace, dims, plan.kernel == AutoKernel::tensor_core_split_k ? Tf32Tile::big : Tf32Tile::small,
          plan.splits, stream);
      return launch_split_k_reduce(workspace, plan.splits, c, dims, stream);
    case AutoKernel::wgmma_tf32:
    case AutoKernel::wgmma_tf32_split_k:
      if (tf32) return launch_tf32_wgmma(plan, a, b, c, dims, workspace, tma, stream);
      break;
    default: break;
  }
  throw std::logic_error("matmul auto: plan " + std::string(auto_kernel_name(plan.kernel)) + " for " +
                         (tf32 ? "tf32" : "fp32"));
}

/// The GEMV plan in any dtype (tf32 computes in fp32: the kernel is bound by reading B).
void launch_gemv_plan(const AutoPlan& plan, const MatmulArgs& args, Dims dims, float* workspace,
                      cudaStream_t stream) {
  dispatch_dtype(args.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    launch_gemv(static_cast<const T*>(args.a), static_cast<const T*>(args.b), static_cast<T*>(args.c), dims,
                plan.splits, workspace, stream);
  });
}

}  // namespace

AutoPlan plan_for(const MatmulArgs& args) {
  const AutoDevice device{args.device.sm_count,
                          wgmma_unavailable(args.device.cc_major, args.device.cc_minor).empty(),
                          current_shared_memory_per_sm()};
  const Dims dims{static_cast<int>(args.m), static_cast<int>(args.n), static_cast<int>(args.k)};
  return plan_auto(dims, args.dtype, device, aligned16(args.a) && aligned16(args.b) && aligned16(args.c));
}

AutoPlan plan_without_tma(const MatmulArgs& args) {
  const Dims dims{static_cast<int>(args.m), static_cast<int>(args.n), static_cast<int>(args.k)};
  const bool pointers_aligned16 = aligned16(args.a) && aligned16(args.b) && aligned16(args.c);
  if (gemv_takes(dims, args.dtype, pointers_aligned16)) return plan_for(args);  // the GEMV kernels use no TMA
  if (args.dtype == DType::f16 || args.dtype == DType::bf16) return {AutoKernel::wgmma, 1, 0};
  // fp32 and tf32: the plan of a device without wgmma (the SIMT and mma.sync kernels).
  return plan_auto(dims, args.dtype, AutoDevice{args.device.sm_count, false, current_shared_memory_per_sm()},
                   pointers_aligned16);
}

AutoTmaOperands auto_tma_operands(const AutoPlan& plan, const MatmulArgs& args, const float* workspace) {
  const Dims dims{static_cast<int>(args.m), static_cast<int>(args.n), static_cast<int>(args.k)};
  if (plan.kernel == AutoKernel::wgmma_tma_staged || plan.kernel == AutoKernel::wgmma_tma_staged_n192 ||
      plan.kernel == AutoKernel::wgmma_tma_staged_n128 || runs_tma_tail_split(plan)) {
    if (args.dtype == DType::f16) {
      return make_wgmma_tma_staged_operands(static_cast<const __half*>(args.a), static_cast<const __half*>(args.b),
                                            static_cast<__half*>(args.c), dims);
    }
    if (args.dtype == DType::bf16) {
      return make_wgmma_tma_staged_operands(static_cast<const __nv_bfloat16*>(args.a),
                                            static_cast<const __nv_bfloat16*>(args.b),
                                            static_cast<__nv_bfloat16*>(args.c), dims);
    }
    throw std::logic_error("matmul auto: a staged TMA plan for " + std::string(dtype_name(args.dtype)));
  }
  if (plan.kernel == AutoKernel::wgmma_tma_padded || plan.kernel == AutoKernel::wgmma_tma_padded_n128) {
    if (padded_layout_for(dims, args.a, args.b, args.c, plan.short_rows).bytes > plan.padded_bytes) {
      throw std::logic_error("matmul auto: a padded TMA plan with less scratch than its operands need");
    }
    void* scratch = const_cast<float*>(workspace);  // the plan's whole workspace: padded_bytes
    if (args.dtype == DType::f16) {
      return make_wgmma_tma_padded_operands(static_cast<const __half*>(args.a), static_cast<const __half*>(args.b),
                                            static_cast<__half*>(args.c), dims, scratch, plan.short_rows);
    }
    if (args.dtype == DType::bf16) {
      return make_wgmma_tma_padded_operands(static_cast<const __nv_bfloat16*>(args.a),
                                            static_cast<const __nv_bfloat16*>(args.b),
                                            static_cast<__nv_bfloat16*>(args.c), dims, scratch, plan.short_rows);
    }
    throw std::logic_error("matmul auto: a padded TMA plan for " + std::string(dtype_name(args.dtype)));
  }
  if (plan.kernel == AutoKernel::wgmma_tf32 || plan.kernel == AutoKernel::wgmma_tf32_split_k) {
    // Where K is not a multiple of 4 the kernel reads A's padded copy (launch_tf32_wgmma).
    const float* a = plan.padded_bytes > 0 ? workspace + plan.transposed_b_bytes / sizeof(float)
                                           : static_cast<const float*>(args.a);
    return make_wgmma_tf32_operands(a, workspace, wgmma_tf32_dims(dims));
  }
  if (plan.kernel != AutoKernel::wgmma_tma && !runs_tma_split_k(plan)) return {};  // both read A's and B's maps
  if (args.dtype == DType::f16) {
    return make_wgmma_tma_operands(static_cast<const __half*>(args.a), static_cast<const __half*>(args.b), dims);
  }
  if (args.dtype == DType::bf16) {
    return make_wgmma_tma_operands(static_cast<const __nv_bfloat16*>(args.a),
                                   static_cast<const __nv_bfloat16*>(args.b), dims);
  }
  throw std::logic_error("matmul auto: a wgmma_tma plan for " + std::string(dtype_name(args.dtype)));
}

void launch_auto(const AutoPlan& plan, const MatmulArgs& args, float* workspace, const AutoTmaOperands& tma,
                 cudaStream_t stream) {
  const Dims dims{static_cast<int>(args.m), static_cast<int>(args.n), static_cast<int>(args.k)};
  const std::size_t workspace_bytes = plan.workspace_bytes + plan.transposed_b_bytes + plan.padded_bytes;
  if (workspace_bytes > 0 && workspace == nullptr) {
    throw std::invalid_argument("matmul auto: the plan needs " + std::to_string(workspace_bytes) +
                                " bytes of workspace, got none");
  }
  if (plan.kernel == AutoKernel::gemv) return launch_gemv_plan(plan, args, dims, workspace, stream);
  switch (args.dtype) {
    case DType::f32:
    case DType::tf32: return launch_fp32(plan, args, dims, workspace, tma, stream);
    case DType::f16: return launch_16bit<__half>(plan, args, dims, workspace, tma, stream);
    case DType::bf16: return launch_16bit<__nv_bfloat16>(plan, args, dims, workspace, tma, stream);
  }
  throw std::logic_error("matmul auto: unknown dtype");
}

}  // namespace kbench::matmul
