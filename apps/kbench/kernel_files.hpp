#pragma once
/// --kernel-file: compiles each file (or finds it in the per-user cache) and loads it as a plugin
/// whose rows name the file as their source.

#include "harness/ops/registry.hpp"

#include <string>

namespace kbench::cli {

/// Compiles `path` for device `device`'s architecture (the build's architectures when there is no
/// such device) and registers what it declares. Says on stderr whether it compiled or found it
/// cached; nvcc's messages go to stderr too. A file that does not compile is an InputError.
void load_kernel_file(const std::string& path, int device, Registry& registry);

}  // namespace kbench::cli
