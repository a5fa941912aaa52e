#include "harness/config/thresholds.hpp"

#include "harness/common/did_you_mean.hpp"
#include "harness/common/json_input.hpp"
#include "harness/common/json_text.hpp"
#include "harness/common/printable_text.hpp"
#include "harness/config/size_classes.hpp"

#include <algorithm>
#include <filesystem>

namespace kbench {

using nlohmann::json;

const Threshold& Thresholds::lookup(const std::string& op, const std::string& size_class) const {
  if (const auto o = ops.find(op); o != ops.end()) {
    if (const auto c = o->second.find(size_class); c != o->second.end()) return c->second;
  }
  if (const auto c = size_classes.find(size_class); c != size_classes.end()) return c->second;
  return general;
}

std::optional<Band> Thresholds::band_of(const CaseResult& row) const {
  const ModeTiming* timing = row.headline();
  if (row.status != CaseStatus::passed || !timing || timing->stats.median <= 0) return std::nullopt;
  return classify(row.efficiency, lookup(row).band());
}

BandPolicy Thresholds::policy() const {
  // Copies the thresholds: the policy may outlive this object.
  return [copy = *this](const CaseResult& row) { return copy.lookup(row).band(); };
}

namespace {

/// A percentage in [0, 100], returned as a fraction.
double percent(const JsonObject& object, const std::string& key) {
  const json& value = object.at(key);
  if (!value.is_number() || !(value.get<double>() >= 0) || value.get<double>() > 100) {
    found_expected(object.place(key), value, "a percentage from 0 to 100");
  }
  return value.get<double>() / 100;
}

Threshold parse_threshold(const JsonObject& object) {
  object.allow_keys({"min_efficiency_pct", "target_efficiency_pct", "min_speed_ratio", "note"});
  Threshold t;
  t.origin = object.place().text();
  t.min_efficiency = percent(object, "min_efficiency_pct");
  t.target_efficiency = percent(object, "target_efficiency_pct");
  if (t.target_efficiency < t.min_efficiency) {
    found_expected(object.place("target_efficiency_pct"), object.at("target_efficiency_pct"),
                   "a value >= min_efficiency_pct (" + object.at("min_efficiency_pct").dump() + ")");
  }
  if (object.has("min_speed_ratio")) {
    const json& value = object.at("min_speed_ratio");
    if (!value.is_number() || !(value.get<double>() > 0)) found_expected(object.place("min_speed_ratio"), value, "a number > 0");
    t.min_speed_ratio = value.get<double>();
  }
  if (object.has("note")) object.string("note");
  return t;
}

std::map<std::string, Threshold> parse_categories(const JsonObject& object) {
  std::map<std::string, Threshold> categories;
  for (const auto& item : object.node().items()) {
    categories[item.key()] = parse_threshold(JsonObject(item.value(), object.place(item.key())));
  }
  return categories;
}

}  // namespace

Thresholds parse_thresholds(const json& document, const std::string& file) {
  const JsonObject root(document, JsonPlace{file, "$"});
  root.allow_keys({"description", "default", "size_classes", "ops"});
  Thresholds t;
  t.file = file;
  t.document = document;
  t.description = root.string_or("description", "");
  t.general = parse_threshold(root.object("default"));
  if (root.has("size_classes")) t.size_classes = parse_categories(root.object("size_classes"));
  if (root.has("ops")) {
    const JsonObject ops = root.object("ops");
    for (const auto& item : ops.node().items()) {
      t.ops[item.key()] = parse_categories(JsonObject(item.value(), ops.place(item.key())));
    }
  }
  return t;
}

Thresholds load_thresholds(const std::string& path) {
  std::error_code error;
  if (!std::filesystem::exists(path, error)) {
    throw InputError("thresholds file '" + printable(path) +
                     "' not found; pass --thresholds FILE (the source tree's is configs/thresholds.json)");
  }
  return parse_thresholds(read_json_file(path, kMaxConfigFileBytes), path);
}

std::vector<std::string> threshold_size_classes() {
  std::vector<std::string> names;
  for (const SizeClass& size_class : size_classes()) names.push_back(size_class.name);
  names.emplace_back("custom");
  return names;
}

namespace {

/// Throws naming `place` when `name` is not one of `known`.
void check_name(const std::string& place, const char* what, const char* whats, const std::string& name,
                const std::vector<std::string>& known) {
  if (std::find(known.begin(), known.end(), name) != known.end()) return;
  throw InputError(place + ": no " + what + " '" + printable(name) + "'" + did_you_mean(name, known) + "; " + whats +
                   ": " + printable(join_names(known)));
}

}  // namespace

void check_threshold_names(const Thresholds& thresholds, const std::vector<std::string>& ops,
                           const std::vector<std::string>& size_classes) {
  const std::string root = printable(thresholds.file) + ": $.";
  for (const auto& [name, threshold] : thresholds.size_classes) {
    check_name(root + "size_classes." + printable(name), "size class", "size classes", name, size_classes);
  }
  for (const auto& [op, categories] : thresholds.ops) {
    check_name(root + "ops." + printable(op), "op", "ops", op, ops);
    for (const auto& [name, threshold] : categories) {
      check_name(root + "ops." + printable(op) + "." + printable(name), "size class", "size classes", name, size_classes);
    }
  }
}

void check_threshold_names(const Thresholds& thresholds, std::vector<std::string> ops,
                           const std::vector<const RunResults*>& runs) {
  std::vector<std::string> classes = threshold_size_classes();
  const auto add = [](std::vector<std::string>& names, const std::string& name) {
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  };
  for (const RunResults* run : runs) {
    if (!run) continue;
    for (const CaseResult& row : run->cases) {
      add(ops, row.op);
      add(classes, row.size_class);
    }
  }
  check_threshold_names(thresholds, ops, classes);
}

}  // namespace kbench
