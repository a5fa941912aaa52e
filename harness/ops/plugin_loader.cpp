#include "harness/ops/plugin_loader.hpp"

#include "harness/common/input_error.hpp"

#include "kbench/plugin.hpp"

#include <dlfcn.h>
#include <sys/stat.h>

#include <algorithm>
#include <stdexcept>

namespace kbench {

namespace {

using AbiFn = detail::PluginAbi (*)();
using RegisterFn = void (*)(Registrar&);

/// Declarations of one plugin, recorded with its path as their source.
class PluginRegistrar final : public Registrar {
 public:
  PluginRegistrar(Registry& registry, std::string source) : registry_(registry), source_(std::move(source)) {}

 protected:
  void add_any_op(detail::AnyOpDefinition op) override { registry_.add_definition(std::move(op), source_); }
  void add_any_variant(const std::string& op, const std::string& args_kind, detail::AnyVariant variant) override {
    registry_.add_variant_to(op, args_kind, std::move(variant), source_);
  }

 private:
  Registry& registry_;
  std::string source_;
};

void* symbol(void* library, const std::string& path, const char* name) {
  dlerror();
  void* found = dlsym(library, name);
  if (!found) {
    throw InputError(path + ": no entry point " + name +
                     ": not a kbench plugin (declare it with KBENCH_PLUGIN from <kbench/plugin.hpp>)");
  }
  return found;
}

void check_abi(const detail::PluginAbi& theirs, const std::string& path) {
  const detail::PluginAbi ours = detail::this_abi();
  if (theirs.api_version != ours.api_version) {
    throw InputError(path + ": built against kbench plugin API version " + std::to_string(theirs.api_version) +
                     "; this kbench has version " + std::to_string(ours.api_version) + ": rebuild the plugin");
  }
  if (theirs.cxx11_abi != ours.cxx11_abi || theirs.any_op_size != ours.any_op_size ||
      theirs.any_variant_size != ours.any_variant_size) {
    throw InputError(path + ": built with another C++ standard library ABI (_GLIBCXX_USE_CXX11_ABI " +
                     std::to_string(theirs.cxx11_abi) + " vs " + std::to_string(ours.cxx11_abi) +
                     ", op record " + std::to_string(theirs.any_op_size) + " vs " + std::to_string(ours.any_op_size) +
                     " bytes): build it with the compiler kbench was built with");
  }
}

}  // namespace

void load_plugin(const std::string& file_path, Registry& registry, const std::string& source) {
  // Refusals name the source (a kernel file) where it differs from the library loaded.
  const std::string& path = source.empty() ? file_path : source;
  struct stat info {};
  if (stat(file_path.c_str(), &info) != 0) throw InputError(path + ": plugin not found");
  if (!S_ISREG(info.st_mode)) throw InputError(path + ": not a regular file; expected a plugin (a shared library)");
  // A path without a slash would make dlopen search the library path instead of this file.
  const std::string file = file_path.find('/') == std::string::npos ? "./" + file_path : file_path;
  void* library = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char* why = dlerror();
    throw InputError(path + ": not a loadable library: " + std::string(why ? why : "dlopen failed"));
  }
  const auto abi = reinterpret_cast<AbiFn>(symbol(library, path, "kbench_plugin_abi"));
  check_abi(abi(), path);
  const auto register_plugin = reinterpret_cast<RegisterFn>(symbol(library, path, "kbench_plugin_register"));
  PluginRegistrar registrar(registry, path);
  try {
    register_plugin(registrar);
  } catch (const InputError&) {
    throw;
  } catch (const std::exception& e) {
    throw InputError(path + ": " + e.what());
  } catch (...) {
    throw InputError(path + ": its registration threw something that is not a std::exception");
  }
}

std::vector<std::string> plugin_paths(const std::vector<std::string>& from_option, const char* environment) {
  std::vector<std::string> paths;
  const auto add = [&](const std::string& path) {
    if (!path.empty() && std::find(paths.begin(), paths.end(), path) == paths.end()) paths.push_back(path);
  };
  for (const std::string& path : from_option) add(path);
  if (environment) {
    const std::string text = environment;
    std::size_t start = 0;
    while (start <= text.size()) {
      const std::size_t end = std::min(text.find(':', start), text.size());
      add(text.substr(start, end - start));
      start = end + 1;
    }
  }
  return paths;
}

}  // namespace kbench
