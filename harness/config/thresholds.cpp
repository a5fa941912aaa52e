#include "harness/config/thresholds.hpp"

#include "harness/common/json_input.hpp"

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
  if (!std::filesystem::exists(path)) {
    throw InputError("thresholds file '" + path + "' not found; pass --thresholds FILE (the source tree's is configs/thresholds.json)");
  }
  return parse_thresholds(read_json_file(path), path);
}

}  // namespace kbench
