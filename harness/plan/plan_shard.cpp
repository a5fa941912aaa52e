#include "harness/plan/plan_shard.hpp"

#include "harness/plan/case_cost.hpp"

#include <algorithm>
#include <charconv>
#include <stdexcept>

namespace kbench {

namespace {

/// A whole decimal number, nothing else; none otherwise.
std::optional<std::size_t> whole_number(const std::string& text) {
  std::size_t value = 0;
  const char* const end = text.data() + text.size();
  const auto [last, error] = std::from_chars(text.data(), end, value);
  if (text.empty() || error != std::errc() || last != end) return std::nullopt;
  return value;
}

bool same_case(const PlanEntry& a, const PlanEntry& b) {
  return a.op->name() == b.op->name() && a.problem.shape == b.problem.shape && a.problem.dtype == b.problem.dtype;
}

std::size_t variable(const EnvironmentLookup& lookup, const char* name, const std::string& why) {
  const char* text = lookup(name);
  if (text == nullptr) throw std::invalid_argument(std::string(name) + " is not set; " + why);
  const std::optional<std::size_t> value = whole_number(text);
  if (!value) throw std::invalid_argument(std::string(name) + " is '" + text + "'; expected a whole number");
  return *value;
}

ShardChoice slurm_shard(const EnvironmentLookup& lookup) {
  const std::string why = "a Slurm array job sets it (or give --shard I/N)";
  const std::size_t id = variable(lookup, "SLURM_ARRAY_TASK_ID", why);
  const std::size_t min = variable(lookup, "SLURM_ARRAY_TASK_MIN", why);
  if (const char* step = lookup("SLURM_ARRAY_TASK_STEP"); step != nullptr && std::string(step) != "1") {
    throw std::invalid_argument(std::string("SLURM_ARRAY_TASK_STEP is '") + step +
                                "'; expected 1: shard with consecutive array ids (--array=0-7 or 1-8), or give --shard I/N");
  }
  const bool has_count = lookup("SLURM_ARRAY_TASK_COUNT") != nullptr, has_max = lookup("SLURM_ARRAY_TASK_MAX") != nullptr;
  if (!has_count && !has_max) {
    throw std::invalid_argument("SLURM_ARRAY_TASK_ID is set without SLURM_ARRAY_TASK_COUNT or SLURM_ARRAY_TASK_MAX; " + why);
  }
  std::size_t count = has_count ? variable(lookup, "SLURM_ARRAY_TASK_COUNT", why) : 0;
  if (has_max) {
    const std::size_t max = variable(lookup, "SLURM_ARRAY_TASK_MAX", why);
    if (max < min) throw std::invalid_argument("SLURM_ARRAY_TASK_MAX is below SLURM_ARRAY_TASK_MIN");
    if (has_count && max - min + 1 != count) {
      throw std::invalid_argument("SLURM_ARRAY_TASK_COUNT (" + std::to_string(count) + ") is not SLURM_ARRAY_TASK_MAX - MIN + 1 (" +
                                  std::to_string(max - min + 1) +
                                  "): the array's ids are not consecutive; shard with --array=0-7 or 1-8, or give --shard I/N");
    }
    count = max - min + 1;
  }
  if (id < min || id - min >= count || count == 0 || count > kMaxShards) {
    throw std::invalid_argument("SLURM_ARRAY_TASK_ID " + std::to_string(id) + " is not one of " + std::to_string(count) +
                                " consecutive ids from SLURM_ARRAY_TASK_MIN " + std::to_string(min));
  }
  return {id - min, count, "Slurm array task " + std::to_string(id) + " of ids " + std::to_string(min) + ".." +
                               std::to_string(min + count - 1)};
}

ShardChoice kubernetes_shard(const EnvironmentLookup& lookup) {
  const std::size_t index = variable(lookup, "JOB_COMPLETION_INDEX", "");
  const std::size_t count = variable(lookup, "KBENCH_SHARD_COUNT",
                                     "set it to the indexed Job's completions (JOB_COMPLETION_INDEX is set), or give --shard I/N");
  if (count == 0 || count > kMaxShards || index >= count) {
    throw std::invalid_argument("JOB_COMPLETION_INDEX " + std::to_string(index) + " with KBENCH_SHARD_COUNT " +
                                std::to_string(count) + "; expected 0 <= index < count <= " + std::to_string(kMaxShards));
  }
  return {index, count, "Kubernetes JOB_COMPLETION_INDEX=" + std::to_string(index) + ", KBENCH_SHARD_COUNT=" + std::to_string(count)};
}

}  // namespace

std::string shard_text(const ShardChoice& shard) {
  return std::to_string(shard.index + 1) + "/" + std::to_string(shard.count);
}

ShardChoice parse_shard(const std::string& text) {
  const std::size_t slash = text.find('/');
  const std::optional<std::size_t> index = whole_number(text.substr(0, slash));
  const std::optional<std::size_t> count = slash == std::string::npos ? std::nullopt : whole_number(text.substr(slash + 1));
  if (!index || !count || *index < 1 || *index > *count || *count > kMaxShards) {
    throw std::invalid_argument("--shard is '" + text + "'; expected I/N with 1 <= I <= N <= " + std::to_string(kMaxShards) +
                                " (1-based: the first of 4 shards is 1/4)");
  }
  return {*index - 1, *count, "--shard"};
}

std::optional<ShardChoice> shard_from_environment(const EnvironmentLookup& lookup) {
  if (lookup("SLURM_ARRAY_TASK_ID") != nullptr) return slurm_shard(lookup);
  if (lookup("JOB_COMPLETION_INDEX") != nullptr) return kubernetes_shard(lookup);
  return std::nullopt;
}

std::vector<std::size_t> assign_shards(const Plan& plan, const MeasureSettings& settings, std::size_t count) {
  if (count == 0) throw std::invalid_argument("assign_shards: no shards");
  std::vector<double> cost(plan.entries.size());
  for (std::size_t i = 0; i < cost.size(); ++i) cost[i] = estimated_case_seconds(plan.entries[i], settings);
  std::vector<double> load(count, 0.0);
  std::vector<std::size_t> shard_of(cost.size(), 0);
  for (std::size_t i : largest_first(plan, settings)) {
    const std::size_t lightest = static_cast<std::size_t>(std::min_element(load.begin(), load.end()) - load.begin());
    shard_of[i] = lightest;
    load[lightest] += cost[i];
  }
  return shard_of;
}

Plan select_shard(const Plan& plan, const MeasureSettings& settings, const ShardChoice& shard) {
  const std::vector<std::size_t> shard_of = assign_shards(plan, settings, shard.count);
  Plan part;
  for (std::size_t i = 0; i < plan.entries.size(); ++i) {
    if (shard_of[i] == shard.index) part.entries.push_back(plan.entries[i]);
  }
  std::vector<const PlanEntry*> skipped_only;  // cases the config skips whole, in plan order
  for (const SkippedEntry& skipped : plan.skipped) {
    const auto planned = std::find_if(plan.entries.begin(), plan.entries.end(),
                                      [&](const PlanEntry& entry) { return same_case(entry, skipped.entry); });
    std::size_t owner = 0;
    if (planned != plan.entries.end()) {
      owner = shard_of[static_cast<std::size_t>(planned - plan.entries.begin())];
    } else {
      auto known = std::find_if(skipped_only.begin(), skipped_only.end(),
                                [&](const PlanEntry* entry) { return same_case(*entry, skipped.entry); });
      if (known == skipped_only.end()) known = skipped_only.insert(skipped_only.end(), &skipped.entry);
      owner = static_cast<std::size_t>(known - skipped_only.begin()) % shard.count;
    }
    if (owner == shard.index) part.skipped.push_back(skipped);
  }
  return part;
}

}  // namespace kbench
