// Issue 23: shards of a plan, plan fingerprints, merging shards' results, the device pool.
#include "harness/common/input_error.hpp"
#include "harness/device/device_list.hpp"
#include "harness/isolate/device_pool.hpp"
#include "harness/isolate/worker_command_line.hpp"
#include "harness/plan/case_cost.hpp"
#include "harness/plan/config_plan.hpp"
#include "harness/plan/plan_fingerprint.hpp"
#include "harness/plan/plan_shard.hpp"
#include "harness/results/merge_results.hpp"
#include "harness/results/results_json.hpp"
#include "support/catch.hpp"
#include "support/test_paths.hpp"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <map>
#include <mutex>
#include <set>
#include <thread>

using namespace kbench;
using kbench::test::fixture_path;
using kbench::test::source_path;

namespace {

template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "no error";
}

Registry all_ops() {
  Registry registry;
  register_all_ops(registry);
  return registry;
}

/// The sweep configs in configs/ (every .json there but the thresholds).
std::vector<std::string> committed_configs() {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(source_path("configs"))) {
    if (entry.path().extension() == ".json" && entry.path().stem() != "thresholds") names.push_back(entry.path().stem().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

Plan config_plan(const Registry& registry, const std::string& name, MeasureSettings& settings) {
  const SweepConfig config = load_sweep_config(source_path("configs/" + name + ".json"));
  settings = config.settings;
  return make_config_plan(registry, config, {});
}

/// Every row of a plan (run or skipped) as "op variant dtype shape".
std::vector<std::string> row_names(const Plan& plan) {
  std::vector<std::string> names;
  const auto add = [&](const PlanEntry& entry) {
    for (const CaseResult& row : planned_rows(entry)) names.push_back(row.op + " " + row.variant + " " + row.dtype + " " + format_shape(row.shape));
  };
  for (const PlanEntry& entry : plan.entries) add(entry);
  for (const SkippedEntry& skipped : plan.skipped) add(skipped.entry);
  return names;
}

/// An environment of `values` only.
EnvironmentLookup environment(std::map<std::string, std::string> values) {
  return [values = std::move(values)](const char* name) -> const char* {
    const auto found = values.find(name);
    return found == values.end() ? nullptr : found->second.c_str();
  };
}

}  // namespace

TEST_CASE("every committed config splits into disjoint, complete, deterministic, balanced shards", "[shard]") {
  const Registry registry = all_ops();
  const std::vector<std::string> configs = committed_configs();
  CHECK(configs.size() >= 7);
  for (const std::string& name : configs) {
    MeasureSettings settings;
    const Plan plan = config_plan(registry, name, settings);
    std::vector<std::string> whole = row_names(plan);
    std::sort(whole.begin(), whole.end());
    for (const std::size_t count : {std::size_t{1}, std::size_t{2}, std::size_t{3}, std::size_t{8}, plan.entries.size() + 2}) {
      INFO(name << " in " << count << " shards");
      CHECK(assign_shards(plan, settings, count) == assign_shards(plan, settings, count));  // deterministic
      std::vector<std::string> joined;
      std::vector<double> cost;
      for (std::size_t i = 0; i < count; ++i) {
        const Plan part = select_shard(plan, settings, {i, count, "test"});
        const std::vector<std::string> rows = row_names(part);
        joined.insert(joined.end(), rows.begin(), rows.end());
        double seconds = 0;
        for (const PlanEntry& entry : part.entries) seconds += estimated_case_seconds(entry, settings);
        cost.push_back(seconds);
      }
      std::sort(joined.begin(), joined.end());
      CHECK(joined == whole);  // complete, and disjoint: no row twice
      // Greedy largest-first: no shard exceeds the lightest by more than the largest case.
      double largest = 0;
      for (const PlanEntry& entry : plan.entries) largest = std::max(largest, estimated_case_seconds(entry, settings));
      CHECK(*std::max_element(cost.begin(), cost.end()) - *std::min_element(cost.begin(), cost.end()) <= largest + 1e-9);
    }
  }
}

TEST_CASE("a plan's fingerprint follows its cases and settings, not its shard", "[shard]") {
  const Registry registry = all_ops();
  MeasureSettings settings;
  const Plan plan = config_plan(registry, "add", settings);
  const std::string fingerprint = plan_fingerprint(plan, settings);
  CHECK(fingerprint.rfind("fnv1a64:", 0) == 0);
  CHECK(fingerprint.size() == 8 + 16);
  CHECK(plan_fingerprint(plan, settings) == fingerprint);
  MeasureSettings other = settings;
  other.min_samples += 1;
  CHECK(plan_fingerprint(plan, other) != fingerprint);
  Plan fewer = plan;
  fewer.entries.pop_back();
  CHECK(plan_fingerprint(fewer, settings) != fingerprint);
  Plan fewer_rows = plan;
  fewer_rows.entries.front().variants.pop_back();
  CHECK(plan_fingerprint(fewer_rows, settings) != fingerprint);
  CHECK(plan_case_names(plan).size() == plan.entries.size());
  CHECK(plan_case_names(plan).front() == "add fp32 256x256");
}

TEST_CASE("--shard is 1-based I/N", "[shard]") {
  const ShardChoice shard = parse_shard("2/4");
  CHECK(shard.index == 1);
  CHECK(shard.count == 4);
  CHECK(shard_text(shard) == "2/4");
  for (const char* bad : {"0/4", "5/4", "4", "a/4", "1/0", "-1/4", "1/4/2", "1 /4", "1/10001", ""}) {
    INFO(bad);
    CHECK(contains(error_of([&] { parse_shard(bad); }), "expected I/N with 1 <= I <= N"));
  }
}

TEST_CASE("Slurm array jobs and Kubernetes indexed Jobs name the shard", "[shard]") {
  CHECK_FALSE(shard_from_environment(environment({})));
  const auto slurm = shard_from_environment(
      environment({{"SLURM_ARRAY_TASK_ID", "3"}, {"SLURM_ARRAY_TASK_MIN", "1"}, {"SLURM_ARRAY_TASK_MAX", "4"}}));
  REQUIRE(slurm);
  CHECK(slurm->index == 2);
  CHECK(slurm->count == 4);
  CHECK(contains(slurm->source, "Slurm array task 3"));
  const auto counted = shard_from_environment(
      environment({{"SLURM_ARRAY_TASK_ID", "0"}, {"SLURM_ARRAY_TASK_MIN", "0"}, {"SLURM_ARRAY_TASK_COUNT", "8"}}));
  REQUIRE(counted);
  CHECK(counted->index == 0);
  CHECK(counted->count == 8);
  CHECK(contains(error_of([] {
                   shard_from_environment(environment(
                       {{"SLURM_ARRAY_TASK_ID", "4"}, {"SLURM_ARRAY_TASK_MIN", "0"}, {"SLURM_ARRAY_TASK_MAX", "12"}, {"SLURM_ARRAY_TASK_COUNT", "4"}}));
                 }),
                 "not consecutive"));
  CHECK(contains(error_of([] {
                   shard_from_environment(environment({{"SLURM_ARRAY_TASK_ID", "2"}, {"SLURM_ARRAY_TASK_MIN", "0"},
                                                       {"SLURM_ARRAY_TASK_MAX", "6"}, {"SLURM_ARRAY_TASK_STEP", "2"}}));
                 }),
                 "SLURM_ARRAY_TASK_STEP is '2'"));
  CHECK(contains(error_of([] { shard_from_environment(environment({{"SLURM_ARRAY_TASK_ID", "2"}, {"SLURM_ARRAY_TASK_MIN", "0"}})); }),
                 "without SLURM_ARRAY_TASK_COUNT"));
  const auto indexed = shard_from_environment(environment({{"JOB_COMPLETION_INDEX", "0"}, {"KBENCH_SHARD_COUNT", "3"}}));
  REQUIRE(indexed);
  CHECK(indexed->index == 0);
  CHECK(indexed->count == 3);
  CHECK(contains(error_of([] { shard_from_environment(environment({{"JOB_COMPLETION_INDEX", "1"}})); }),
                 "KBENCH_SHARD_COUNT is not set"));
  CHECK(contains(error_of([] { shard_from_environment(environment({{"JOB_COMPLETION_INDEX", "3"}, {"KBENCH_SHARD_COUNT", "3"}})); }),
                 "expected 0 <= index < count"));
  CHECK(contains(error_of([] { shard_from_environment(environment({{"JOB_COMPLETION_INDEX", "x"}, {"KBENCH_SHARD_COUNT", "3"}})); }),
                 "JOB_COMPLETION_INDEX is 'x'"));
}

TEST_CASE("--devices is 'all' or distinct indices, checked against the host's GPUs", "[devices]") {
  CHECK(parse_device_list("all").all);
  CHECK(parse_device_list("0,2,3").indices == std::vector<int>{0, 2, 3});
  CHECK(resolve_device_list(parse_device_list("all"), 3) == std::vector<int>{0, 1, 2});
  CHECK(resolve_device_list(parse_device_list("2,0"), 3) == std::vector<int>{2, 0});
  CHECK(contains(error_of([] { parse_device_list("0,1,0"); }), "GPU 0 is given twice"));
  CHECK(contains(error_of([] { parse_device_list("0,-1"); }), "'-1' is not a GPU index"));
  CHECK(contains(error_of([] { parse_device_list("gpu0"); }), "'gpu0' is not a GPU index"));
  CHECK(contains(error_of([] { resolve_device_list(parse_device_list("0,4"), 2); }), "GPU 4 does not exist; this host has 2"));
}

TEST_CASE("a worker on a GPU of --devices gets --device and neither parent device option", "[devices]") {
  WorkerTask task;
  task.device = 3;
  const std::vector<std::string> args =
      worker_arguments("kbench", {"--op", "add", "--devices", "0,3", "--shard=2/4", "--device=0"}, task);
  CHECK(std::find(args.begin(), args.end(), "--devices") == args.end());
  CHECK(std::find(args.begin(), args.end(), "--device=0") == args.end());
  CHECK(std::find(args.begin(), args.end(), "--shard=2/4") != args.end());  // the worker plans the same shard
  const auto device = std::find(args.begin(), args.end(), "--device");
  REQUIRE(device != args.end());
  CHECK(*(device + 1) == "3");
}

TEST_CASE("the device pool runs each case on one GPU at a time, largest first, and hands on a dead worker's rest",
          "[devices]") {
  const Registry registry = all_ops();
  Selection selection;
  selection.ops = {"add"};
  selection.shapes = {{1000}, {2000}, {3000}, {4000}};
  const Plan plan = make_plan(registry, selection);
  const std::size_t per_case = planned_rows(plan.entries[0]).size();
  std::mutex lock;
  std::vector<std::size_t> busy(2, 0);
  std::vector<std::pair<std::size_t, std::size_t>> started;  // (case, first row)
  bool overlapped = false;
  const DeviceWorkerFn fake = [&](std::size_t case_index, std::size_t first_row, std::size_t slot) {
    {
      const std::lock_guard<std::mutex> held(lock);
      if (busy[slot]++ != 0) overlapped = true;  // two workers on one GPU
      started.emplace_back(case_index, first_row);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    std::vector<CaseResult> rows = planned_rows(plan.entries[case_index]);
    WorkerReport report;
    report.end = WorkerEnd::finished;
    for (std::size_t r = first_row; r < rows.size(); ++r) {
      if (case_index == 2 && r == 1) {  // this worker dies at row 1
        report.end = WorkerEnd::died;
        report.reason = "was killed by signal 11 (Segmentation fault)";
        break;
      }
      rows[r].status = CaseStatus::passed;
      report.rows.push_back(rows[r]);
    }
    const std::lock_guard<std::mutex> held(lock);
    --busy[slot];
    return report;
  };
  std::atomic<int> cases_done{0};
  const std::vector<std::size_t> order{3, 2, 1, 0};
  const RunOutcome outcome =
      run_plan_on_devices(plan, order, 2, fake, 60, [&](const std::vector<CaseResult>&) { ++cases_done; });
  CHECK_FALSE(overlapped);
  CHECK(cases_done == 4);
  REQUIRE(started.size() == 5);
  // The order given, largest first: cases 3 and 2 start on the two GPUs at once, so either may
  // record its start first.
  CHECK((started[0].first == 3 || started[1].first == 3));
  CHECK(std::count(started.begin(), started.end(), std::make_pair(std::size_t{2}, std::size_t{2})) == 1);  // the rest of case 2
  REQUIRE(outcome.rows.size() == 4 * per_case);
  for (std::size_t i = 0; i < outcome.rows.size(); ++i) {
    INFO(i << ": " << outcome.rows[i].message);
    const bool died_here = i == 2 * per_case + 1;
    CHECK(outcome.rows[i].status == (died_here ? CaseStatus::error : CaseStatus::passed));
    CHECK(outcome.rows[i].device < 2);
  }
  CHECK(contains(outcome.rows[2 * per_case + 1].message, "Segmentation fault"));
  CHECK(outcome.rows[0].shape == Shape{1000});  // plan order
  CHECK(contains(error_of([&] { run_plan_on_devices(plan, {0, 1, 2}, 2, fake, 60); }), "not a permutation"));
}

namespace {

/// The fixture run, given a plan identity, with only the rows of `keep` (by index).
RunResults shard_of_fixture(const RunResults& whole, const std::vector<std::size_t>& keep, std::size_t index,
                            std::size_t count) {
  RunResults part = whole;
  part.cases.clear();
  for (std::size_t i : keep) part.cases.push_back(whole.cases[i]);
  part.plan->shard_index = index;
  part.plan->shard_count = count;
  part.plan->shard_source = "--shard";
  return part;
}

RunResults fixture_with_plan() {
  RunResults run = read_results_file(fixture_path("run-pass.json"));
  PlanIdentity plan;
  plan.fingerprint = "fnv1a64:0123456789abcdef";
  for (const CaseResult& row : run.cases) {
    const std::string name = case_name(row.op, row.dtype, row.shape);
    if (std::find(plan.cases.begin(), plan.cases.end(), name) == plan.cases.end()) plan.cases.push_back(name);
  }
  run.plan = plan;
  return run;
}

/// Indices of the fixture's rows whose case is (or is not) among the first `n` cases.
std::vector<std::size_t> rows_of_cases(const RunResults& run, std::size_t from, std::size_t to) {
  std::vector<std::size_t> rows;
  for (std::size_t i = 0; i < run.cases.size(); ++i) {
    const std::string name = case_name(run.cases[i].op, run.cases[i].dtype, run.cases[i].shape);
    const auto at = static_cast<std::size_t>(std::find(run.plan->cases.begin(), run.plan->cases.end(), name) - run.plan->cases.begin());
    if (at >= from && at < to) rows.push_back(i);
  }
  return rows;
}

}  // namespace

TEST_CASE("merging shards gives the unsharded run's rows, in plan order, and lists missing cases", "[merge]") {
  const RunResults whole = fixture_with_plan();
  const std::size_t cases = whole.plan->cases.size();
  REQUIRE(cases >= 3);
  const RunResults second = shard_of_fixture(whole, rows_of_cases(whole, 1, cases), 1, 2);
  const RunResults first = shard_of_fixture(whole, rows_of_cases(whole, 0, 1), 0, 2);
  const MergedResults merged = merge_results({{"b.json", second}, {"a.json", first}});
  CHECK(merged.missing_cases.empty());
  REQUIRE(merged.results.cases.size() == whole.cases.size());
  for (std::size_t i = 0; i < whole.cases.size(); ++i) {
    CHECK(merged.results.cases[i].variant == whole.cases[i].variant);
    CHECK(merged.results.cases[i].shape == whole.cases[i].shape);
    CHECK(merged.results.cases[i].dtype == whole.cases[i].dtype);
  }
  CHECK(merged.results.devices.empty());  // one device
  CHECK(merged.results.plan->shard_count == 1);
  // Written and read back as any results file.
  const RunResults again = results_from_json(to_json(merged.results));
  CHECK(again.cases.size() == whole.cases.size());
  CHECK(again.plan->fingerprint == whole.plan->fingerprint);

  const MergedResults partial = merge_results({{"a.json", first}});
  CHECK(partial.missing_cases.size() == cases - 1);

  // Shards that drew their own seeds (no --seed): the merged file says so rather than claim one.
  const auto seed_note = [](const RunResults& run) {
    return std::count_if(run.notes.begin(), run.notes.end(),
                         [](const std::string& note) { return contains(note, "different seeds"); });
  };
  CHECK(seed_note(merged.results) == 0);
  RunResults reseeded = second;
  reseeded.seed = first.seed + 1;
  const MergedResults mixed = merge_results({{"a.json", first}, {"b.json", reseeded}});
  CHECK(seed_note(mixed.results) == 1);
  CHECK(mixed.results.seed == first.seed);
}

TEST_CASE("merge refuses overlapping shards, other plans, other builds and files without a plan", "[merge]") {
  const RunResults whole = fixture_with_plan();
  const std::size_t cases = whole.plan->cases.size();
  const RunResults a = shard_of_fixture(whole, rows_of_cases(whole, 0, 2), 0, 2);
  const RunResults b = shard_of_fixture(whole, rows_of_cases(whole, 1, cases), 1, 2);
  CHECK(contains(error_of([&] { merge_results({{"a.json", a}, {"b.json", b}}); }), "b.json: $.cases[0] ("));
  CHECK(contains(error_of([&] { merge_results({{"a.json", a}, {"b.json", b}}); }), "is also in a.json: the files overlap"));
  RunResults other_plan = b;
  other_plan.plan->fingerprint = "fnv1a64:ffffffffffffffff";
  CHECK(contains(error_of([&] { merge_results({{"a.json", a}, {"c.json", other_plan}}); }),
                 "c.json: $.plan.fingerprint is fnv1a64:ffffffffffffffff but a.json's is fnv1a64:0123456789abcdef"));
  RunResults other_build = b;
  other_build.build.git_commit = "feedfeedfeedfeedfeedfeedfeedfeedfeedfeed";
  CHECK(contains(error_of([&] { merge_results({{"a.json", a}, {"d.json", other_build}}); }), "expected every shard from the same kbench build"));
  RunResults no_plan = b;
  no_plan.plan.reset();
  CHECK(contains(error_of([&] { merge_results({{"a.json", a}, {"e.json", no_plan}}); }), "e.json: $.plan is missing"));
}

TEST_CASE("shards from different devices merge into one file whose rows keep their device", "[merge]") {
  const RunResults whole = fixture_with_plan();
  const std::size_t cases = whole.plan->cases.size();
  const RunResults a = shard_of_fixture(whole, rows_of_cases(whole, 0, 1), 0, 2);
  RunResults b = shard_of_fixture(whole, rows_of_cases(whole, 1, cases), 1, 2);
  b.device.name = "Other GPU";
  b.device.peak_bandwidth_bytes_per_s *= 2;
  const MergedResults merged = merge_results({{"a.json", a}, {"b.json", b}});
  REQUIRE(merged.results.devices.size() == 2);
  CHECK(merged.results.device.name == whole.device.name);
  const RunResults again = results_from_json(to_json(merged.results));
  REQUIRE(again.devices.size() == 2);
  CHECK(device_of(again, again.cases.front()).name == whole.device.name);
  CHECK(device_of(again, again.cases.back()).name == "Other GPU");
  // A row naming a device the file does not list is refused.
  nlohmann::json bad = to_json(merged.results);
  bad["cases"][0]["device"] = 5;
  CHECK(contains(error_of([&] { results_from_json(bad); }), "$.cases[0].device: found 5; expected an index into $.devices"));
}
