#pragma once
/// Kernel files: `kbench --kernel-file FILE.cu` compiles FILE with nvcc into a shared library,
/// cached per user, and loads it as a plugin (plugin_loader.hpp). FILE declares its variants or
/// ops with KBENCH_PLUGIN from <kbench/plugin.hpp>, like any plugin.
///
/// The cache key covers everything the library depends on: the file's content, the plugin API
/// version, the GPU architectures and nvcc's flags (which name the include folder). A file that
/// includes other files of its own is keyed by its content alone: edit the file to rebuild.

#include <string>
#include <vector>

namespace kbench {

/// How kernel files are compiled.
struct KernelFileToolchain {
  std::string nvcc;           ///< the compiler's path
  std::string include_dir;    ///< the folder holding kbench/plugin.hpp
  /// CMake-style architectures: "90" (SASS and PTX), "90-real" (SASS), "90-virtual" (PTX),
  /// ';'- or ','-separated.
  std::string architectures;
};

/// nvcc's -gencode options for CMake-style `architectures`; InputError when an item is not one.
std::vector<std::string> gencode_options(const std::string& architectures);

/// Every nvcc argument but the output and the source: language, optimisation, a shared library
/// with hidden symbols (KBENCH_PLUGIN's entry points excepted), the include folder, the targets.
std::vector<std::string> kernel_file_flags(const KernelFileToolchain& toolchain);

/// The full command that compiles `source` into the library `output`.
std::vector<std::string> nvcc_command(const KernelFileToolchain& toolchain, const std::string& source,
                                      const std::string& output);

/// 32 hex digits from the file's content, the plugin API version, the architectures and the flags.
std::string kernel_cache_key(const std::string& content, int api_version, const std::string& architectures,
                             const std::vector<std::string>& flags);

/// The per-user cache: XDG_CACHE_HOME/kbench/kernels, else HOME/.cache/kbench/kernels (either
/// variable unset or empty counts as absent); InputError when neither is set.
std::string kernel_cache_dir(const char* xdg_cache_home, const char* home);

/// A kernel file ready to load.
struct CompiledKernelFile {
  std::string library;  ///< the cached shared library
  bool cached = false;  ///< found in the cache, not compiled now
  double seconds = 0;   ///< the compile's wall time (0 when cached)
};

/// Compiles `path` (unless the cache has it) into `cache_dir`. When nvcc fails its output, which
/// names the file and line of each error, goes to `diagnostics`, and an InputError naming the
/// file follows; an unreadable file or a missing nvcc is an InputError too.
CompiledKernelFile compile_kernel_file(const std::string& path, const KernelFileToolchain& toolchain,
                                       const std::string& cache_dir, std::string& diagnostics);

}  // namespace kbench
