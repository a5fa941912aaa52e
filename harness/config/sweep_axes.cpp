#include "harness/config/sweep_axes.hpp"

#include "harness/common/did_you_mean.hpp"

#include <algorithm>
#include <map>

namespace kbench {

using nlohmann::json;

namespace {

bool is_power_of_two(std::int64_t value) { return value > 0 && (value & (value - 1)) == 0; }

std::vector<std::int64_t> parse_range(const JsonObject& range) {
  range.allow_keys({"from", "to", "step"});
  const std::int64_t from = positive_integer(range.at("from"), range.place("from"));
  const std::int64_t to = positive_integer(range.at("to"), range.place("to"));
  const std::int64_t step = range.has("step") ? positive_integer(range.at("step"), range.place("step")) : 1;
  if (to < from) found_expected(range.place("to"), range.at("to"), "a value >= from (" + std::to_string(from) + ")");
  const std::int64_t count = (to - from) / step + 1;
  if (count > static_cast<std::int64_t>(kMaxSweepShapes)) {
    input_error(range.place(), "the range has " + std::to_string(count) + " values; expected at most " +
                                   std::to_string(kMaxSweepShapes));
  }
  // Counted rather than stepped to `to`: from + i * step never passes `to`, so never overflows.
  std::vector<std::int64_t> values;
  for (std::int64_t i = 0; i < count; ++i) values.push_back(from + i * step);
  return values;
}

std::vector<std::int64_t> parse_pow2(const JsonObject& pow2) {
  pow2.allow_keys({"from", "to"});
  const std::int64_t from = positive_integer(pow2.at("from"), pow2.place("from"));
  const std::int64_t to = positive_integer(pow2.at("to"), pow2.place("to"));
  if (!is_power_of_two(from)) found_expected(pow2.place("from"), pow2.at("from"), "a power of two");
  if (!is_power_of_two(to)) found_expected(pow2.place("to"), pow2.at("to"), "a power of two");
  if (to < from) found_expected(pow2.place("to"), pow2.at("to"), "a value >= from (" + std::to_string(from) + ")");
  std::vector<std::int64_t> values;
  for (std::int64_t v = from; v <= to; v *= 2) {
    values.push_back(v);
    if (v > to / 2) break;  // the next doubling would pass `to` (and might overflow)
  }
  return values;
}

/// A factor of the cartesian product: one crossed axis, or a zipped group of axes.
struct Factor {
  std::vector<std::string> axes;
  std::size_t length = 0;
};

}  // namespace

std::vector<std::int64_t> parse_axis(const json& spec, const JsonPlace& place) {
  const std::string expected = "an array of positive integers, {\"range\": {...}} or {\"pow2\": {...}}";
  if (spec.is_array()) {
    if (spec.empty()) found_expected(place, spec, "at least one value");
    if (spec.size() > kMaxSweepShapes) {
      input_error(place, "the axis lists " + std::to_string(spec.size()) + " values; expected at most " +
                             std::to_string(kMaxSweepShapes));
    }
    std::vector<std::int64_t> values;
    for (std::size_t i = 0; i < spec.size(); ++i) values.push_back(positive_integer(spec[i], place.index(i)));
    return values;
  }
  if (!spec.is_object()) found_expected(place, spec, expected);
  const JsonObject object(spec, place);
  object.allow_keys({"range", "pow2"});
  if (spec.size() != 1) input_error(place, "found " + std::to_string(spec.size()) + " keys; expected exactly one of range, pow2");
  if (object.has("range")) return parse_range(object.object("range"));
  return parse_pow2(object.object("pow2"));
}

std::vector<Shape> sweep_shapes(const JsonObject& sweep) {
  // Axes first, so the template can be checked against them.
  std::map<std::string, std::vector<std::int64_t>> axes;
  std::vector<std::string> axis_names;
  if (sweep.has("axes")) {
    const JsonObject object = sweep.object("axes");
    for (const auto& item : object.node().items()) {
      axes[item.key()] = parse_axis(item.value(), object.place(item.key()));
      axis_names.push_back(item.key());
    }
  }

  // The template: integers stay, names refer to axes.
  const json& shape = sweep.at("shape");
  const JsonPlace shape_place = sweep.place("shape");
  if (!shape.is_array() || shape.empty()) found_expected(shape_place, shape, "a non-empty array of extents and axis names");
  std::vector<std::string> order;  // axis names in order of first use
  for (std::size_t i = 0; i < shape.size(); ++i) {
    const json& term = shape[i];
    if (term.is_string()) {
      const std::string name = term.get<std::string>();
      if (!axes.count(name)) {
        input_error(shape_place.index(i), "axis '" + name + "' is not defined in " + sweep.place("axes").path +
                                              did_you_mean(name, axis_names) +
                                              (axis_names.empty() ? "" : "; defined: " + join_names(axis_names)));
      }
      if (std::find(order.begin(), order.end(), name) == order.end()) order.push_back(name);
    } else {
      positive_integer(term, shape_place.index(i));  // "found ...; expected a positive integer"
    }
  }
  for (const std::string& name : axis_names) {
    if (std::find(order.begin(), order.end(), name) == order.end()) {
      input_error(sweep.place("axes").key(name), "axis '" + name + "' is not used in " + shape_place.path);
    }
  }

  // Zipped groups.
  std::map<std::string, std::size_t> group_of;  // axis -> index into zips
  std::vector<std::vector<std::string>> zips;
  if (sweep.has("zip")) {
    const json& zip = sweep.at("zip");
    const JsonPlace zip_place = sweep.place("zip");
    if (!zip.is_array()) found_expected(zip_place, zip, "an array of arrays of axis names, e.g. [[\"M\", \"N\"]]");
    for (std::size_t g = 0; g < zip.size(); ++g) {
      const JsonPlace group_place = zip_place.index(g);
      const std::vector<std::string> group = string_list(zip[g], group_place);
      if (group.size() < 2) found_expected(group_place, zip[g], "at least two axis names");
      for (std::size_t k = 0; k < group.size(); ++k) {
        const std::string& name = group[k];
        if (!axes.count(name)) {
          input_error(group_place.index(k), "axis '" + name + "' is not defined in " + sweep.place("axes").path +
                                                did_you_mean(name, axis_names));
        }
        if (group_of.count(name)) input_error(group_place.index(k), "axis '" + name + "' is zipped twice");
        group_of[name] = zips.size();
        if (axes[name].size() != axes[group[0]].size()) {
          input_error(group_place, "axis '" + group[0] + "' has " + std::to_string(axes[group[0]].size()) +
                                       " values and axis '" + name + "' has " + std::to_string(axes[name].size()) +
                                       "; expected zipped axes of equal length");
        }
      }
      zips.push_back(group);
    }
  }

  // Factors in template order: a zip group sits where its first axis first appears.
  std::vector<Factor> factors;
  std::vector<bool> group_placed(zips.size(), false);
  for (const std::string& name : order) {
    const auto group = group_of.find(name);
    if (group == group_of.end()) {
      factors.push_back({{name}, axes[name].size()});
    } else if (!group_placed[group->second]) {
      group_placed[group->second] = true;
      factors.push_back({zips[group->second], axes[name].size()});
    }
  }
  std::size_t total = 1;
  for (const Factor& factor : factors) {
    total *= factor.length;
    if (total > kMaxSweepShapes) {
      input_error(sweep.place(), "the axes expand to more than " + std::to_string(kMaxSweepShapes) + " shapes");
    }
  }

  // The cartesian product, last factor varying fastest.
  std::vector<Shape> shapes;
  std::vector<std::size_t> position(factors.size(), 0);
  for (std::size_t n = 0; n < total; ++n) {
    std::map<std::string, std::int64_t> value;
    for (std::size_t f = 0; f < factors.size(); ++f)
      for (const std::string& name : factors[f].axes) value[name] = axes[name][position[f]];
    Shape s;
    for (const json& term : shape) s.push_back(term.is_string() ? value[term.get<std::string>()] : term.get<std::int64_t>());
    try {
      element_count(s);
    } catch (const std::invalid_argument& e) {
      input_error(shape_place, e.what());
    }
    shapes.push_back(s);
    for (std::size_t f = factors.size(); f-- > 0;) {
      if (++position[f] < factors[f].length) break;
      position[f] = 0;
    }
  }
  return shapes;
}

}  // namespace kbench
