#pragma once
/// Loading plugins: shared libraries that declare ops and variants through kbench/plugin.hpp.
///
/// A plugin is refused, with one line naming its file, when it is not a regular file, cannot be
/// loaded, lacks the entry points KBENCH_PLUGIN defines, was built against another API version or
/// C++ library ABI, or declares an op or variant whose name is taken. Refusals are InputError
/// (exit 2): they happen while the registry is built, before anything runs.

#include "harness/ops/registry.hpp"

#include <string>
#include <vector>

namespace kbench {

/// Loads the plugin at `path` and registers what it declares, its rows' source being `source`
/// (empty: `path`), which refusals name too. The library stays loaded for the life of the process.
void load_plugin(const std::string& path, Registry& registry, const std::string& source = "");

/// The plugins to load: `from_option` (--plugin, in order), then the colon-separated paths of
/// `environment` (KBENCH_PLUGIN_PATH; empty items ignored), each path once.
std::vector<std::string> plugin_paths(const std::vector<std::string>& from_option, const char* environment);

}  // namespace kbench
