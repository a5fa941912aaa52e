#include "source_paths.hpp"

#ifndef KBENCH_SOURCE_DIR
#error "KBENCH_SOURCE_DIR must name the source tree (apps/kbench/CMakeLists.txt sets it)"
#endif

namespace kbench::cli {

std::string configs_dir() { return std::string(KBENCH_SOURCE_DIR) + "/configs"; }

std::string default_thresholds_path() { return configs_dir() + "/thresholds.json"; }

}  // namespace kbench::cli
