#pragma once
#include "harness/registry.hpp"

namespace kbench {
/// Registers the elementwise add op (variants naive, vectorized; baseline cub_transform).
void register_add(Registry& registry);
}  // namespace kbench
