#include "harness/results/merge_results.hpp"

#include "harness/common/input_error.hpp"
#include "harness/common/printable_text.hpp"
#include "harness/results/results_json.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <tuple>

namespace kbench {

namespace {

std::string row_case(const CaseResult& row) { return row.op + " " + row.dtype + " " + format_shape(row.shape); }

std::string shard_label(const PlanIdentity& plan) {
  return plan.shard_count > 1 ? fmt::format("shard {}/{}", plan.shard_index + 1, plan.shard_count) : "unsharded";
}

/// Same plan, configuration, settings and kbench commit as the first input.
void check_same_plan(const NamedResults& first, const NamedResults& other) {
  if (!other.results.plan) {
    throw InputError(printable(other.name) + ": $.plan is missing; expected a results file of a kbench run that records its "
                     "plan (every run since kbench merge exists), so that its rows can be told apart from another sweep's");
  }
  const PlanIdentity& a = *first.results.plan;
  const PlanIdentity& b = *other.results.plan;
  if (a.fingerprint != b.fingerprint) {
    throw InputError(fmt::format("{}: $.plan.fingerprint is {} but {}'s is {}: the files come from different plans (config, "
                                 "selection options or measurement settings); expected shards of one sweep",
                                 printable(other.name), printable(b.fingerprint), printable(first.name), printable(a.fingerprint)));
  }
  const BuildInfo& x = first.results.build;
  const BuildInfo& y = other.results.build;
  if (x.git_commit != y.git_commit || x.git_dirty != y.git_dirty || x.version != y.version) {
    throw InputError(fmt::format("{}: $.kbench is version {} commit {} (dirty: {}) but {}'s is version {} commit {} (dirty: {}); "
                                 "expected every shard from the same kbench build",
                                 printable(other.name), printable(y.version), printable(y.git_commit), printable(y.git_dirty),
                                 printable(first.name), printable(x.version), printable(x.git_commit), printable(x.git_dirty)));
  }
}

}  // namespace

MergedResults merge_results(const std::vector<NamedResults>& inputs) {
  if (inputs.empty()) throw InputError("nothing to merge: expected results files");
  const NamedResults& first = inputs.front();
  if (!first.results.plan) check_same_plan(first, first);  // throws: no plan
  for (const NamedResults& input : inputs) check_same_plan(first, input);

  MergedResults merged;
  RunResults& out = merged.results;
  out = first.results;
  out.cases.clear();
  out.devices.clear();
  out.notes.clear();
  out.plan->shard_index = 0;
  out.plan->shard_count = 1;
  out.plan->shard_source.clear();

  // Devices, each once (by every field of its block): rows are judged against their own.
  std::vector<DeviceInfo> devices;
  std::vector<nlohmann::json> device_blocks;
  const auto device_slot = [&](const DeviceInfo& device) {
    const nlohmann::json block = to_json(device);
    const auto found = std::find(device_blocks.begin(), device_blocks.end(), block);
    if (found != device_blocks.end()) return static_cast<std::size_t>(found - device_blocks.begin());
    device_blocks.push_back(block);
    devices.push_back(device);
    return devices.size() - 1;
  };

  const std::vector<std::string>& cases = first.results.plan->cases;
  std::map<std::string, std::size_t> case_order;
  for (std::size_t i = 0; i < cases.size(); ++i) case_order.emplace(cases[i], i);
  std::map<std::tuple<std::string, std::string, std::string, Shape>, std::string> seen;  // row -> the file holding it
  std::vector<std::pair<std::size_t, CaseResult>> rows;  // (case order, row)
  std::vector<std::string> from;
  for (const NamedResults& input : inputs) {
    const RunResults& r = input.results;
    for (std::size_t i = 0; i < r.cases.size(); ++i) {
      const CaseResult& row = r.cases[i];
      const auto [holder, fresh] = seen.emplace(std::make_tuple(row.op, row.variant, row.dtype, row.shape), input.name);
      if (!fresh) {
        throw InputError(fmt::format("{}: $.cases[{}] ({} {}) is also in {}: the files overlap; expected each row in one "
                                     "file (shards of one split, each merged once)",
                                     printable(input.name), i, printable(row_case(row)), printable(row.variant),
                                     printable(holder->second)));
      }
      const auto order = case_order.find(row_case(row));
      if (order == case_order.end()) {
        throw InputError(fmt::format("{}: $.cases[{}] ({}) is not a case of the plan its $.plan.cases lists",
                                     printable(input.name), i, printable(row_case(row))));
      }
      CaseResult copy = row;
      copy.device = device_slot(device_of(r, row));
      rows.emplace_back(order->second, std::move(copy));
    }
    for (const std::string& note : r.notes) {
      if (std::find(out.notes.begin(), out.notes.end(), note) == out.notes.end()) out.notes.push_back(note);
    }
    if (r.run_state != RunState::complete && out.run_state == RunState::complete) out.run_state = r.run_state;
    out.utc_time = std::min(out.utc_time, r.utc_time);
    from.push_back(fmt::format("{} ({}, {}, {})", input.name, shard_label(*r.plan), r.host, r.utc_time));
  }
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<bool> present(cases.size(), false);
  for (auto& [order, row] : rows) {
    present[order] = true;
    out.cases.push_back(std::move(row));
  }
  for (std::size_t i = 0; i < cases.size(); ++i) {
    if (!present[i]) merged.missing_cases.push_back(cases[i]);
  }
  out.device = devices.empty() ? first.results.device : devices.front();
  if (devices.size() > 1) out.devices = devices;
  else
    for (CaseResult& row : out.cases) row.device = 0;

  // Shards run without one --seed each drew a seed of their own: $.seed, the first file's, then
  // describes only its rows' inputs, and the reader must be told.
  std::vector<std::uint64_t> seeds;
  std::string seed_list;
  for (const NamedResults& input : inputs) {
    if (std::find(seeds.begin(), seeds.end(), input.results.seed) == seeds.end()) seeds.push_back(input.results.seed);
    seed_list += (seed_list.empty() ? "" : ", ") + fmt::format("{} {}", input.name, input.results.seed);
  }
  if (seeds.size() > 1) {
    out.notes.push_back(fmt::format("the merged files drew their inputs from different seeds ({}): $.seed is the first "
                                    "file's; give every shard one --seed for inputs that one seed describes",
                                    seed_list));
  }

  std::string note = "merged from " + std::to_string(inputs.size()) + " files:";
  for (const std::string& each : from) note += " " + each + (&each == &from.back() ? "" : ";");
  out.notes.push_back(note);
  if (!merged.missing_cases.empty()) {
    out.notes.push_back(fmt::format("{} of the plan's {} cases are in no merged file (missing shards?)",
                                    merged.missing_cases.size(), cases.size()));
  }
  return merged;
}

}  // namespace kbench
