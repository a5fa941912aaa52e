#pragma once
/// An Op made from an op definition (kbench/op_definition.hpp): how every op, kbench's own and
/// plugins' alike, becomes something the planner and runner can use.
///
/// Its workloads do the verification the public API promises, in one place: each output sits
/// between guard bytes, inputs come in two independently drawn sets with a float64 reference
/// each, outputs are poisoned before every verified call, and a variant passes only when it
/// leaves the guards alone and matches both references.

#include "harness/ops/op.hpp"

#include "kbench/op_definition.hpp"

#include <memory>
#include <string>
#include <vector>

namespace kbench {

/// Bytes of guard pattern on each side of every output buffer.
constexpr std::size_t kOutputGuardBytes = 4096;

class DefinedOp final : public Op {
 public:
  /// `source` names where the op came from ("kbench", a plugin's path) for its variants' rows.
  DefinedOp(detail::AnyOpDefinition definition, std::string source);

  /// Adds a variant (a plugin's, or kbench's own declared later); `source` as above. Throws
  /// std::invalid_argument when the name is taken or `args_kind` is not this op's.
  void add_variant(detail::AnyVariant variant, const std::string& args_kind, std::string source);

  std::string name() const override { return definition_.name; }
  std::string family() const override { return definition_.family.empty() ? name() : definition_.family; }
  std::string summary() const override { return definition_.summary; }
  std::vector<Shape> shapes_for(const SizeClass& size_class) const override;
  std::vector<VariantInfo> variants() const override;
  std::vector<DType> dtypes() const override { return definition_.dtypes; }
  std::string reject_shape(const Shape& shape) const override;
  Traffic traffic(const Problem& problem) const override { return definition_.traffic(problem); }
  double device_bytes(const Problem& problem) const override;
  double host_bytes(const Problem& problem) const override;
  std::unique_ptr<Workload> prepare(const Problem& problem, std::uint64_t seed) const override;

  const detail::AnyOpDefinition& definition() const { return definition_; }
  const std::string& args_kind() const { return definition_.args_kind; }

 private:
  detail::AnyOpDefinition definition_;
  std::vector<std::string> sources_;  ///< one per variant of definition_
};

}  // namespace kbench
