#pragma once
/// `--repeat N`: one case measured in N processes, its rows pooled into one set. Host-only.
///
/// Per row: when any process found it INCORRECT or ERROR, that row stands (the first such, its
/// message saying which process); otherwise the passed rows are pooled mode by mode: samples
/// concatenated and summarised again, warm-up calls and low-clock samples summed, the SM clock
/// the median of the processes' medians and the lowest of their lowest, warnings and stop reasons
/// merged, `processes` the number that timed the mode. A row no process ran stays as the first
/// process left it (skipped). Samples are then kept as `keep_samples` says (measure_settings.hpp).

#include "harness/results/results.hpp"

#include <vector>

namespace kbench {

/// Pools `repeats` (one vector of a case's rows per process, all in plan order and of equal
/// length). Throws std::invalid_argument when a passed timing has no samples to pool (the
/// processes must keep every mode's samples) or the vectors differ in length.
std::vector<CaseResult> pool_repeated_rows(const std::vector<std::vector<CaseResult>>& repeats, int keep_samples);

}  // namespace kbench
