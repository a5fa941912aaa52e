#pragma once
/// `kbench merge`: the results files of one sweep's shards (--shard, or jobs of a batch
/// scheduler) joined into one results file that reports, compare and gate read as any other.
/// Host-only.

#include "harness/results/results.hpp"

#include <string>
#include <vector>

namespace kbench {

/// One results file to merge, with the name its messages use.
struct NamedResults {
  std::string name;
  RunResults results;
};

struct MergedResults {
  RunResults results;                      ///< every row of every input, in the plan's case order
  std::vector<std::string> missing_cases;  ///< cases of the plan that no input holds ("op dtype shape")
};

/// Merges `inputs` (at least one). They must record a plan ($.plan, written by runs since
/// plans were recorded) with the same fingerprint (the same plan, configuration and settings),
/// come from the same kbench commit, and hold no row (op, variant, dtype, shape) twice between
/// them; otherwise throws InputError naming the file, the JSON path and what differs. Rows keep
/// their device: inputs from different devices (by every field of the device block) give a
/// `devices` list. run_state is complete only when every input's is; the notes say what was merged.
MergedResults merge_results(const std::vector<NamedResults>& inputs);

}  // namespace kbench
