#pragma once
#include "harness/ops/registry.hpp"

namespace kbench {
/// Registers the matmul op (variants naive, tiled, register_blocked, tensor_core; baseline cublas).
void register_matmul(Registry& registry);
}  // namespace kbench
