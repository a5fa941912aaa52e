#pragma once
#include "harness/ops/registry.hpp"

namespace kbench {
/// Registers the elementwise add op (variants naive, vectorized; baseline cub_transform).
void register_add(Registry& registry);
}  // namespace kbench
