#include "harness/plan/plan_fingerprint.hpp"

#include "harness/ops/copy_roof.hpp"
#include "harness/ops/dtype.hpp"
#include "harness/ops/problem.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>

namespace kbench {

namespace {

constexpr std::uint64_t kFnvOffset = 14695981039346656037ull;
constexpr std::uint64_t kFnvPrime = 1099511628211ull;

std::uint64_t fnv1a(const std::string& text) {
  std::uint64_t hash = kFnvOffset;
  for (const char c : text) {
    hash ^= static_cast<unsigned char>(c);
    hash *= kFnvPrime;
  }
  return hash;
}

/// One line per entry, its fields separated by tabs.
std::string entry_text(const PlanEntry& entry) {
  std::string text = case_name(entry.op->name(), std::string(dtype_name(entry.problem.dtype)), entry.problem.shape) + "\t" +
                     entry.problem.size_class;
  const std::vector<VariantInfo> variants = entry.op->variants();
  for (std::size_t i : entry.variants) text += "\t" + variants[i].name + "@" + variants[i].source;
  if (entry.copy_roof) text += "\t" + std::string(kCopyRoofVariant);
  return text;
}

}  // namespace

std::string case_name(const std::string& op, const std::string& dtype, const Shape& shape) {
  return op + " " + dtype + " " + format_shape(shape);
}

std::string plan_fingerprint(const Plan& plan, const MeasureSettings& settings) {
  std::string text = "kbench plan 1\n";
  for (const PlanEntry& entry : plan.entries) text += "case\t" + entry_text(entry) + "\n";
  for (const SkippedEntry& skipped : plan.skipped) text += "skip\t" + entry_text(skipped.entry) + "\t" + skipped.reason + "\n";
  for (const MeasureSettingRow& row : measure_settings_table()) {
    text += "setting\t" + row.key + "\t" + setting_to_json(settings, row).dump() + "\n";
  }
  return fmt::format("fnv1a64:{:016x}", fnv1a(text));
}

std::vector<std::string> plan_case_names(const Plan& plan) {
  std::vector<std::string> names;
  const auto add = [&](const PlanEntry& entry) {
    std::string name = case_name(entry.op->name(), std::string(dtype_name(entry.problem.dtype)), entry.problem.shape);
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(std::move(name));
  };
  for (const PlanEntry& entry : plan.entries) add(entry);
  for (const SkippedEntry& skipped : plan.skipped) add(skipped.entry);
  return names;
}

}  // namespace kbench
