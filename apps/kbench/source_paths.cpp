#include "source_paths.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <system_error>

#if !defined(KBENCH_SOURCE_DIR) || !defined(KBENCH_CUDA_COMPILER) || !defined(KBENCH_CUDA_ARCHITECTURES)
#error "KBENCH_SOURCE_DIR, KBENCH_CUDA_COMPILER and KBENCH_CUDA_ARCHITECTURES come from apps/kbench/CMakeLists.txt"
#endif

namespace kbench::cli {

namespace {

namespace fs = std::filesystem;

/// PREFIX when this binary is PREFIX/bin/kbench of an installed tree (one with
/// PREFIX/share/kbench/configs); empty in a build tree.
const std::string& install_prefix() {
  static const std::string prefix = [] {
    std::error_code error;
    const fs::path self = fs::read_symlink("/proc/self/exe", error);
    if (error) return std::string();
    const fs::path candidate = self.parent_path().parent_path();
    return fs::is_directory(candidate / "share" / "kbench" / "configs", error) ? candidate.string() : std::string();
  }();
  return prefix;
}

bool is_executable(const fs::path& path) {
  std::error_code error;
  return fs::is_regular_file(path, error) && access(path.c_str(), X_OK) == 0;
}

}  // namespace

std::string configs_dir() {
  return install_prefix().empty() ? std::string(KBENCH_SOURCE_DIR) + "/configs"
                                  : install_prefix() + "/share/kbench/configs";
}

std::string default_thresholds_path() { return configs_dir() + "/thresholds.json"; }

std::string public_include_dir() {
  return install_prefix().empty() ? std::string(KBENCH_SOURCE_DIR) + "/include" : install_prefix() + "/include";
}

std::string nvcc_path() {
  if (is_executable(KBENCH_CUDA_COMPILER)) return KBENCH_CUDA_COMPILER;
  if (const char* path = std::getenv("PATH")) {
    const std::string text = path;
    std::size_t start = 0;
    while (start <= text.size()) {
      const std::size_t end = std::min(text.find(':', start), text.size());
      const fs::path candidate = fs::path(text.substr(start, end - start)) / "nvcc";
      if (end > start && is_executable(candidate)) return candidate.string();
      start = end + 1;
    }
  }
  return "/usr/local/cuda/bin/nvcc";
}

std::string build_cuda_architectures() { return KBENCH_CUDA_ARCHITECTURES; }

}  // namespace kbench::cli
