#pragma once
/// Writing a kbench plugin: the one header a plugin includes (with kbench/ops/*.hpp for the ops
/// it adds variants to). Public API.
///
///   #include <kbench/plugin.hpp>
///   #include <kbench/ops/softmax.hpp>
///
///   KBENCH_PLUGIN(registrar) {
///     registrar.add_variant<kbench::SoftmaxArgs>("softmax", {"my_softmax", kbench::VariantRole::own,
///         "one warp per row", 1, {}, {}, {}, [](const kbench::SoftmaxArgs& a, cudaStream_t s) { ... }});
///     registrar.add_op(my_layernorm_definition());   // an op kbench does not have
///   }
///
/// Build it as a shared library against the installed package (find_package(kbench CONFIG) and
/// kbench_add_plugin(NAME sources...)), then `kbench --plugin libNAME.so --op softmax`.
/// kbench and the plugin must share the C++ standard library (the same compiler family): the
/// plugin's ABI record below lets kbench refuse one that does not, naming the difference.

#include "kbench/op_definition.hpp"
#include "kbench/types.hpp"
#include "kbench/variant.hpp"
#include "kbench/version.hpp"

#include <cstddef>
#include <string>
#include <utility>

namespace kbench {

/// Where ops and variants are declared: kbench's own registration and every plugin's.
class Registrar {
 public:
  virtual ~Registrar() = default;

  /// Adds an op kbench does not have. Its name (and its variants' names) must be free.
  template <class Args>
  void add_op(OpDefinition<Args> op) {
    add_any_op(detail::erase(std::move(op)));
  }

  /// Adds a variant to an existing op, whose view of a problem must be `Args`.
  template <class Args>
  void add_variant(const std::string& op, Variant<Args> variant) {
    add_any_variant(op, Args::kind, detail::erase(std::move(variant)));
  }

 protected:
  virtual void add_any_op(detail::AnyOpDefinition op) = 0;
  virtual void add_any_variant(const std::string& op, const std::string& args_kind, detail::AnyVariant variant) = 0;
};

namespace detail {

/// What a plugin was built with, checked by kbench before it calls anything else of it.
struct PluginAbi {
  int api_version;
  int cxx11_abi;                    ///< _GLIBCXX_USE_CXX11_ABI, or -1 outside libstdc++
  std::size_t any_op_size;          ///< sizeof(AnyOpDefinition): the layout kbench expects
  std::size_t any_variant_size;     ///< sizeof(AnyVariant)
};

constexpr PluginAbi this_abi() {
#ifdef _GLIBCXX_USE_CXX11_ABI
  return {KBENCH_API_VERSION, _GLIBCXX_USE_CXX11_ABI, sizeof(AnyOpDefinition), sizeof(AnyVariant)};
#else
  return {KBENCH_API_VERSION, -1, sizeof(AnyOpDefinition), sizeof(AnyVariant)};
#endif
}

}  // namespace detail

}  // namespace kbench

/// The two entry points kbench looks up in a plugin: kbench_plugin_abi, then
/// kbench_plugin_register. The body that follows the macro declares the plugin's ops and variants
/// on `registrar` (a kbench::Registrar&).
#define KBENCH_PLUGIN(registrar)                                                                         \
  static void kbench_plugin_body(::kbench::Registrar& registrar);                                        \
  extern "C" __attribute__((visibility("default"))) ::kbench::detail::PluginAbi kbench_plugin_abi() {   \
    return ::kbench::detail::this_abi();                                                                 \
  }                                                                                                      \
  extern "C" __attribute__((visibility("default"))) void kbench_plugin_register(::kbench::Registrar& r) { \
    kbench_plugin_body(r);                                                                               \
  }                                                                                                      \
  static void kbench_plugin_body(::kbench::Registrar& registrar)
