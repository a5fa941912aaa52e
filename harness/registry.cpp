#include "harness/registry.hpp"

#include <stdexcept>

namespace kbench {

std::string_view role_name(VariantRole role) {
  switch (role) {
    case VariantRole::own: return "own";
    case VariantRole::baseline: return "baseline";
    case VariantRole::roof: return "roof";
  }
  return "unknown";
}

void Registry::add(std::unique_ptr<Op> op) {
  if (find(op->name())) throw std::logic_error("op '" + op->name() + "' registered twice");
  ops_.push_back(std::move(op));
}

const Op* Registry::find(const std::string& name) const {
  for (const auto& op : ops_) {
    if (op->name() == name) return op.get();
  }
  return nullptr;
}

std::string Registry::names() const {
  std::string text;
  for (const auto& op : ops_) text += (text.empty() ? "" : ", ") + op->name();
  return text;
}

}  // namespace kbench
