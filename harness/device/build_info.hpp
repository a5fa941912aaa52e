#pragma once
/// How this kbench binary was built; generated at configure time (harness/device/build_info.cpp.in).

#include <string>

namespace kbench {

struct BuildInfo {
  std::string version;             ///< kbench's own version, e.g. "0.1.0"
  std::string git_commit;          ///< at configure time; "unknown" outside a git checkout
  std::string git_dirty;           ///< "true", "false" or "unknown"
  std::string build_type;          ///< CMAKE_BUILD_TYPE
  bool optimized = false;          ///< host code built with optimisation
  bool device_debug = false;       ///< device code built with -G
  std::string cuda_architectures;  ///< CMAKE_CUDA_ARCHITECTURES, comma-separated
  std::string cxx_compiler;
  std::string cuda_compiler;
};

/// This binary's build description.
BuildInfo build_info();

/// Empty for a build fit to time kernels, otherwise a warning to show prominently.
std::string unoptimized_build_warning(const BuildInfo& info);

}  // namespace kbench
