#pragma once
/// The matmul `auto` variant's call: the kernels of a plan (matmul_auto_plan.hpp) launched on one
/// problem. Host code.

#include "kbench/ops/matmul.hpp"
#include "kernels/matmul/matmul_auto_plan.hpp"
#include "kernels/matmul/matmul_kernels.hpp"

#include <cuda_runtime_api.h>

#include <variant>

namespace kbench::matmul {

/// The plan that plan_auto makes for `args` on args.device.
AutoPlan plan_for(const MatmulArgs& args);

/// The plan when the driver cannot encode tensor maps: the same problem without the TMA kernels.
AutoPlan plan_without_tma(const MatmulArgs& args);

/// The tensor maps a wgmma_tma plan reads A and B through (a staged one also writes C through; a
/// padded one with its copies' layout), or a wgmma_tf32 plan A and Bᵀ; nothing for the other plans.
using AutoTmaOperands = std::variant<std::monostate, WgmmaTmaOperands<__half>, WgmmaTmaOperands<__nv_bfloat16>,
                                     WgmmaTmaStagedOperands<__half>, WgmmaTmaStagedOperands<__nv_bfloat16>,
                                     WgmmaTf32Operands, WgmmaTmaPaddedOperands<__half>,
                                     WgmmaTmaPaddedOperands<__nv_bfloat16>>;

/// `plan`'s tensor maps for `args`, encoded on the host once per problem (outside the timed window).
/// `workspace`: the call's workspace (launch_auto's), where a wgmma_tf32 plan keeps Bᵀ (and A's
/// padded copy where K is not a multiple of 4) and a wgmma_tma_padded plan its padded copies.
AutoTmaOperands auto_tma_operands(const AutoPlan& plan, const MatmulArgs& args, const float* workspace);

/// Enqueues `plan`'s kernels for `args` on `stream`. `workspace`: plan.transposed_b_bytes +
/// plan.workspace_bytes + plan.padded_bytes of device memory (cudaMalloc'd; may be null when that is 0); `tma`:
/// auto_tma_operands(plan, args, workspace).
void launch_auto(const AutoPlan& plan, const MatmulArgs& args, float* workspace, const AutoTmaOperands& tma,
                 cudaStream_t stream);

}  // namespace kbench::matmul
