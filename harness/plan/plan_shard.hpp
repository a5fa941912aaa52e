#pragma once
/// Splitting a plan into N shards by case (op x shape x dtype), for N machines or N jobs that run
/// one sweep between them: deterministic (the same plan gives every job the same split, with no
/// talk between them), disjoint and complete, balanced by the estimated cost of each case
/// (harness/plan/case_cost.hpp). Host-only.

#include "harness/config/measure_settings.hpp"
#include "harness/plan/plan.hpp"

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace kbench {

/// The most shards a plan may be split into.
inline constexpr std::size_t kMaxShards = 10000;

/// One shard of a split, and what chose it.
struct ShardChoice {
  std::size_t index = 0;  ///< 0-based (written and parsed 1-based: "2/4" is index 1)
  std::size_t count = 1;
  std::string source;     ///< "--shard", or the environment variables that gave it
};

/// "2/4": 1-based, as --shard takes it.
std::string shard_text(const ShardChoice& shard);

/// Parses --shard's "I/N" (1-based: 1 <= I <= N <= kMaxShards). Throws std::invalid_argument
/// naming the value and what was expected.
ShardChoice parse_shard(const std::string& text);

/// Looks up an environment variable; null when unset.
using EnvironmentLookup = std::function<const char*(const char*)>;

/// The shard a batch scheduler gives this job, or none:
/// - Slurm array jobs: SLURM_ARRAY_TASK_ID, less SLURM_ARRAY_TASK_MIN, of SLURM_ARRAY_TASK_COUNT
///   (or SLURM_ARRAY_TASK_MAX - MIN + 1) tasks; the array's ids must be consecutive.
/// - Kubernetes indexed Jobs: JOB_COMPLETION_INDEX (0-based) of KBENCH_SHARD_COUNT, which the
///   Job's pod template sets to its `completions`.
/// Slurm's variables win over Kubernetes'. Throws std::invalid_argument naming the variables when
/// they are set but do not make a shard (no count, not integers, an index past the count, a step).
std::optional<ShardChoice> shard_from_environment(const EnvironmentLookup& lookup);

/// The shard (0-based) of each of plan.entries, for a split into `count` shards: cases are taken
/// largest estimated cost first (ties: plan order) and each goes to the shard with the least
/// estimated cost so far (ties: the lowest index). Throws std::invalid_argument when count is 0.
std::vector<std::size_t> assign_shards(const Plan& plan, const MeasureSettings& settings, std::size_t count);

/// The part of `plan` that `shard` runs, in plan order: its entries, and the config's skipped
/// entries of its cases (a case the config skips whole goes to shard k mod count, k counting such
/// cases in plan order), so that the shards' results hold every row exactly once.
Plan select_shard(const Plan& plan, const MeasureSettings& settings, const ShardChoice& shard);

}  // namespace kbench
