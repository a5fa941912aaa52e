// A plugin built against another version of kbench's plugin API (its ABI record says version 0):
// kbench must refuse it, naming both versions, before calling anything else of it.
#include "kbench/plugin.hpp"

extern "C" __attribute__((visibility("default"))) kbench::detail::PluginAbi kbench_plugin_abi() {
  kbench::detail::PluginAbi abi = kbench::detail::this_abi();
  abi.api_version = 0;
  return abi;
}

extern "C" __attribute__((visibility("default"))) void kbench_plugin_register(kbench::Registrar&) {}
