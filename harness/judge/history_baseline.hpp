#pragma once
/// A rolling baseline for `kbench gate RUN --history DIR`: the last K results files of the same
/// device and plan, their samples pooled row by row, and each row's trend over them. Host-only.
///
/// A history file is used when it comes from the same device (name and peak bandwidth, as
/// `--baseline` demands), holds exactly the run's rows (op, variant, dtype, shape: the same
/// plan), completed, and is not the run itself (same device, time, host and seed). The last K by
/// `utc_time` (then file name) are used, oldest first. Pooling: for each row and mode, the
/// samples of every used file that timed it are concatenated and summarised again, so run-to-run
/// differences count as noise; where any used file kept no samples for it, the newest file's
/// timing stands in alone.

#include "harness/results/results.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace kbench {

/// One results file of the history folder, read.
struct HistoryFile {
  std::string path;
  RunResults results;
};

struct HistoryBaseline {
  RunResults baseline;               ///< the pooled baseline run (the newest used file's metadata)
  std::vector<std::string> used;     ///< paths of the files pooled, oldest first
  std::vector<std::string> skipped;  ///< one line per file left out: its path and why
  std::vector<std::string> trends;   ///< one line per own row of the run: headline medians, oldest first, then the run's
};

/// The results files (`*.json`, regular files, not recursing) directly in `folder`, sorted by
/// name. Throws InputError when `folder` is not a folder or holds no results file.
std::vector<std::string> history_files(const std::string& folder);

/// Builds the rolling baseline for `run` from `candidates` (any order), at most `depth` files.
/// Throws InputError naming `folder` when no candidate is usable, with what each was skipped for.
HistoryBaseline history_baseline(const RunResults& run, const std::vector<HistoryFile>& candidates, std::size_t depth,
                                 const std::string& folder);

}  // namespace kbench
