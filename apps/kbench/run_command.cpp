#include "run_command.hpp"

#include "interrupt_guard.hpp"
#include "output_paths.hpp"
#include "source_paths.hpp"

#include "harness/report/breakdown_report.hpp"
#include "harness/report/wall_time_report.hpp"
#include "harness/report/counters_report.hpp"
#include "harness/device/build_info.hpp"
#include "harness/device/device_setup.hpp"
#include "harness/report/console_reporter.hpp"
#include "harness/common/exit_codes.hpp"
#include "harness/common/json_input.hpp"
#include "harness/common/printable_text.hpp"
#include "harness/results/results_json.hpp"
#include "harness/measure/session.hpp"
#include "harness/config/thresholds.hpp"
#include "harness/isolate/isolated_runner.hpp"
#include "harness/isolate/process_workers.hpp"
#include "harness/isolate/repeat_arguments.hpp"
#include "harness/isolate/worker_main.hpp"
#include "harness/device/device_list.hpp"
#include "harness/plan/case_cost.hpp"
#include "harness/plan/plan_fingerprint.hpp"
#include "harness/plan/plan_json.hpp"
#include "harness/plan/plan_text.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <random>

namespace kbench::cli {

namespace {

/// Prints the plan; with --json, also writes it as a plan document (results/PLAN_SCHEMA.md).
int dry_run(const PreparedRun& run, const Options& options, const std::string& command_line) {
  std::cout << plan_listing(run.plan);
  if (options.json_path.empty()) return exit_code::ok;
  PlanHeader header;
  header.build = build_info();
  header.command_line = command_line;
  if (!options.config_path.empty()) header.config = options.config_path;
  header.seed = options.seed;
  header.settings = run.settings;
  header.thresholds = run.thresholds.document;
  header.identity = run.identity;
  write_plan_file(run.plan, header, options.json_path);
  std::cout << "Plan written to " << printable(options.json_path) << '\n';
  return exit_code::ok;
}

/// A worker process of an isolated run: one case, from one row on; prints nothing, writes its
/// rows to the file the parent named (harness/isolate/worker_main.hpp).
int run_as_worker(const Plan& plan, const Options& options, const MeasureSettings& settings,
                  const std::string& command_line) {
  // A worker never outlives its parent (a parent killed outright cannot kill it), lest it hold
  // the GPU in a hung kernel with nobody watching.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() == 1) return exit_code::interrupted;
  std::string warning;
  WorkerRun run;
  run.plan = &plan;
  run.device = open_device(options.device, options.peaks, warning);
  run.settings = settings;
  run.extras.kernel_breakdown = !options.no_kernel_breakdown && !options.profile;
  run.extras.profile = options.profile;
  run.extras.profile_calls = options.profile_calls;
  run.command_line = command_line;
  const InterruptGuard interrupts;
  run.stop_requested = &interrupts.requested();
  WorkerTask task;
  task.case_index = *options.worker_case;
  task.first_row = options.worker_first_row;
  task.rows_path = options.worker_rows;
  task.heartbeat_path = options.worker_heartbeat;
  task.seed = options.seed.value_or(0);
  run_worker_task(run, task);
  // Everything the parent needs is on disk. A worker whose context a fault poisoned could block
  // in the CUDA runtime's teardown at exit, where no heartbeat watches it: skip the teardown.
  std::fflush(nullptr);
  std::_Exit(exit_code::ok);
}

int run_plan_on_device(const Plan& plan, const Options& options, const MeasureSettings& settings,
                       const Thresholds& thresholds, const std::string& command_line,
                       const std::vector<std::string>& args, const PlanIdentity& identity) {
  // --devices: every GPU of the list is checked and described before any work.
  std::vector<int> gpus;
  if (!options.devices.empty()) gpus = resolve_device_list(parse_device_list(options.devices), cuda_device_count());
  std::vector<DeviceInfo> described;
  for (const int gpu : gpus.empty() ? std::vector<int>{options.device} : gpus) {
    std::string warning;
    described.push_back(open_device(gpu, options.peaks, warning));
    print_device(std::cout, described.back());
    if (!warning.empty()) std::cout << "WARNING: " << warning << '\n';
    if (!gpus.empty()) release_device();  // its workers have it to themselves
  }
  const DeviceInfo device = described.front();
  print_build_warnings(std::cout);

  SessionOptions session;
  session.device = options.device;
  session.peaks = options.peaks;
  session.settings = settings;
  session.seed = options.seed ? *options.seed : std::random_device{}() * 0x100000001ull + std::random_device{}();
  session.command_line = command_line;
  session.band_policy = thresholds.policy();
  session.extras.kernel_breakdown = !options.no_kernel_breakdown && !options.profile;
  session.extras.profile = options.profile;
  session.extras.profile_calls = options.profile_calls;
  session.plan_identity = identity;

  std::size_t done = 0;
  const auto progress = [&](const std::vector<CaseResult>& rows) {
    ++done;
    const CaseResult& first = rows.front();
    std::cerr << fmt::format("[{}/{}] {} {} {} done\n", done, plan.entries.size(), first.op, first.dtype,
                             format_shape(first.shape));
  };
  // Keep every finished problem on disk as the run goes (temporary file, then rename).
  PartialResultsFn keep_on_disk;
  if (!options.json_path.empty()) {
    keep_on_disk = [&](const RunResults& so_far) { write_results_file(so_far, options.json_path); };
  }
  const InterruptGuard interrupts;
  session.stop_requested = &interrupts.requested();
  if (!gpus.empty()) {
    std::cout << fmt::format("Devices: each case runs in a worker process on one of {} GPU{} ({}), largest estimated "
                             "first; a call may take {:g} s (--kernel-timeout)\n",
                             gpus.size(), gpus.size() == 1 ? "" : "s", fmt::join(gpus, ", "), options.kernel_timeout_s);
    if (gpus.size() > 1) session.devices = described;
    ProcessWorkerOptions workers;
    workers.parent_args = args;
    workers.seed = session.seed;
    workers.timeout_s = options.kernel_timeout_s;
    workers.stop_requested = session.stop_requested;
    session.run_plan_with = [workers, gpus, &options, &session](const Plan& all, const ProblemDoneFn& each_problem) {
      return run_plan_on_devices(all, largest_first(all, session.settings), gpus.size(),
                                 device_process_workers(workers, gpus), options.kernel_timeout_s, each_problem,
                                 session.stop_requested);
    };
  } else if (isolation_wanted(options, plan)) {
    // The device was queried above, before any worker; from here on the parent runs no kernel
    // and holds no context.
    release_device();
    std::cout << fmt::format("Isolated: each case runs in a worker process; a call may take {:g} s (--kernel-timeout)\n",
                             options.kernel_timeout_s);
    ProcessWorkerOptions workers;
    // --repeat: the workers keep every sample for the parent to pool (harness/isolate/repeat_arguments.hpp).
    workers.parent_args = options.repeat > 1 ? repeat_worker_arguments(args) : args;
    workers.seed = session.seed;
    workers.timeout_s = options.kernel_timeout_s;
    workers.stop_requested = session.stop_requested;
    if (options.repeat > 1) {
      std::cout << fmt::format("Repeated: each case runs in {} worker processes in turn, their samples pooled (--repeat)\n",
                               options.repeat);
    }
    const RepeatOptions repeat{options.repeat, settings.keep_samples};
    // `workers` by value: the session runs the plan after this block has ended.
    session.run_plan_with = [workers, repeat, &options, &session](const Plan& all, const ProblemDoneFn& each_problem) {
      return run_plan_isolated(all, process_workers(workers), options.kernel_timeout_s, each_problem,
                               session.stop_requested, repeat);
    };
  }
  const RunResults results = run_session(plan, device, session, progress, keep_on_disk);
  print_results_table(std::cout, results);
  if (options.show_kernels) {
    print_kernel_breakdowns(std::cout, results);
    print_hardware_counters(std::cout, results);
    print_gpu_telemetry(std::cout, results);
  }
  print_wall_time(std::cout, results);
  std::cout << "Status bands from " << printable(thresholds.file) << '\n';
  for (const std::string& note : results.notes) std::cout << "NOTE: " << note << '\n';
  if (!options.json_path.empty()) {
    write_results_file(results, options.json_path);
    std::cout << "\nResults written to " << options.json_path << " (" << enum_name(results.run_state) << ")\n";
  }
  if (results.run_state == RunState::interrupted) {
    std::cerr << "kbench: interrupted: finished rows are kept" << (options.json_path.empty() ? "" : " in " + options.json_path)
              << "; the rest are SKIPPED\n";
    return exit_code::interrupted;
  }
  if (results.run_state == RunState::context_lost) std::cerr << "kbench: error: the CUDA context was lost; later cases were skipped\n";
  for (const CaseResult& row : results.cases) {
    if (row.status == CaseStatus::incorrect || row.status == CaseStatus::error) return exit_code::case_failed;
  }
  return results.run_state == RunState::context_lost ? exit_code::case_failed : exit_code::ok;
}

/// The names a thresholds file may use for this run: the registry's ops (plugins' included), and
/// kbench's size classes with the plan's own (a config's).
std::vector<std::string> threshold_op_names(const Registry& registry) {
  std::vector<std::string> names;
  for (const auto& op : registry.ops()) names.push_back(op->name());
  return names;
}
std::vector<std::string> threshold_size_classes_of(const Plan& plan) {
  std::vector<std::string> names = threshold_size_classes();
  const auto add = [&](const std::string& name) {
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  };
  for (const PlanEntry& entry : plan.entries) add(entry.problem.size_class);
  for (const SkippedEntry& skipped : plan.skipped) add(skipped.entry.problem.size_class);
  return names;
}

}  // namespace

void print_build_warnings(std::ostream& out) {
  const std::string warning = unoptimized_build_warning(build_info());
  if (!warning.empty()) out << "WARNING: " << warning << "\n";
}

PreparedRun prepare_run(const CLI::App& app, const Options& options, const Registry& registry) {
  check_options(app, options, /*running=*/true);
  PreparedRun run;
  const Selection selection = make_selection(app, options);
  run.settings = options.settings;
  if (!options.config_path.empty()) {
    const SweepConfig config = load_sweep_config(options.config_path);
    run.plan = make_config_plan(registry, config, selection);
    run.settings = merged_settings(app, options, config);
  } else {
    run.plan = make_plan(registry, selection);
  }
  if (const std::string problem = validate(run.settings); !problem.empty()) throw std::invalid_argument(problem);
  // The identity of the whole plan, then this run's shard of it (harness/plan/plan_shard.hpp).
  run.identity.fingerprint = plan_fingerprint(run.plan, run.settings);
  run.identity.cases = plan_case_names(run.plan);
  run.shard = options.shard.empty() ? shard_from_environment([](const char* name) { return std::getenv(name); })
                                    : std::optional<ShardChoice>(parse_shard(options.shard));
  if (run.shard) {
    run.identity.shard_index = run.shard->index;
    run.identity.shard_count = run.shard->count;
    run.identity.shard_source = run.shard->source;
  }
  if (run.shard) run.plan = select_shard(run.plan, run.settings, *run.shard);
  if (run.plan.row_count() > kMaxResultsRows) {  // kbench could not read its own results file
    throw std::invalid_argument("the plan has " + std::to_string(run.plan.row_count()) + " rows, more than the " +
                                std::to_string(kMaxResultsRows) + " a results file may hold: narrow it with --op, --size, "
                                "--dtype or --variant");
  }
  run.thresholds =
      load_thresholds(options.thresholds_path.empty() ? default_thresholds_path() : options.thresholds_path);
  check_threshold_names(run.thresholds, threshold_op_names(registry), threshold_size_classes_of(run.plan));
  if (!options.json_path.empty()) {
    try {
      refuse_overwrite(options.json_path, {options.config_path, run.thresholds.file});
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(std::string("--json: ") + e.what());
    }
    if (!options.force && std::ifstream(options.json_path).good()) {
      throw std::invalid_argument("--json: '" + options.json_path + "' exists; give --force to replace it");
    }
  }
  return run;
}

bool isolation_wanted(const Options& options, const Plan& plan) {
  if (!options.devices.empty()) return true;
  if (options.isolate || options.no_isolate) return options.isolate;
  if (options.repeat > 1) return true;  // (--no-isolate with --repeat is refused)
  for (const PlanEntry& entry : plan.entries) {
    const std::vector<VariantInfo> variants = entry.op->variants();
    for (std::size_t i : entry.variants)
      if (variants[i].source != kKbenchSource) return true;
  }
  return false;
}

int run_main_command(const CLI::App& app, const Options& options, const Registry& registry,
                     const std::string& command_line, const std::vector<std::string>& args) {
  const PreparedRun run = prepare_run(app, options, registry);
  if (options.worker_case) return run_as_worker(run.plan, options, run.settings, command_line);
  if (run.shard) {
    std::cout << fmt::format("Shard {} (from {}): {} of the plan's {} cases\n", shard_text(*run.shard),
                             printable(run.shard->source), run.plan.entries.size(), run.identity.cases.size());
  }
  if (options.dry_run) return dry_run(run, options, command_line);
  return run_plan_on_device(run.plan, options, run.settings, run.thresholds, command_line, args, run.identity);
}

}  // namespace kbench::cli
