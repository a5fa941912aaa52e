#pragma once
#include "harness/ops/registry.hpp"

namespace kbench {
/// Registers the softmax op (variants manual, fused, online; baseline cudnn, or fused_reference
/// where cuDNN was not found at configure time).
void register_softmax(Registry& registry);
}  // namespace kbench
