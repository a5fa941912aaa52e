#pragma once
/// The op registry. Ops and variants are declared explicitly through the Registrar interface
/// (kbench/plugin.hpp): kernels/register_all_ops.cpp for kbench's own, each plugin's
/// kbench_plugin_register for theirs; never by static initialisers, which the linker drops from
/// static libraries.

#include "harness/ops/op.hpp"

#include "kbench/plugin.hpp"

#include <memory>
#include <string>
#include <vector>

namespace kbench {

class Registry final : public Registrar {
 public:
  /// Takes ownership; throws std::invalid_argument if an op of the same name exists.
  void add(std::unique_ptr<Op> op);
  /// An op from a definition, its variants' source being `source`; throws std::invalid_argument
  /// when the op's name or one of its variants' names is taken, or the definition is incomplete.
  void add_definition(detail::AnyOpDefinition definition, const std::string& source);
  /// A variant for the existing op `op`; throws std::invalid_argument naming what is wrong (no
  /// such op, an op not made from a definition, arguments of another kind, a name taken).
  void add_variant_to(const std::string& op, const std::string& args_kind, detail::AnyVariant variant,
                      const std::string& source);
  /// The op called `name`, or nullptr.
  const Op* find(const std::string& name) const;
  /// The op called `name`, or every op of the family `name`; empty when neither exists.
  std::vector<const Op*> select(const std::string& name) const;
  const std::vector<std::unique_ptr<Op>>& ops() const { return ops_; }
  /// "add, sum (sum_full, sum_inner), ..." for error messages.
  std::string names() const;

 protected:
  /// kbench's own declarations (source "kbench").
  void add_any_op(detail::AnyOpDefinition op) override { add_definition(std::move(op), "kbench"); }
  void add_any_variant(const std::string& op, const std::string& args_kind, detail::AnyVariant variant) override {
    add_variant_to(op, args_kind, std::move(variant), "kbench");
  }

 private:
  std::vector<std::unique_ptr<Op>> ops_;
};

/// Defined in kernels/: registers every op family kbench ships.
void register_all_ops(Registry& registry);

}  // namespace kbench
