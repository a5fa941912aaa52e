#include "harness/plan/config_plan.hpp"

#include "harness/ops/copy_roof.hpp"
#include "harness/common/did_you_mean.hpp"
#include "harness/common/json_input.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <tuple>

namespace kbench {

namespace {

bool contains(const std::vector<std::string>& list, const std::string& value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

void add_unique(std::vector<std::string>& list, const std::string& value) {
  if (!contains(list, value)) list.push_back(value);
}

std::vector<std::string> variant_names(const Op& op) {
  std::vector<std::string> names;
  for (const VariantInfo& v : op.variants()) names.push_back(v.name);
  names.push_back(kCopyRoofVariant);
  return names;
}

[[noreturn]] void sweep_error(const Sweep& sweep, const std::string& field, const std::string& message) {
  throw InputError(sweep.origin + field + ": " + message);
}

/// Checks the sweeps' ops and variants against the registry.
std::vector<const Op*> resolve_ops(const Registry& registry, const SweepConfig& config) {
  std::vector<std::string> registered;
  for (const auto& op : registry.ops()) registered.push_back(op->name());
  std::vector<const Op*> ops;
  for (const Sweep& sweep : config.sweeps) {
    const Op* op = registry.find(sweep.op);
    if (!op) {
      sweep_error(sweep, ".op", "found \"" + sweep.op + "\"" + did_you_mean(sweep.op, registered) +
                                    "; expected a registered op: " + join_names(registered));
    }
    const std::vector<std::string> valid = variant_names(*op);
    for (std::size_t k = 0; k < sweep.variants.size(); ++k) {
      if (!contains(valid, sweep.variants[k])) {
        sweep_error(sweep, ".variants[" + std::to_string(k) + "]",
                    "found \"" + sweep.variants[k] + "\"" + did_you_mean(sweep.variants[k], valid) +
                        "; expected a variant of " + sweep.op + ": " + join_names(valid));
      }
    }
    ops.push_back(op);
  }
  return ops;
}

/// Rejects a skip that names an op, size class, dtype, variant or shape no sweep of the config
/// holds: with a typo in it, a skip would silently skip nothing.
void check_skips(const SweepConfig& config, const std::vector<const Op*>& ops) {
  std::vector<std::string> held_ops, held_sizes, held_dtypes, held_variants;
  std::set<Shape> held_shapes;  // a set: sweeps may expand to many thousands of shapes
  for (std::size_t i = 0; i < config.sweeps.size(); ++i) {
    const Sweep& sweep = config.sweeps[i];
    add_unique(held_ops, sweep.op);
    add_unique(held_sizes, sweep.size_class);
    for (const std::string& dtype : sweep.dtypes) add_unique(held_dtypes, dtype);
    for (const VariantInfo& v : ops[i]->variants()) add_unique(held_variants, v.name);
    held_shapes.insert(sweep.shapes.begin(), sweep.shapes.end());
  }
  held_variants.push_back(kCopyRoofVariant);
  const auto check = [](const CaseSkip& skip, const std::optional<std::string>& value, const std::string& field,
                        const std::vector<std::string>& held, const std::string& what) {
    if (value && !contains(held, *value)) {
      throw InputError(skip.origin + "." + field + ": found \"" + *value + "\"" + did_you_mean(*value, held) + "; expected " +
                       what + ": " + join_names(held));
    }
  };
  for (const CaseSkip& skip : config.skips) {
    check(skip, skip.op, "op", held_ops, "an op of the config's sweeps");
    check(skip, skip.size_class, "size_class", held_sizes, "a size class of the config's sweeps");
    check(skip, skip.dtype, "dtype", held_dtypes, "a dtype of the config's sweeps");
    check(skip, skip.variant, "variant", held_variants, "a variant of the config's ops");
    if (skip.shape && held_shapes.count(*skip.shape) == 0) {
      throw InputError(skip.origin + ".shape: found " + format_shape(*skip.shape) +
                       "; expected a shape one of the config's sweeps expands to");
    }
  }
}

/// True when a filter list filters nothing: empty, or "all" alone.
bool all_or_none(const std::vector<std::string>& names) { return names.empty() || (names.size() == 1 && names[0] == "all"); }

/// Rejects filter values that select nothing the config holds.
void check_filters(const SweepConfig& config, const std::vector<const Op*>& ops, const Selection& filters) {
  std::vector<std::string> config_ops, config_sizes, config_variants;
  for (std::size_t i = 0; i < config.sweeps.size(); ++i) {
    add_unique(config_ops, config.sweeps[i].op);
    add_unique(config_ops, ops[i]->family());  // --op sum selects sum_full, sum_inner, ...
    add_unique(config_sizes, config.sweeps[i].size_class);
    for (const VariantInfo& v : ops[i]->variants()) add_unique(config_variants, v.name);
  }
  config_variants.push_back(kCopyRoofVariant);
  const auto check = [&](const std::vector<std::string>& wanted, const std::vector<std::string>& held,
                         const std::string& option, const std::string& what, const std::string& plural) {
    for (const std::string& name : wanted) {
      if (!contains(held, name)) {
        throw std::invalid_argument(option + " " + name + ": " + config.file + " has no " + what + " '" + name + "'" +
                                    did_you_mean(name, held) + "; its " + plural + ": " + join_names(held));
      }
    }
  };
  check(filters.ops, config_ops, "--op", "op", "ops");
  if (!all_or_none(filters.size_classes)) check(filters.size_classes, config_sizes, "--size", "size class", "size classes");
  check(filters.variants, config_variants, "--variant", "variant", "variants");
  for (const std::string& name : filters.dtypes) {
    if (name != "all" && !parse_dtype(name)) {
      std::string valid;
      for (DType dtype : all_dtypes()) valid += std::string(dtype_name(dtype)) + ", ";
      throw std::invalid_argument("unknown dtype '" + name + "'; valid: " + valid + "all");
    }
  }
}

bool dtype_wanted(const Selection& filters, DType dtype) {
  if (all_or_none(filters.dtypes)) return true;
  return std::any_of(filters.dtypes.begin(), filters.dtypes.end(),
                     [&](const std::string& name) { return parse_dtype(name) == dtype; });
}

/// The sweep's variants narrowed by the --variant filter; nullopt when nothing is left.
std::optional<std::vector<std::string>> narrowed_variants(const Sweep& sweep, const Selection& filters) {
  if (sweep.variants.empty()) return filters.variants;
  if (filters.variants.empty()) return sweep.variants;
  std::vector<std::string> both;
  for (const std::string& name : sweep.variants)
    if (contains(filters.variants, name)) both.push_back(name);
  if (both.empty()) return std::nullopt;
  return both;
}

/// Moves the rows of `entry` that a skip matches into `plan.skipped`; keeps the rest in `entry`.
void apply_skips(const SweepConfig& config, PlanEntry& entry, Plan& plan) {
  const std::string op = entry.op->name();
  const std::string dtype(dtype_name(entry.problem.dtype));
  for (const CaseSkip& skip : config.skips) {
    if (skip.matches_case(op, entry.problem.size_class, entry.problem.shape, dtype)) {
      plan.skipped.push_back({entry, skip.reason});
      entry.variants.clear();
      entry.copy_roof = false;
      return;
    }
  }
  const std::vector<VariantInfo> variants = entry.op->variants();
  const auto skip_for = [&](const std::string& variant) -> const CaseSkip* {
    for (const CaseSkip& skip : config.skips)
      if (skip.matches(op, entry.problem.size_class, entry.problem.shape, dtype, variant)) return &skip;
    return nullptr;
  };
  std::vector<std::size_t> kept;
  for (std::size_t index : entry.variants) {
    if (const CaseSkip* skip = skip_for(variants[index].name)) {
      plan.skipped.push_back({PlanEntry{entry.op, entry.problem, {index}, false}, skip->reason});
    } else {
      kept.push_back(index);
    }
  }
  entry.variants = kept;
  if (entry.copy_roof) {
    if (const CaseSkip* skip = skip_for(kCopyRoofVariant)) {
      plan.skipped.push_back({PlanEntry{entry.op, entry.problem, {}, true}, skip->reason});
      entry.copy_roof = false;
    }
  }
}

}  // namespace

Plan make_config_plan(const Registry& registry, const SweepConfig& config, const Selection& filters) {
  const std::vector<const Op*> ops = resolve_ops(registry, config);
  check_skips(config, ops);
  check_filters(config, ops, filters);

  Plan plan;
  std::map<std::tuple<std::string, Shape, DType>, std::string> planned;  // case -> the sweep that planned it
  for (std::size_t i = 0; i < config.sweeps.size(); ++i) {
    const Sweep& sweep = config.sweeps[i];
    if (!filters.ops.empty() && !contains(filters.ops, sweep.op) && !contains(filters.ops, ops[i]->family())) continue;
    if (!all_or_none(filters.size_classes) && !contains(filters.size_classes, sweep.size_class)) continue;
    const auto variants = narrowed_variants(sweep, filters);
    if (!variants) continue;
    for (const Shape& shape : sweep.shapes) {
      for (const std::string& name : sweep.dtypes) {
        const DType dtype = *parse_dtype(name);
        if (!dtype_wanted(filters, dtype)) continue;
        const auto key = std::make_tuple(sweep.op, shape, dtype);
        if (const auto seen = planned.find(key); seen != planned.end()) {
          throw InputError(sweep.origin + ": case " + sweep.op + " " + name + " " + format_shape(shape) +
                           " is already planned by " + seen->second);
        }
        planned[key] = sweep.origin;
        if (planned.size() > filters.max_cases) {
          throw InputError(config.file + ": plans more than " + std::to_string(filters.max_cases) +
                           " cases (op x shape x dtype), the --max-cases limit: narrow it with --op, --size or "
                           "--dtype, or raise --max-cases");
        }
        if (const std::string why = ops[i]->reject_shape(shape); !why.empty()) {
          sweep_error(sweep, ".shape", "op '" + sweep.op + "' cannot run shape " + format_shape(shape) + ": " + why);
        }
        PlanEntry entry;
        try {
          entry = make_plan_entry(*ops[i], Problem{shape, dtype, sweep.size_class}, *variants, filters.with_references);
        } catch (const std::invalid_argument& e) {
          throw InputError(sweep.origin + ": " + e.what());
        }
        apply_skips(config, entry, plan);
        if (!entry.variants.empty() || entry.copy_roof) plan.entries.push_back(entry);
      }
    }
  }
  if (plan.entries.empty() && plan.skipped.empty()) {
    throw std::invalid_argument("no case of " + config.file + " passes the --op/--size/--dtype/--variant filters");
  }
  return plan;
}

}  // namespace kbench
