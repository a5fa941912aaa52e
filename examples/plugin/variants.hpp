#pragma once
// The example plugin's declarations, registered in plugin.cpp.

#include "rmsnorm_args.hpp"

#include <kbench/op_definition.hpp>
#include <kbench/ops/softmax.hpp>
#include <kbench/variant.hpp>

namespace example {

/// softmax: one warp per row (warp_softmax.cu).
kbench::Variant<kbench::SoftmaxArgs> warp_softmax();

/// rmsnorm: one warp per row (rmsnorm_kernels.cu).
kbench::Variant<RmsNormArgs> rmsnorm_warp_row();

/// rmsnorm: one 256-thread block per row, the simple baseline (rmsnorm_kernels.cu).
kbench::Variant<RmsNormArgs> rmsnorm_block_row();

/// The rmsnorm op: tensors, reference, tolerance, traffic and its variants (rmsnorm_op.cpp).
kbench::OpDefinition<RmsNormArgs> rmsnorm_definition();

}  // namespace example
