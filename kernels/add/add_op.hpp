#pragma once
#include "kbench/plugin.hpp"

namespace kbench {
/// Declares the elementwise add op and its variants (naive, vectorized, blocked; baseline
/// cub_transform).
void register_add(Registrar& registrar);
}  // namespace kbench
