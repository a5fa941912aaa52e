#pragma once
/// The op registry. Ops are registered explicitly (kernels/register_all_ops.cpp), never by
/// static initialisers, which the linker drops from static libraries.

#include "harness/ops/op.hpp"

#include <memory>
#include <string>
#include <vector>

namespace kbench {

class Registry {
 public:
  /// Takes ownership; throws std::logic_error if an op of the same name exists.
  void add(std::unique_ptr<Op> op);
  /// The op called `name`, or nullptr.
  const Op* find(const std::string& name) const;
  /// The op called `name`, or every op of the family `name`; empty when neither exists.
  std::vector<const Op*> select(const std::string& name) const;
  const std::vector<std::unique_ptr<Op>>& ops() const { return ops_; }
  /// "add, sum (sum_full, sum_inner), ..." for error messages.
  std::string names() const;

 private:
  std::vector<std::unique_ptr<Op>> ops_;
};

/// Defined in kernels/: registers every op family kbench ships.
void register_all_ops(Registry& registry);

}  // namespace kbench
