#include "harness/plan/plan_text.hpp"

#include "harness/common/printable_text.hpp"
#include "harness/ops/copy_roof.hpp"

#include <fmt/format.h>

namespace kbench {

namespace {

std::string row_names(const PlanEntry& entry) {
  const auto variants = entry.op->variants();
  std::string names;
  for (std::size_t i : entry.variants) names += (names.empty() ? "" : ", ") + variants[i].name;
  if (entry.copy_roof) names += (names.empty() ? "" : ", ") + std::string(kCopyRoofVariant);
  return names;
}

std::string problem_text(const PlanEntry& entry) {
  return fmt::format("{} {} {} ({})", entry.op->name(), dtype_name(entry.problem.dtype), format_shape(entry.problem.shape),
                     printable(entry.problem.size_class));
}

}  // namespace

std::string plan_listing(const Plan& plan) {
  std::string text;
  for (const PlanEntry& entry : plan.entries) text += problem_text(entry) + ": " + row_names(entry) + '\n';
  for (const SkippedEntry& skipped : plan.skipped) {
    text += problem_text(skipped.entry) + ": SKIPPED " + row_names(skipped.entry) + ": " + printable(skipped.reason) + '\n';
  }
  text += fmt::format("{} problems, {} rows", plan.entries.size(), plan.row_count());
  if (!plan.skipped.empty()) {
    text += fmt::format("; {} row{} skipped by the config", plan.skipped_row_count(), plan.skipped_row_count() == 1 ? "" : "s");
  }
  return text + '\n';
}

}  // namespace kbench
