#pragma once
/// `kbench device`: the GPU's attributes and the peaks kbench derives from them.

#include "cli_options.hpp"

namespace kbench::cli {

/// Prints the device block; device errors propagate as exceptions.
int device_command(const Options& options);

}  // namespace kbench::cli
