#include "harness/plan/plan.hpp"

#include "harness/ops/copy_roof.hpp"
#include "harness/config/size_classes.hpp"

#include <algorithm>
#include <stdexcept>

namespace kbench {

std::size_t Plan::row_count() const {
  std::size_t rows = 0;
  for (const PlanEntry& entry : entries) rows += entry.variants.size() + (entry.copy_roof ? 1 : 0);
  return rows;
}

std::size_t Plan::skipped_row_count() const {
  std::size_t rows = 0;
  for (const SkippedEntry& s : skipped) rows += s.entry.variants.size() + (s.entry.copy_roof ? 1 : 0);
  return rows;
}

namespace {

bool contains(const std::vector<std::string>& list, const std::string& value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

std::string join_variant_names(const Op& op) {
  std::string names;
  for (const VariantInfo& v : op.variants()) names += (names.empty() ? "" : ", ") + v.name;
  return names;
}

std::vector<DType> selected_dtypes(const Selection& selection, const Op& op) {
  if (selection.dtypes.empty()) return {DType::f32};
  if (contains(selection.dtypes, "all")) return op.dtypes();
  std::vector<DType> dtypes;
  for (const std::string& name : selection.dtypes) {
    const auto dtype = parse_dtype(name);
    if (!dtype) throw std::invalid_argument("unknown dtype '" + name + "'; valid: fp32, fp16, bf16, tf32, all");
    if (std::find(dtypes.begin(), dtypes.end(), *dtype) == dtypes.end()) dtypes.push_back(*dtype);
  }
  return dtypes;
}

/// (size class, shape) pairs for `op` in the order the user gave them.
std::vector<std::pair<std::string, Shape>> selected_shapes(const Selection& selection, const Op& op) {
  std::vector<std::pair<std::string, Shape>> shapes;
  if (!selection.shapes.empty()) {
    for (const Shape& shape : selection.shapes) shapes.emplace_back("custom", shape);
    return shapes;
  }
  std::vector<std::string> names = selection.size_classes;
  if (names.empty()) names = {"large"};
  if (contains(names, "all")) {
    names.clear();
    for (const SizeClass& size_class : size_classes()) names.push_back(size_class.name);
  }
  for (const std::string& name : names) {
    const SizeClass* size_class = find_size_class(name);
    if (!size_class) throw std::invalid_argument("unknown size '" + name + "'; valid: " + size_class_names());
    for (const Shape& shape : op.shapes_for(*size_class)) shapes.emplace_back(name, shape);
  }
  return shapes;
}

}  // namespace

PlanEntry make_plan_entry(const Op& op, const Problem& problem, const std::vector<std::string>& variant_names,
                          bool with_references) {
  const std::string why = op.reject_shape(problem.shape);
  if (!why.empty()) {
    throw std::invalid_argument("op '" + op.name() + "' cannot run shape " + format_shape(problem.shape) + ": " + why);
  }
  const std::vector<DType> supported = op.dtypes();
  if (std::find(supported.begin(), supported.end(), problem.dtype) == supported.end()) {
    throw std::invalid_argument("op '" + op.name() + "' does not support dtype " + std::string(dtype_name(problem.dtype)));
  }
  const std::vector<VariantInfo> variants = op.variants();
  PlanEntry entry{&op, problem, {}, with_references || contains(variant_names, kCopyRoofVariant)};
  for (std::size_t i = 0; i < variants.size(); ++i) {
    const bool named = contains(variant_names, variants[i].name);
    const bool reference = variants[i].role != VariantRole::own;
    if (!variants[i].supports(problem.dtype)) {
      // A variant that does not exist for this dtype is not part of the plan, unless asked for by name.
      if (named && variant_names.size() == 1) {
        std::string valid;
        for (DType d : variants[i].only_dtypes) valid += (valid.empty() ? "" : ", ") + std::string(dtype_name(d));
        throw std::invalid_argument("variant '" + variants[i].name + "' of op '" + op.name() + "' does not run " +
                                    std::string(dtype_name(problem.dtype)) + "; it runs " + valid);
      }
      continue;
    }
    if (reference ? with_references || named : variant_names.empty() || named) entry.variants.push_back(i);
  }
  return entry;
}

Plan make_plan(const Registry& registry, const Selection& selection) {
  std::vector<const Op*> ops;
  if (selection.ops.empty()) {
    for (const auto& op : registry.ops()) ops.push_back(op.get());
  } else {
    for (const std::string& name : selection.ops) {
      const std::vector<const Op*> chosen = registry.select(name);
      if (chosen.empty()) throw std::invalid_argument("unknown op '" + name + "'; valid: " + registry.names());
      for (const Op* op : chosen)
        if (std::find(ops.begin(), ops.end(), op) == ops.end()) ops.push_back(op);
    }
  }

  // Every requested variant must exist in at least one selected op.
  for (const std::string& name : selection.variants) {
    const bool known = name == kCopyRoofVariant || std::any_of(ops.begin(), ops.end(), [&](const Op* op) {
                         const auto variants = op->variants();
                         return std::any_of(variants.begin(), variants.end(), [&](const VariantInfo& v) { return v.name == name; });
                       });
    if (!known) {
      std::string valid;
      for (const Op* op : ops) valid += (valid.empty() ? "" : "; ") + op->name() + ": " + join_variant_names(*op);
      throw std::invalid_argument("unknown variant '" + name + "'; valid: " + valid + "; and " + kCopyRoofVariant);
    }
  }

  Plan plan;
  for (const Op* op : ops) {
    for (const auto& [size_class, shape] : selected_shapes(selection, *op)) {
      for (DType dtype : selected_dtypes(selection, *op)) {
        plan.entries.push_back(make_plan_entry(*op, Problem{shape, dtype, size_class}, selection.variants,
                                               selection.with_references));
        if (plan.entries.size() > selection.max_cases) {
          throw std::invalid_argument("the selection plans more than " + std::to_string(selection.max_cases) +
                                      " cases (op x shape x dtype), the --max-cases limit: narrow it with --op, "
                                      "--size, --shape or --dtype, or raise --max-cases");
        }
      }
    }
  }
  return plan;
}

}  // namespace kbench
