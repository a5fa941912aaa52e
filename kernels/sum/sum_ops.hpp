#pragma once
#include "kbench/plugin.hpp"

namespace kbench {
/// Declares the reduction family "sum": sum_full (axis=None), sum_inner (axis=-1), sum_outer
/// (every axis but the last, e.g. axis=(0,1) of a 3-D tensor) and max_inner (max over axis=-1).
void register_sum(Registrar& registrar);
}  // namespace kbench
