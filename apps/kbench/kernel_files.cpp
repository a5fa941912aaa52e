#include "kernel_files.hpp"

#include "source_paths.hpp"

#include "harness/device/device_info.hpp"
#include "harness/ops/kernel_file.hpp"
#include "harness/ops/plugin_loader.hpp"

#include <cstdio>
#include <cstdlib>
#include <iostream>

namespace kbench::cli {

void load_kernel_file(const std::string& path, int device, Registry& registry) {
  KernelFileToolchain toolchain;
  toolchain.nvcc = nvcc_path();
  toolchain.include_dir = public_include_dir();
  toolchain.architectures = device_architecture(device);
  if (toolchain.architectures.empty()) toolchain.architectures = build_cuda_architectures();
  const std::string cache = kernel_cache_dir(std::getenv("XDG_CACHE_HOME"), std::getenv("HOME"));

  std::string diagnostics;
  CompiledKernelFile compiled;
  try {
    compiled = compile_kernel_file(path, toolchain, cache, diagnostics);
  } catch (...) {
    std::cerr << diagnostics << std::flush;
    throw;
  }
  std::cerr << diagnostics;
  if (compiled.cached) {
    std::cerr << "kbench: cached " << path << " (" << compiled.library << ")\n";
  } else {
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%.1f", compiled.seconds);
    std::cerr << "kbench: compiled " << path << " in " << seconds << " s for sm " << toolchain.architectures << " ("
              << compiled.library << ")\n";
  }
  load_plugin(compiled.library, registry, path);
}

}  // namespace kbench::cli
