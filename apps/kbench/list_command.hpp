#pragma once
/// `kbench list`: ops, variants, dtypes, size classes, the shipped configs and the thresholds file.

#include "harness/ops/registry.hpp"

namespace kbench::cli {

/// Prints the listing to stdout; returns exit code 0.
int list_command(const Registry& registry);

}  // namespace kbench::cli
