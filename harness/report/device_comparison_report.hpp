#pragma once
/// `kbench report h100.json h200.json ...`: the same cases on several devices side by side, each
/// row against its own device's roof, with the speed ratio between devices. Reads results only.

#include "harness/results/results.hpp"

#include <ostream>
#include <string>
#include <vector>

namespace kbench {

/// One results file of a cross-device report.
struct DeviceRun {
  std::string label;                   ///< column heading: the device's name, or a file name where two share one
  const RunResults* results = nullptr;
};

/// Markdown: a table of the runs (device, its theoretical bandwidth, kbench commit, date,
/// command), then per op one row per own or baseline row (op, variant, dtype, shape) found in
/// any run, in order of first appearance: for each run its median, efficiency (against that
/// row's own device's peaks) and % of its own copy roof, then for each run after the first its
/// speed against the first (first run's median / this run's median: above 1 is faster).
/// A row a run lacks or did not time shows "-".
void write_device_comparison(std::ostream& out, const std::vector<DeviceRun>& runs);

/// Labels for `runs` from their device names; where two runs share a name, each such label gets
/// its file's name (from `files`, the same length) in brackets.
std::vector<std::string> device_labels(const std::vector<const RunResults*>& runs, const std::vector<std::string>& files);

}  // namespace kbench
