#include "harness/ops/registry.hpp"

#include <algorithm>
#include <stdexcept>

namespace kbench {

bool VariantInfo::supports(DType dtype) const {
  return only_dtypes.empty() || std::find(only_dtypes.begin(), only_dtypes.end(), dtype) != only_dtypes.end();
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
