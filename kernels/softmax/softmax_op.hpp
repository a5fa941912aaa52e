#pragma once
#include "kbench/plugin.hpp"

namespace kbench {
/// Declares the softmax op and its variants (manual, fused, online, register_row; baseline cudnn,
/// or fused_reference where cuDNN was not found at configure time).
void register_softmax(Registrar& registrar);
}  // namespace kbench
