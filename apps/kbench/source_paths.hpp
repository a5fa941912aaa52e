#pragma once
/// Files of the source tree kbench was built from (KBENCH_SOURCE_DIR, set by CMake): the default
/// thresholds and the shipped configs.

#include <string>

namespace kbench::cli {

/// KBENCH_SOURCE_DIR/configs/thresholds.json: the thresholds used unless --thresholds names others.
std::string default_thresholds_path();

/// KBENCH_SOURCE_DIR/configs: the folder `kbench list` lists configs from.
std::string configs_dir();

}  // namespace kbench::cli
