#pragma once
#include "harness/ops/registry.hpp"

namespace kbench {
/// Registers the GELU family: gelu_tanh and gelu_erf (variants manual, fused, vectorized;
/// baseline cub_transform).
void register_gelu(Registry& registry);
}  // namespace kbench
