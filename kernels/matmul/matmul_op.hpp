#pragma once
#include "kbench/plugin.hpp"

namespace kbench {
/// Declares the matmul op and its variants (naive, tiled, register_blocked, tensor_core, wgmma, auto;
/// baseline cublas).
void register_matmul(Registrar& registrar);
}  // namespace kbench
