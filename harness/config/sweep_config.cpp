#include "harness/config/sweep_config.hpp"

#include "harness/common/did_you_mean.hpp"
#include "harness/ops/dtype.hpp"
#include "harness/common/json_input.hpp"
#include "harness/common/json_text.hpp"
#include "harness/common/printable_text.hpp"
#include "harness/config/size_classes.hpp"
#include "harness/config/sweep_axes.hpp"

#include <algorithm>
#include <filesystem>

namespace kbench {

using nlohmann::json;

namespace {
/// The skip's op, size class, shape and dtype fields (those set) match the case.
bool matches_problem(const CaseSkip& skip, const std::string& op, const std::string& size_class, const Shape& shape,
                     const std::string& dtype) {
  return (!skip.op || *skip.op == op) && (!skip.size_class || *skip.size_class == size_class) &&
         (!skip.shape || *skip.shape == shape) && (!skip.dtype || *skip.dtype == dtype);
}
}  // namespace

bool CaseSkip::matches_case(const std::string& op_name, const std::string& size_class_name, const Shape& case_shape,
                            const std::string& dtype_name_) const {
  return !variant && matches_problem(*this, op_name, size_class_name, case_shape, dtype_name_);
}

bool CaseSkip::matches(const std::string& op_name, const std::string& size_class_name, const Shape& case_shape,
                       const std::string& dtype_name_, const std::string& variant_name) const {
  return matches_problem(*this, op_name, size_class_name, case_shape, dtype_name_) && (!variant || *variant == variant_name);
}

namespace {

constexpr int kMaxIncludeDepth = 8;

/// The dtype names for messages, from the harness's list of dtypes, and matmul's tf32.
std::vector<std::string> dtype_names() {
  std::vector<std::string> names;
  for (DType dtype : all_dtypes()) names.emplace_back(dtype_name(dtype));
  names.emplace_back(dtype_name(DType::tf32));
  return names;
}

/// A dtype name, canonicalised ("half" -> "fp16").
std::string parse_dtype_name(const json& value, const JsonPlace& place) {
  const std::string expected = "one of " + join_names(dtype_names());
  if (!value.is_string()) found_expected(place, value, expected);
  const auto dtype = parse_dtype(value.get<std::string>());
  if (!dtype) {
    input_error(place, "found " + describe_json(value) + did_you_mean(value.get<std::string>(), dtype_names()) +
                           "; expected " + expected);
  }
  return std::string(dtype_name(*dtype));
}

std::vector<std::string> parse_dtype_list(const json& value, const JsonPlace& place) {
  if (!value.is_array() || value.empty()) found_expected(place, value, "a non-empty array of dtype names");
  std::vector<std::string> dtypes;
  for (std::size_t i = 0; i < value.size(); ++i) {
    const std::string name = parse_dtype_name(value[i], place.index(i));
    if (std::find(dtypes.begin(), dtypes.end(), name) != dtypes.end()) {
      input_error(place.index(i), "dtype " + name + " is listed twice");
    }
    dtypes.push_back(name);
  }
  return dtypes;
}

/// A non-empty name (op, size class, variant).
std::string parse_name(const JsonObject& object, const std::string& key) {
  const std::string name = object.string(key);
  if (name.empty()) found_expected(object.place(key), object.at(key), "a non-empty name");
  return name;
}

/// kbench's size class or one of the config's own; a name one or two edits away from one of
/// kbench's is taken for a typo (it would be judged by the default thresholds instead).
std::string parse_size_class(const JsonObject& object) {
  const std::string name = parse_name(object, "size_class");
  if (find_size_class(name)) return name;
  std::vector<std::string> known;
  for (const SizeClass& size_class : size_classes()) known.push_back(size_class.name);
  const std::string near = closest_match(name, known);
  if (!near.empty()) {
    input_error(object.place("size_class"), "found " + describe_json(object.at("size_class")) + " (did you mean '" + near +
                                                "'?); expected " + join_names(known) +
                                                ", or a name of your own that is not a near miss of one of them");
  }
  return name;
}

Sweep parse_sweep(const JsonObject& object, const std::vector<std::string>& default_dtypes) {
  object.allow_keys({"op", "size_class", "shape", "axes", "zip", "dtypes", "variants"});
  Sweep sweep;
  sweep.origin = object.place().text();
  sweep.op = parse_name(object, "op");
  sweep.size_class = parse_size_class(object);
  sweep.shapes = sweep_shapes(object);
  sweep.dtypes = object.has("dtypes") ? parse_dtype_list(object.at("dtypes"), object.place("dtypes")) : default_dtypes;
  if (object.has("variants")) {
    sweep.variants = object.strings("variants");
    if (sweep.variants.empty()) found_expected(object.place("variants"), object.at("variants"), "a non-empty array of variant names");
  }
  return sweep;
}

CaseSkip parse_skip(const JsonObject& object) {
  object.allow_keys({"op", "size_class", "shape", "dtype", "variant", "reason"});
  CaseSkip skip;
  skip.origin = object.place().text();
  skip.reason = object.string("reason");
  if (skip.reason.empty()) found_expected(object.place("reason"), object.at("reason"), "a non-empty reason");
  if (object.has("op")) skip.op = parse_name(object, "op");
  if (object.has("size_class")) skip.size_class = parse_name(object, "size_class");
  if (object.has("variant")) skip.variant = parse_name(object, "variant");
  if (object.has("dtype")) skip.dtype = parse_dtype_name(object.at("dtype"), object.place("dtype"));
  if (object.has("shape")) {
    const json& shape = object.at("shape");
    if (!shape.is_array() || shape.empty()) found_expected(object.place("shape"), shape, "an array of positive integers");
    Shape s;
    for (std::size_t i = 0; i < shape.size(); ++i) s.push_back(positive_integer(shape[i], object.place("shape").index(i)));
    skip.shape = s;
  }
  if (!skip.op && !skip.size_class && !skip.variant && !skip.dtype && !skip.shape) {
    input_error(object.place(), "a skip must name at least one of op, size_class, shape, dtype, variant");
  }
  return skip;
}

void parse_settings(const JsonObject& object, SweepConfig& config) {
  std::vector<std::string> keys;
  for (const MeasureSettingRow& row : measure_settings_table()) keys.push_back(row.key);
  object.allow_keys(keys);
  for (const auto& item : object.node().items()) {
    const MeasureSettingRow* row = find_measure_setting(item.key());
    const std::string error = setting_from_json(config.settings, *row, item.value());
    if (!error.empty()) input_error(object.place(item.key()), "found " + describe_json(item.value()) + "; " + error);
    config.settings_keys.erase(std::remove(config.settings_keys.begin(), config.settings_keys.end(), item.key()),
                               config.settings_keys.end());
    config.settings_keys.push_back(item.key());
  }
  if (const std::string problem = validate(config.settings); !problem.empty()) input_error(object.place(), problem);
}

/// What one config has used so far of its limits, over all its files.
struct Budget {
  std::size_t files_read = 1;  ///< the config itself, then each include each time it is read
  std::size_t problems = 0;    ///< shapes x dtypes of the sweeps parsed so far
};

void parse_into(const json& document, const std::string& file, SweepConfig& config, std::vector<std::string>& chain,
                Budget& budget);

void parse_include(const JsonObject& root, const std::string& file, SweepConfig& config, std::vector<std::string>& chain,
                   Budget& budget) {
  const JsonPlace place = root.place("include");
  const std::vector<std::string> includes = root.strings("include");
  // Each file then brings at least one sweep (its own or an included file's): a plan is never empty.
  if (includes.empty()) found_expected(place, root.at("include"), "a non-empty array of config files");
  const std::filesystem::path folder = std::filesystem::path(file).parent_path();
  for (std::size_t i = 0; i < includes.size(); ++i) {
    const std::string path = (folder / includes[i]).lexically_normal().string();
    if (std::find(chain.begin(), chain.end(), path) != chain.end()) {
      input_error(place.index(i), "'" + printable(includes[i]) + "' includes itself (through " + printable(join_names(chain)) + ")");
    }
    if (chain.size() >= kMaxIncludeDepth) {
      input_error(place.index(i), "'" + printable(includes[i]) + "' nests includes deeper than " + std::to_string(kMaxIncludeDepth) +
                                      " files (through " + printable(join_names(chain)) + ")");
    }
    // Counted before reading: a few small files that include each other many times over would
    // otherwise multiply into millions of reads and sweeps.
    if (++budget.files_read > kMaxConfigFiles) {
      input_error(place.index(i), "reading '" + printable(includes[i]) + "' makes more than " + std::to_string(kMaxConfigFiles) +
                                      " files read for one config (the config and every file it includes, counted each "
                                      "time it is included)");
    }
    json included;  // read_json_file refuses a device or a pipe (/dev/zero, /dev/stdin) before opening it
    try {
      included = read_json_file(path);
    } catch (const InputError& e) {
      input_error(place.index(i), e.what());
    }
    chain.push_back(path);
    parse_into(included, path, config, chain, budget);
    chain.pop_back();
  }
}

void parse_into(const json& document, const std::string& file, SweepConfig& config, std::vector<std::string>& chain,
                Budget& budget) {
  const JsonObject root(document, JsonPlace{file, "$"});
  root.allow_keys({"description", "include", "dtypes", "settings", "sweeps", "skip"});
  if (config.description.empty()) config.description = root.string_or("description", "");
  else if (root.has("description")) root.string("description");  // type-checked; the outermost one is kept
  if (!root.has("include") && !root.has("sweeps")) input_error(root.place(), "missing key 'sweeps' (or 'include')");
  if (root.has("include")) parse_include(root, file, config, chain, budget);
  if (root.has("settings")) parse_settings(root.object("settings"), config);
  const std::vector<std::string> dtypes =
      root.has("dtypes") ? parse_dtype_list(root.at("dtypes"), root.place("dtypes")) : std::vector<std::string>{"fp32"};
  if (root.has("sweeps")) {
    const json& sweeps = root.at("sweeps");
    if (!sweeps.is_array() || sweeps.empty()) found_expected(root.place("sweeps"), sweeps, "a non-empty array of sweeps");
    if (config.sweeps.size() + sweeps.size() > kMaxConfigSweeps) {
      input_error(root.place("sweeps"), "the config has more than " + std::to_string(kMaxConfigSweeps) +
                                            " sweeps (its includes' counted)");
    }
    for (std::size_t i = 0; i < sweeps.size(); ++i) {
      config.sweeps.push_back(parse_sweep(JsonObject(sweeps[i], root.place("sweeps").index(i)), dtypes));
      // Counted as each sweep is expanded (a sweep counts its shapes before expanding them).
      budget.problems += config.sweeps.back().shapes.size() * config.sweeps.back().dtypes.size();
      if (budget.problems > kMaxConfigProblems) {
        input_error(root.place("sweeps").index(i), "the config expands to more than " + std::to_string(kMaxConfigProblems) +
                                                       " problems (op x shape x dtype, before filters) by this sweep");
      }
    }
  }
  if (root.has("skip")) {
    const json& skips = root.at("skip");
    if (!skips.is_array()) found_expected(root.place("skip"), skips, "an array of skips");
    if (config.skips.size() + skips.size() > kMaxConfigSkips) {
      input_error(root.place("skip"), "the config has more than " + std::to_string(kMaxConfigSkips) + " skips");
    }
    for (std::size_t i = 0; i < skips.size(); ++i)
      config.skips.push_back(parse_skip(JsonObject(skips[i], root.place("skip").index(i))));
  }
}

}  // namespace

SweepConfig parse_sweep_config(const json& document, const std::string& file) {
  SweepConfig config;
  config.file = file;
  std::vector<std::string> chain{std::filesystem::path(file).lexically_normal().string()};
  Budget budget;
  parse_into(document, file, config, chain, budget);
  return config;
}

SweepConfig load_sweep_config(const std::string& path) { return parse_sweep_config(read_json_file(path), path); }

std::size_t problem_count(const SweepConfig& config) {
  std::size_t count = 0;
  for (const Sweep& sweep : config.sweeps) count += sweep.shapes.size() * sweep.dtypes.size();
  return count;
}

}  // namespace kbench
