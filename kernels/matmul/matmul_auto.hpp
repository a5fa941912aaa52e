#pragma once
/// The matmul `auto` variant's call: the kernels of a plan (matmul_auto_plan.hpp) launched on one
/// problem. Host code.

#include "kbench/ops/matmul.hpp"
#include "kernels/matmul/matmul_auto_plan.hpp"

#include <cuda_runtime_api.h>

namespace kbench::matmul {

/// The plan that plan_auto makes for `args` on args.device.
AutoPlan plan_for(const MatmulArgs& args);

/// Enqueues `plan`'s kernels for `args` on `stream`. `workspace`: plan.workspace_bytes of device
/// memory (cudaMalloc'd; may be null when that is 0).
void launch_auto(const AutoPlan& plan, const MatmulArgs& args, float* workspace, cudaStream_t stream);

}  // namespace kbench::matmul
