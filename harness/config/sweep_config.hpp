#pragma once
/// Sweep configs (configs/*.json, documented in configs/README.md): which ops, shapes, dtypes and
/// variants to run, with measurement settings and per-case skips. Loading checks the file's
/// structure and types; op and variant names are checked against the registry when the plan is
/// made (config_plan.hpp). Host-only.

#include "harness/config/measure_settings.hpp"
#include "harness/ops/problem.hpp"

#include <optional>
#include <string>
#include <vector>

namespace kbench {

/// One op over one size category: shapes expanded from the template and axes.
struct Sweep {
  std::string op;
  std::string size_class;             ///< the category name thresholds and reports group by
  std::vector<Shape> shapes;          ///< expanded, in run order
  std::vector<std::string> dtypes;    ///< canonical names ("fp32", ...)
  std::vector<std::string> variants;  ///< variants to run (as --variant); empty: all
  std::string origin;                 ///< "FILE: $.sweeps[i]", for messages
};

/// Cases a config leaves out on purpose; they are reported as SKIPPED with the reason. Each
/// field that is set must match; a skip without `variant` skips every row of the case.
struct CaseSkip {
  std::optional<std::string> op, size_class, dtype, variant;
  std::optional<Shape> shape;
  std::string reason;
  std::string origin;  ///< "FILE: $.skip[i]"

  /// True when the skip applies to this row of a case.
  bool matches(const std::string& op, const std::string& size_class, const Shape& shape, const std::string& dtype,
               const std::string& variant) const;
  /// True when the skip applies to every row of the case (it names no variant).
  bool matches_case(const std::string& op, const std::string& size_class, const Shape& shape,
                    const std::string& dtype) const;
};

/// Limits that keep a small config from expanding into an enormous one (configs/README.md):
/// files read for one config (itself and its includes, each time one is included), sweeps, problems
/// (op x shape x dtype, before filters; --max-cases then applies after them) and skips.
constexpr std::size_t kMaxConfigFiles = 64;
constexpr std::size_t kMaxConfigSweeps = 1000;
constexpr std::size_t kMaxConfigProblems = 100000;
constexpr std::size_t kMaxConfigSkips = 10000;

struct SweepConfig {
  std::string file;                        ///< the file given (not its includes)
  std::string description;
  std::vector<Sweep> sweeps;               ///< this file's and its includes', in order
  std::vector<CaseSkip> skips;
  MeasureSettings settings;                ///< defaults overridden by the configs' "settings"
  std::vector<std::string> settings_keys;  ///< the keys the configs set, in order
};

/// Parses a config document. `file` is used in messages and to resolve "include" paths (relative
/// to the including file's folder). Throws InputError naming the file, JSON path, what was found
/// and what was expected.
SweepConfig parse_sweep_config(const nlohmann::json& document, const std::string& file);

/// Reads and parses a config file (and its includes). Throws InputError.
SweepConfig load_sweep_config(const std::string& path);

/// Problems (shapes x dtypes) the config's sweeps describe, before filters and skips.
std::size_t problem_count(const SweepConfig& config);

}  // namespace kbench
