#include "harness/ops/registry.hpp"

#include "harness/ops/defined_op.hpp"

#include <algorithm>
#include <stdexcept>

namespace kbench {

bool VariantInfo::supports(DType dtype) const {
  return only_dtypes.empty() || std::find(only_dtypes.begin(), only_dtypes.end(), dtype) != only_dtypes.end();
}

void Registry::add(std::unique_ptr<Op> op) {
  if (find(op->name())) throw std::invalid_argument("an op named '" + op->name() + "' exists already");
  ops_.push_back(std::move(op));
}

void Registry::add_definition(detail::AnyOpDefinition definition, const std::string& source) {
  add(std::make_unique<DefinedOp>(std::move(definition), source));
}

void Registry::add_variant_to(const std::string& op, const std::string& args_kind, detail::AnyVariant variant,
                              const std::string& source) {
  DefinedOp* target = nullptr;
  for (const auto& candidate : ops_) {
    if (candidate->name() == op) target = dynamic_cast<DefinedOp*>(candidate.get());
  }
  if (!target) {
    throw std::invalid_argument("variant '" + variant.name + "' is for op '" + op + "', which " +
                                (find(op) ? "takes no variants" : "does not exist; ops: " + names()));
  }
  target->add_variant(std::move(variant), args_kind, source);
}

const Op* Registry::find(const std::string& name) const {
  for (const auto& op : ops_) {
    if (op->name() == name) return op.get();
  }
  return nullptr;
}

std::vector<const Op*> Registry::select(const std::string& name) const {
  if (const Op* op = find(name)) return {op};
  std::vector<const Op*> family;
  for (const auto& op : ops_)
    if (op->family() == name) family.push_back(op.get());
  return family;
}

std::string Registry::names() const {
  std::string text;
  std::vector<std::string> families_listed;
  for (const auto& op : ops_) {
    text += (text.empty() ? "" : ", ") + op->name();
  }
  for (const auto& op : ops_) {
    if (op->family() == op->name() || find(op->family())) continue;
    if (std::find(families_listed.begin(), families_listed.end(), op->family()) != families_listed.end()) continue;
    families_listed.push_back(op->family());
    text += ", " + op->family() + " (all " + op->family() + "_* ops)";
  }
  return text;
}

}  // namespace kbench
