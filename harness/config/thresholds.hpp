#pragma once
/// Efficiency thresholds per op x size category (configs/thresholds.json, documented in
/// configs/README.md and README.md). The same thresholds give the console table's status, the
/// report's status and the gate's verdict. Host-only.
///
/// Lookup for a row of op O in size class C: ops.O.C, else size_classes.C, else default.

#include "harness/results/metrics.hpp"
#include "harness/results/results.hpp"
#include "harness/results/status_bands.hpp"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace kbench {

/// What one op x size category must reach.
struct Threshold {
  double min_efficiency = 0;               ///< fraction of theoretical peak: below it is Critical and fails the gate
  double target_efficiency = 0;            ///< fraction of theoretical peak: at or above it is Good
  std::optional<double> min_speed_ratio;   ///< baseline time / kbench time the gate requires, when set
  std::string origin;                      ///< "FILE: $.ops.add.large", for messages

  /// The status band (efficiency only; the speed ratio never sets a status).
  EfficiencyBand band() const { return {min_efficiency, target_efficiency}; }
};

struct Thresholds {
  std::string file;                                                ///< where they were read from
  std::string description;
  Threshold general;                                               ///< "default": any op, any category
  std::map<std::string, Threshold> size_classes;                   ///< "size_classes": any op
  std::map<std::string, std::map<std::string, Threshold>> ops;     ///< "ops": op -> category -> threshold
  nlohmann::json document;                                         ///< the file as parsed (a plan repeats it as is)

  /// The threshold for a row of `op` in `size_class`.
  const Threshold& lookup(const std::string& op, const std::string& size_class) const;
  /// The threshold for `row`.
  const Threshold& lookup(const CaseResult& row) const { return lookup(row.op, row.size_class); }
  /// The status band of a timed row, from its efficiency; nullopt when the row was not timed.
  std::optional<Band> band_of(const CaseResult& row) const;
  /// A band policy for derive_metrics that uses these thresholds.
  BandPolicy policy() const;
};

/// Parses a thresholds document; throws InputError naming `file`, the JSON path, what was found
/// and what was expected.
Thresholds parse_thresholds(const nlohmann::json& document, const std::string& file);

/// Reads and parses a thresholds file; throws InputError (a missing file says so and how to
/// point kbench at another one).
Thresholds load_thresholds(const std::string& path);

/// The size classes a thresholds file may name besides a run's own: kbench's classes and
/// "custom" (--shape runs).
std::vector<std::string> threshold_size_classes();

/// Checks that every op and size class the thresholds name is one of `ops` (the registry's, and
/// those of the rows judged) and `size_classes` (threshold_size_classes() and the run's own): a
/// name that matches nothing would silently leave its rows to another threshold. Throws
/// InputError "FILE: $.ops.addd: no op 'addd' (did you mean 'add'?); ops: add, ...".
void check_threshold_names(const Thresholds& thresholds, const std::vector<std::string>& ops,
                           const std::vector<std::string>& size_classes);

/// check_threshold_names for judging `runs` (null entries are skipped): the ops are `ops` (the
/// registry's) and those of the runs' rows; the size classes threshold_size_classes() and the rows'.
void check_threshold_names(const Thresholds& thresholds, std::vector<std::string> ops,
                           const std::vector<const RunResults*>& runs);

}  // namespace kbench
