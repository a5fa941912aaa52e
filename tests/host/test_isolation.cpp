// Isolated runs without a GPU (harness/isolate/): the worker's command line, folding a worker's
// rows into its case, the time-out policy, the heartbeat file, and supervising a real child
// process (a shell standing in for the worker).
#include "harness/isolate/child_process.hpp"
#include "harness/isolate/isolated_runner.hpp"
#include "harness/isolate/process_workers.hpp"
#include "harness/isolate/repeat_arguments.hpp"
#include "harness/isolate/shared_heartbeat.hpp"
#include "harness/isolate/timeout_policy.hpp"
#include "harness/isolate/worker_command_line.hpp"
#include "harness/isolate/worker_main.hpp"
#include "harness/isolate/worker_report.hpp"
#include "harness/plan/plan.hpp"
#include "harness/results/results_json.hpp"
#include "support/catch.hpp"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

using namespace kbench;

namespace {

/// The message `f` throws, or "no error".
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "no error";
}

Plan add_plan(const Registry& registry, std::vector<Shape> shapes) {
  Selection selection;
  selection.ops = {"add"};
  selection.shapes = std::move(shapes);
  return make_plan(registry, selection);
}

Registry all_ops() {
  Registry registry;
  register_all_ops(registry);
  return registry;
}

CaseResult finished_row(const std::string& variant, CaseStatus status, const std::string& message) {
  CaseResult row;
  row.variant = variant;
  row.status = status;
  row.message = message;
  return row;
}

std::vector<CaseResult> unrun_rows(std::size_t count) {
  std::vector<CaseResult> rows(count);
  for (std::size_t i = 0; i < count; ++i) rows[i].variant = "v" + std::to_string(i);
  return rows;
}

}  // namespace

TEST_CASE("a worker gets the parent's options less its own, then its seed and case", "[isolate]") {
  WorkerTask task;
  task.case_index = 3;
  task.first_row = 2;
  task.rows_path = "/tmp/x/rows.json";
  task.heartbeat_path = "/tmp/x/beat";
  task.seed = 42;
  const std::vector<std::string> parent{"--plugin", "libfaults.so", "--op", "add", "--json", "out.json", "--force",
                                        "--seed=7", "--isolate", "--kernel-timeout", "5", "--json=b.json",
                                        "--seed", "9", "--config", "c.json"};
  const std::vector<std::string> expected{"/bin/kbench", "--plugin", "libfaults.so", "--op", "add",
                                          "--kernel-timeout", "5", "--config", "c.json",
                                          "--seed", "42", "--worker-case", "3", "--worker-first-row", "2",
                                          "--worker-rows", "/tmp/x/rows.json", "--worker-heartbeat", "/tmp/x/beat"};
  CHECK(worker_arguments("/bin/kbench", parent, task) == expected);
  CHECK(worker_arguments("k", {"--no-isolate"}, task).size() == 1 + 10);
}

TEST_CASE("a worker of --repeat keeps every sample: the parent's --keep-samples and --repeat are dropped", "[isolate]") {
  const std::vector<std::string> args =
      repeat_worker_arguments({"--op", "add", "--repeat", "3", "--keep-samples", "0", "--keep-samples=2", "--repeat=4", "--json", "x"});
  const std::vector<std::string> expected{"--op", "add", "--json", "x", "--keep-samples", "1"};
  CHECK(args == expected);
}

TEST_CASE("--repeat runs each case in N workers in turn and pools their rows", "[isolate]") {
  const Registry registry = all_ops();
  const Plan plan = add_plan(registry, {{1000}});
  int workers = 0;
  const RunWorkerFn fake = [&](std::size_t case_index, std::size_t first_row) {
    ++workers;
    WorkerReport report;
    report.end = WorkerEnd::finished;
    std::vector<CaseResult> rows = planned_rows(plan.entries[case_index]);
    for (std::size_t r = first_row; r < rows.size(); ++r) {
      rows[r].status = CaseStatus::passed;
      ModeTiming t;
      t.samples_ms = {static_cast<double>(workers), static_cast<double>(workers)};
      t.stats.count = 2;
      rows[r].timings = {t};
      report.rows.push_back(rows[r]);
    }
    return report;
  };
  const RunOutcome outcome = run_plan_isolated(plan, fake, 60, {}, nullptr, RepeatOptions{3, 2});
  CHECK(workers == 3);
  REQUIRE_FALSE(outcome.rows.empty());
  for (const CaseResult& row : outcome.rows) {
    REQUIRE(row.timings.size() == 1);
    CHECK(row.timings[0].processes == 3);
    CHECK(row.timings[0].samples_ms == std::vector<double>{1, 1, 2, 2, 3, 3});
  }
}

TEST_CASE("a worker's case starts at its first row; the roof row stays", "[isolate]") {
  const Registry registry = all_ops();
  const Plan plan = add_plan(registry, {{1000}, {2000}});
  const PlanEntry& whole = plan.entries[1];
  const std::size_t rows = planned_rows(whole).size();
  REQUIRE(rows >= 2);
  const PlanEntry from_second = entry_from_row(plan, 1, 1);
  CHECK(from_second.variants.size() + 1 == whole.variants.size());
  CHECK(from_second.copy_roof == whole.copy_roof);
  CHECK(planned_rows(from_second).size() == rows - 1);
  CHECK(planned_rows(from_second).front().variant == planned_rows(whole)[1].variant);
  CHECK(contains(error_of([&] { entry_from_row(plan, 2, 0); }), "--worker-case 2: the plan has 2 cases"));
  CHECK(contains(error_of([&] { entry_from_row(plan, 0, rows); }), "--worker-first-row"));
}

TEST_CASE("a finished worker's rows fill the case", "[isolate]") {
  std::vector<CaseResult> rows = unrun_rows(3);
  WorkerReport report;
  report.end = WorkerEnd::finished;
  report.rows = {finished_row("v1", CaseStatus::passed, "ok"), finished_row("v2", CaseStatus::incorrect, "wrong")};
  CHECK(merge_worker_report(rows, 1, report, 60) == 3);
  CHECK(rows[0].status == CaseStatus::skipped);  // not this worker's
  CHECK(rows[1].status == CaseStatus::passed);
  CHECK(rows[2].status == CaseStatus::incorrect);
}

TEST_CASE("a worker row that is not the planned row is refused: that row is ERROR", "[isolate]") {
  std::vector<CaseResult> rows = unrun_rows(3);
  WorkerReport report;
  report.end = WorkerEnd::finished;
  report.rows = {finished_row("v0", CaseStatus::passed, "ok"), finished_row("other", CaseStatus::passed, "ok")};
  CHECK(merge_worker_report(rows, 0, report, 60) == 2);
  CHECK(rows[0].status == CaseStatus::passed);
  CHECK(rows[1].status == CaseStatus::error);
  CHECK(contains(rows[1].message, "reported 'other' for this row"));
  CHECK(rows[2].status == CaseStatus::skipped);
}

TEST_CASE("the row in flight when a worker died or timed out is ERROR; the next worker starts after it",
          "[isolate]") {
  std::vector<CaseResult> rows = unrun_rows(4);
  WorkerReport died;
  died.end = WorkerEnd::died;
  died.reason = worker_death_reason(-1, SIGSEGV, "noise\nkbench: error: cudaErrorIllegalAddress (boom)\nmore noise\n");
  died.rows = {finished_row("v0", CaseStatus::passed, "ok")};
  CHECK(merge_worker_report(rows, 0, died, 60) == 2);
  CHECK(rows[0].status == CaseStatus::passed);
  CHECK(rows[1].status == CaseStatus::error);
  CHECK(contains(rows[1].message, "worker process was killed by signal 11"));
  CHECK(contains(rows[1].message, "kbench: error: cudaErrorIllegalAddress (boom)"));

  WorkerReport hung;
  hung.end = WorkerEnd::timed_out;
  CHECK(merge_worker_report(rows, 2, hung, 2.5) == 3);
  CHECK(rows[2].status == CaseStatus::error);
  CHECK(contains(rows[2].message, "timed out after 2.5 s"));
  CHECK(rows[3].status == CaseStatus::skipped);
}

TEST_CASE("a worker that lost its context reported the faulting row; without one, the next row is ERROR",
          "[isolate]") {
  std::vector<CaseResult> rows = unrun_rows(3);
  WorkerReport lost;
  lost.end = WorkerEnd::context_lost;
  lost.rows = {finished_row("v0", CaseStatus::error, "cudaErrorIllegalAddress")};
  CHECK(merge_worker_report(rows, 0, lost, 60) == 1);
  CHECK(rows[0].message == "cudaErrorIllegalAddress");
  CHECK(rows[1].status == CaseStatus::skipped);

  WorkerReport nothing;
  nothing.end = WorkerEnd::context_lost;
  nothing.reason = "cudaErrorLaunchFailure";
  CHECK(merge_worker_report(rows, 1, nothing, 60) == 2);
  CHECK(rows[1].status == CaseStatus::error);
  CHECK(contains(rows[1].message, "cudaErrorLaunchFailure"));

  WorkerReport interrupted;
  interrupted.end = WorkerEnd::interrupted;
  CHECK(merge_worker_report(rows, 2, interrupted, 60) == 2);
  CHECK(rows[2].status == CaseStatus::skipped);
}

TEST_CASE("an isolated run goes on after each worker that ended early, case by case", "[isolate]") {
  const Registry registry = all_ops();
  const Plan plan = add_plan(registry, {{1000}, {2000}});
  const std::size_t per_case = planned_rows(plan.entries[0]).size();
  REQUIRE(per_case >= 3);
  std::vector<std::pair<std::size_t, std::size_t>> started;
  // Case 0: row 1 hangs. Case 1: every row passes in one worker.
  const RunWorkerFn fake = [&](std::size_t case_index, std::size_t first_row) {
    started.emplace_back(case_index, first_row);
    std::vector<CaseResult> rows = planned_rows(plan.entries[case_index]);
    WorkerReport report;
    report.end = WorkerEnd::finished;
    for (std::size_t r = first_row; r < rows.size(); ++r) {
      if (case_index == 0 && r == 1) {
        report.end = WorkerEnd::timed_out;
        break;
      }
      rows[r].status = CaseStatus::passed;
      report.rows.push_back(rows[r]);
    }
    report.notes = {"a note"};
    return report;
  };
  int problems_done = 0;
  const RunOutcome outcome = run_plan_isolated(plan, fake, 7, [&](const std::vector<CaseResult>&) { ++problems_done; });
  CHECK(started == std::vector<std::pair<std::size_t, std::size_t>>{{0, 0}, {0, 2}, {1, 0}});
  REQUIRE(outcome.rows.size() == 2 * per_case);
  for (std::size_t i = 0; i < outcome.rows.size(); ++i) {
    INFO(i << " " << outcome.rows[i].variant << ": " << outcome.rows[i].message);
    CHECK(outcome.rows[i].status == (i == 1 ? CaseStatus::error : CaseStatus::passed));
  }
  CHECK(contains(outcome.rows[1].message, "timed out after 7 s"));
  CHECK(outcome.notes == std::vector<std::string>{"a note"});
  CHECK(problems_done == 2);
  CHECK_FALSE(outcome.context_lost);
  CHECK_FALSE(outcome.interrupted);
}

TEST_CASE("an interrupted isolated run skips the rows not yet run", "[isolate]") {
  const Registry registry = all_ops();
  const Plan plan = add_plan(registry, {{1000}, {2000}});
  std::atomic<bool> stop{false};
  const RunWorkerFn fake = [&](std::size_t case_index, std::size_t first_row) {
    stop = true;  // as if SIGINT came while the first worker ran
    WorkerReport report;
    report.end = WorkerEnd::interrupted;
    CaseResult row = planned_rows(plan.entries[case_index])[first_row];
    row.status = CaseStatus::passed;
    report.rows = {row};
    return report;
  };
  const RunOutcome outcome = run_plan_isolated(plan, fake, 60, {}, &stop);
  CHECK(outcome.interrupted);
  CHECK(outcome.rows.front().status == CaseStatus::passed);
  for (std::size_t i = 1; i < outcome.rows.size(); ++i) {
    CHECK(outcome.rows[i].status == CaseStatus::skipped);
    CHECK(contains(outcome.rows[i].message, "interrupted"));
  }
}

TEST_CASE("calls are overdue only when in flight longer than the timeout each", "[isolate]") {
  const std::int64_t s = 1000000000;
  CHECK_FALSE(calls_overdue(100 * s, 10 * s, 0, 5));   // nothing in flight: host work has no limit
  CHECK_FALSE(calls_overdue(100 * s, 0, 3, 5));        // not started
  CHECK_FALSE(calls_overdue(14 * s, 10 * s, 1, 5));
  CHECK(calls_overdue(16 * s, 10 * s, 1, 5));
  CHECK_FALSE(calls_overdue(19 * s, 10 * s, 2, 5));    // two calls: 5 s each
  CHECK(calls_overdue(21 * s, 10 * s, 2, 5));
  CHECK(timed_out_message(60) == "timed out after 60 s (--kernel-timeout): a call ran longer, so its worker "
                                 "process was killed");
}

TEST_CASE("the heartbeat file is shared: what the worker publishes the parent reads", "[isolate]") {
  const std::string path = "kbench-test-heartbeat-" + std::to_string(::getpid());
  {
    const SharedHeartbeat parent = SharedHeartbeat::create(path);
    const SharedHeartbeat worker = SharedHeartbeat::open(path);
    CHECK(parent.slot()->since_ns.load() == 0);
    const Heartbeat beat(worker.slot());
    beat.calls_enqueued(32);
    CHECK(parent.slot()->pending_calls.load() == 32);
    const std::int64_t since = parent.slot()->since_ns.load();
    CHECK(since > 0);
    beat.calls_enqueued(1);  // more calls behind those: the clock keeps running from the first
    CHECK(parent.slot()->since_ns.load() == since);
    beat.calls_completed();
    CHECK(parent.slot()->pending_calls.load() == 0);
    Heartbeat().calls_enqueued(5);  // no slot: a run that is not isolated
  }
  std::remove(path.c_str());
  CHECK(contains(error_of([] { SharedHeartbeat::open("/no-such-dir/beat"); }), "heartbeat file '/no-such-dir/beat'"));
}

TEST_CASE("a child is run to its end with its standard error captured", "[isolate]") {
  const ChildEnd end = run_child({"/bin/sh", "-c", "echo out; echo 'kbench: error: bad' >&2; exit 3"}, {}, nullptr);
  CHECK(end.exit_code == 3);
  CHECK(end.signal == 0);
  CHECK_FALSE(end.timed_out);
  CHECK(end.stderr_text == "kbench: error: bad\n");
  CHECK(last_error_line(end.stderr_text) == "kbench: error: bad");
  CHECK(contains(error_of([] { run_child({"/no/such/program"}, {}, nullptr); }), "/no/such/program"));
}

TEST_CASE("a child that is overdue is killed with SIGKILL", "[isolate]") {
  const std::int64_t start = monotonic_ns();
  // The shell ignores SIGTERM; only SIGKILL ends it early.
  const ChildEnd end = run_child({"/bin/sh", "-c", "trap '' TERM; sleep 30"},
                                 [&] { return calls_overdue(monotonic_ns(), start, 1, 0.2); }, nullptr);
  CHECK(end.timed_out);
  CHECK(end.signal == SIGKILL);
  CHECK(end.exit_code == -1);
  CHECK((monotonic_ns() - start) * 1e-9 < 10);
}

namespace {

/// A stand-in for the kbench binary as a worker: a Python script that, for the first row it is
/// given, copies a prepared rows file, fails saying why, or hangs in a "call".
constexpr const char* kFakeWorker = R"(import os, shutil, struct, sys, time
args = sys.argv[1:]
value = lambda name: args[args.index(name) + 1]
first, rows, beat = value("--worker-first-row"), value("--worker-rows"), value("--worker-heartbeat")
prepared = os.path.join(os.path.dirname(sys.argv[0]), "from-" + first + ".json")
if first == "0":
    shutil.copy(prepared, rows)
    print("kbench: error: boom", file=sys.stderr)
    sys.exit(1)
if first == "2":
    with open(beat, "r+b") as f:
        f.write(struct.pack("qq", time.monotonic_ns(), 1))  # one call in flight from now
    time.sleep(30)
shutil.copy(prepared, rows)
)";

void write_text(const std::string& path, const std::string& text) {
  std::FILE* file = std::fopen(path.c_str(), "w");
  REQUIRE(file != nullptr);
  std::fputs(text.c_str(), file);
  std::fclose(file);
}

}  // namespace

TEST_CASE("worker processes: rows read back, a death and a hang each cost one row", "[isolate]") {
  if (std::system("python3 -c pass") != 0) {
    WARN("no python3: the fake worker cannot run");
    return;
  }
  const Registry registry = all_ops();
  const Plan plan = add_plan(registry, {{1000}});
  const std::vector<CaseResult> planned = planned_rows(plan.entries[0]);
  REQUIRE(planned.size() >= 4);
  const std::string folder = "kbench-test-workers-" + std::to_string(::getpid());
  REQUIRE(std::system(("mkdir -p " + folder).c_str()) == 0);
  const auto prepare = [&](std::size_t first, std::size_t end, RunState state) {
    RunResults doc;
    doc.run_state = state;
    doc.notes = {"from the worker"};
    for (std::size_t r = first; r < end; ++r) {
      CaseResult row = planned[r];
      row.status = CaseStatus::passed;
      row.message = "ok " + std::to_string(r);
      doc.cases.push_back(row);
    }
    write_results_file(doc, folder + "/from-" + std::to_string(first) + ".json");
  };
  prepare(0, 1, RunState::in_progress);  // then it dies
  prepare(3, planned.size(), RunState::complete);
  write_text(folder + "/worker.py", kFakeWorker);
  write_text(folder + "/worker.sh", "#!/bin/sh\nexec python3 \"$(dirname \"$0\")/worker.py\" \"$@\"\n");
  REQUIRE(std::system(("chmod +x " + folder + "/worker.sh").c_str()) == 0);

  ProcessWorkerOptions options;
  options.program = folder + "/worker.sh";
  options.parent_args = {"--op", "add", "--json", "parent.json"};
  options.seed = 5;
  options.timeout_s = 0.5;
  const RunOutcome outcome = run_plan_isolated(plan, process_workers(options), options.timeout_s);
  REQUIRE(outcome.rows.size() == planned.size());
  CHECK(outcome.rows[0].message == "ok 0");
  CHECK(outcome.rows[1].status == CaseStatus::error);
  CHECK(outcome.rows[1].message == "its worker process exited with code 1 before finishing: kbench: error: boom");
  CHECK(outcome.rows[2].status == CaseStatus::error);
  CHECK(contains(outcome.rows[2].message, "timed out after 0.5 s"));
  for (std::size_t r = 3; r < planned.size(); ++r) CHECK(outcome.rows[r].message == "ok " + std::to_string(r));
  CHECK(outcome.notes == std::vector<std::string>{"from the worker"});
  std::system(("rm -rf " + folder).c_str());
}
