#pragma once
/// Where kbench finds its data files and tools: the shipped configs, the default thresholds, the
/// public headers and nvcc. An installed kbench (cmake --install) finds them relative to its own
/// binary (PREFIX/bin/kbench: PREFIX/share/kbench/configs, PREFIX/include); a kbench run from its
/// build tree finds them in the source tree it was built from (KBENCH_SOURCE_DIR, set by CMake).

#include <string>

namespace kbench::cli {

/// The configs folder: PREFIX/share/kbench/configs when installed, else KBENCH_SOURCE_DIR/configs.
std::string configs_dir();

/// configs_dir()/thresholds.json: the thresholds used unless --thresholds names others.
std::string default_thresholds_path();

/// The folder holding kbench/plugin.hpp: PREFIX/include when installed, else
/// KBENCH_SOURCE_DIR/include.
std::string public_include_dir();

/// The nvcc the build used (CMAKE_CUDA_COMPILER) if it still exists, else the first nvcc on
/// PATH, else /usr/local/cuda/bin/nvcc.
std::string nvcc_path();

/// The build's CMAKE_CUDA_ARCHITECTURES ("90", "80-real;90-real;90-virtual").
std::string build_cuda_architectures();

}  // namespace kbench::cli
