#pragma once
#include "kbench/plugin.hpp"

namespace kbench {
/// Declares the GELU family: gelu_tanh and gelu_erf, each with the variants manual, fused,
/// vectorized, blocked and the baseline cub_transform.
void register_gelu(Registrar& registrar);
}  // namespace kbench
