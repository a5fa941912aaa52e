#include "cli_options.hpp"

#include "source_paths.hpp"

#include "harness/common/split_list.hpp"
#include "harness/config/size_classes.hpp"
#include "harness/device/device_list.hpp"
#include "harness/isolate/worker_command_line.hpp"
#include "harness/plan/plan_shard.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <type_traits>
#include <sstream>

namespace kbench::cli {

namespace {

std::string size_help() {
  std::ostringstream text;
  text << "size classes, comma-separated (default: large; with --config, filters the config's categories):";
  for (const SizeClass& size_class : size_classes()) {
    text << "\n  " << size_class.name << ": ";
    for (std::size_t i = 0; i < size_class.shapes.size(); ++i) text << (i ? ", " : "") << format_shape(size_class.shapes[i]);
  }
  text << "\n  all: every class";
  return text.str();
}

/// A decimal integer from `min` to the type's largest, read from the text itself: CLI11 reads
/// "-1" into an unsigned option as 2^64 - 1, and a 64-bit value that overflows
/// (99999999999999999999) as the largest one, silently.
template <typename Int>
CLI::Validator whole_number(Int min) {
  return CLI::Validator(
      [min](std::string& text) -> std::string {
        Int value{};
        const char* const end = text.data() + text.size();
        const auto [last, error] = std::from_chars(text.data(), end, value);
        if (!text.empty() && text.front() != '-' && error == std::errc() && last == end && value >= min) return {};
        return "found " + text + "; expected an integer from " + std::to_string(min) + " to " +
               std::to_string(std::numeric_limits<Int>::max());
      },
      std::is_same_v<Int, int> ? "" : std::is_signed_v<Int> ? "INT64" : "UINT64");
}

/// A decimal number (CLI11's own message for "abc" or "1e999" names no expectation); the
/// settings' checks then apply each option's range.
CLI::Validator decimal_number() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        char* end = nullptr;
        errno = 0;
        std::strtod(text.c_str(), &end);
        if (!text.empty() && end == text.c_str() + text.size() && errno != ERANGE) return {};
        return "found " + text + "; expected a decimal number";
      },
      "");
}

}  // namespace

void check_option_values(const CLI::App& app) {
  static const std::vector<std::string> lists{"--op", "--size", "--shape", "--dtype", "--variant", "--modes"};
  for (const CLI::Option* option : app.get_options()) {
    if (option->count() == 0 || option->get_type_size_max() == 0) continue;  // not given, or a flag
    const std::string name = option->get_name();
    const bool list = std::find(lists.begin(), lists.end(), name) != lists.end();
    for (const std::string& value : option->results()) {
      if (value.find_first_not_of(" \t") == std::string::npos) {
        throw std::invalid_argument(name + " is empty; expected " + (list ? "a comma-separated list" : "a value"));
      }
      if (list && split_list(value).empty()) {
        throw std::invalid_argument(name + " is '" + value + "', a list of nothing; expected one or more comma-separated names");
      }
      if (list && has_empty_item(value)) {
        throw std::invalid_argument(name + " is '" + value +
                                    "', with an empty item (two commas in a row, or one at an end); expected names "
                                    "separated by single commas");
      }
    }
  }
  for (const CLI::App* command : app.get_subcommands()) check_option_values(*command);
}

void check_options(const CLI::App& app, const Options& options, bool running) {
  const auto refuse = [](const std::string& message) { throw std::invalid_argument(message); };
  if (options.device < 0) refuse(fmt::format("--device is {}; expected a CUDA device index >= 0", options.device));
  const auto positive = [&](const char* name, double value, const char* unit) {
    if (app.count(name) > 0 && !(value > 0 && std::isfinite(value))) {
      refuse(fmt::format("{} is {:g}; expected a finite number > 0 ({})", name, value, unit));
    }
  };
  positive("--peak-bw", options.peaks.bandwidth_gbps, "GB/s");
  positive("--peak-tflops", options.peaks.fp32_tflops, "TFLOP/s");
  if (options.max_cases < 1) refuse(fmt::format("--max-cases is {}; expected an integer >= 1", options.max_cases));
  if (!(options.kernel_timeout_s > 0 && std::isfinite(options.kernel_timeout_s))) {
    refuse(fmt::format("--kernel-timeout is {:g}; expected a finite number of seconds > 0", options.kernel_timeout_s));
  }
  if (!running) return;
  if (options.isolate && options.no_isolate) refuse("--isolate and --no-isolate exclude each other");
  if (!options.shard.empty()) parse_shard(options.shard);
  if (!options.devices.empty()) {
    parse_device_list(options.devices);
    if (app.count("--device") > 0) refuse("--devices and --device exclude each other: list the GPUs in --devices");
    if (options.no_isolate) refuse("--devices runs each case in a worker process on its GPU; it excludes --no-isolate");
    if (options.profile) refuse("--devices cannot be combined with --profile: profile one GPU with --device");
  }
  if (options.worker_case && (options.worker_rows.empty() || options.worker_heartbeat.empty())) {
    refuse(std::string(kWorkerCaseOption) + " needs " + kWorkerRowsOption + " and " + kWorkerHeartbeatOption +
           " (worker options are set by an isolated run, not by hand)");
  }
  if (options.force && options.json_path.empty()) refuse("--force requires --json");
  if (!options.shapes.empty() && app.count("--size") > 0) {
    refuse("--shape replaces --size: give one (--size picks size classes, --shape exact shapes)");
  }
  if (!options.config_path.empty() && !options.shapes.empty()) {
    refuse("--shape cannot be combined with --config: put the shapes in the config, or filter it with --size");
  }
  if (options.config_path.empty() && options.ops.empty()) {
    refuse("nothing to run: give --op (e.g. --op add), --config FILE or a subcommand; see kbench --help");
  }
  if (options.profile && !options.json_path.empty()) {
    refuse("--profile cannot be combined with --json: a profile run times nothing");
  }
  if (options.repeat < 1 || options.repeat > 100) {
    refuse(fmt::format("--repeat is {}; expected a number of processes from 1 to 100", options.repeat));
  }
  if (options.repeat > 1 && options.no_isolate) refuse("--repeat runs each case in worker processes; it excludes --no-isolate");
  if (options.repeat > 1 && options.profile) refuse("--repeat pools timed samples; --profile times nothing");
  if (options.repeat > 1 && !options.devices.empty()) {
    refuse("--repeat and --devices cannot be combined yet: repeat a sweep on one GPU (--device)");
  }
  if (options.profile_calls != 1 && !options.profile) {
    refuse("--profile-calls " + std::to_string(options.profile_calls) +
           " needs --profile: it sets how many calls each profiled launch makes");
  }
}

void configure(CLI::App& app, Options& options, CLI::App*& device_command, CLI::App*& list_command) {
  app.description(
      "kbench: GPU kernel benchmarks that check correctness first, time with CUDA events on cold L2,\n"
      "and report bandwidth against the device's theoretical peak.\n"
      "Run:  kbench --op add --size large [--dtype all] [--json results.json]\n"
      "      kbench --config configs/add.json [--size small] [--dry-run [--json plan.json]]\n"
      "Then: kbench report results.json --md report.md;  kbench gate results.json;  kbench compare old.json new.json");
  app.footer(
      "Units: times in the table are medians of per-call CUDA-event times (µs or ms); GB/s is 1e9 bytes/s of\n"
      "the op's minimum traffic (inputs read once + outputs written once, in the case's dtype); efficiency is\n"
      "that over the theoretical peak 2 x memory clock x bus width / 8; speed ratio = baseline time / this time.\n"
      "Exit codes: 0 ok, 1 a case was INCORRECT or ERROR (gate: a threshold missed or a regression),\n"
      "2 bad usage, config or input file, 3 no CUDA device, 4 GPU architecture not compiled in,\n"
      "5 an output (results file, report, standard output) could not be written.");

  app.add_option("--config", options.config_path,
                 "sweep config (configs/*.json, see configs/README.md); --op, --size, --dtype and --variant then "
                 "filter its cases")
      ->group("Selection");
  app.add_option("--op", options.ops, "ops to run, comma-separated, or 'all' (see `kbench list`)")->group("Selection");
  app.add_option("--size", options.sizes, size_help())->group("Selection");
  app.add_option("--shape", options.shapes,
                 "explicit shapes such as 4096x4096 or 32x512x512 (repeatable; replaces --size)")
      ->group("Selection");
  app.add_option("--dtype", options.dtypes, "element types: fp32, fp16, bf16, or all (default: fp32)")->group("Selection");
  app.add_option("--variant", options.variants,
                 "kbench variants to run, comma-separated (default: all); the baseline and the d2d copy roof "
                 "run too unless --no-references. An op's variant named auto picks its kernel and launch shape per "
                 "problem from a documented heuristic; where a case has one, reports and the gate judge it instead "
                 "of the best own variant")
      ->group("Selection");
  app.add_flag("--no-references", options.no_references, "skip the baseline and the d2d copy roof rows")->group("Selection");
  app.add_flag("--dry-run", options.dry_run,
               "print the cases and their count, touch no GPU; with --json, write the plan there instead of "
               "results (schema: results/PLAN_SCHEMA.md)")
      ->group("Selection");
  app.add_option("--max-cases", options.max_cases,
                 "refuse to plan more than this many cases (op x shape x dtype), a guard against a selection or "
                 "config far larger than meant (default: " + std::to_string(kDefaultMaxCases) + ")")
      ->check(whole_number<std::int64_t>(1))
      ->group("Selection");

  app.add_option("--plugin", options.plugins,
                 "a plugin (a shared library built with kbench/plugin.hpp) whose ops and variants join kbench's own "
                 "(repeatable; also the colon-separated KBENCH_PLUGIN_PATH); its rows name it as their source")
      ->group("Selection");
  app.add_option("--kernel-file", options.kernel_files,
                 "a .cu file declaring variants or ops with KBENCH_PLUGIN (kbench/plugin.hpp): compiled with nvcc "
                 "into a per-user cache (~/.cache/kbench/kernels) and loaded as a plugin (repeatable)")
      ->group("Selection");
  app.add_option("--device", options.device, "CUDA device index (default: 0)")->group("Device");
  app.add_option("--peak-bw", options.peaks.bandwidth_gbps,
                 "override the theoretical peak bandwidth, GB/s (default: from device attributes)")
      ->group("Device");
  app.add_option("--peak-tflops", options.peaks.fp32_tflops,
                 "override the peak FP32 rate, TFLOP/s (default: SMs x clock x FP32 lanes x 2)")
      ->group("Device");

  for (const MeasureSettingRow& row : measure_settings_table()) {
    std::visit(
        [&](auto member) {
          std::ostringstream help;
          if (row.flag) {
            help << row.description << " [flag; config setting \"" << row.key << "\": " << row.unit << ", default "
                 << options.settings.*member << "]";
          } else {
            help << row.description << " [" << row.unit << ", default " << options.settings.*member << "]";
          }
          if constexpr (std::is_same_v<std::decay_t<decltype(options.settings.*member)>, int>) {
            if (row.flag) {
              app.add_flag(option_name(row.key), options.settings.*member, help.str())->group("Measurement");
              return;
            }
          }
          CLI::Option* option = app.add_option(option_name(row.key), options.settings.*member, help.str());
          option->group("Measurement");
          using Value = std::decay_t<decltype(options.settings.*member)>;
          if constexpr (std::is_same_v<Value, int>) option->check(whole_number<int>(0));
          if constexpr (std::is_same_v<Value, double>) option->check(decimal_number());
        },
        row.field);
  }
  app.add_option("--seed", options.seed, "seed of the random inputs (default: a fresh one per run, recorded in the JSON)")
      ->check(whole_number<std::uint64_t>(0))
      ->group("Measurement");
  app.add_flag("--force", options.force, "let --json replace an existing results (or, with --dry-run, plan) file")->group("Output");
  app.add_option("--json", options.json_path,
                                     "write the results document (schema: results/SCHEMA.md) to this file, rewritten "
                                     "after every problem so that an interrupted run keeps what it finished; refuses "
                                     "an existing file without --force; with --dry-run, the plan document instead "
                                     "(results/PLAN_SCHEMA.md)")
                          ->group("Output");
  app.add_option("--thresholds", options.thresholds_path,
                 "efficiency thresholds that set each row's status (default: " + default_thresholds_path() + ")")
      ->group("Output");

  app.add_flag("--kernels", options.show_kernels,
               "print what one call of each row launches (CUPTI: kernel names, grid x block, GPU time per call) "
               "under the table")
      ->group("Profiling");
  app.add_flag("--no-kernel-breakdown", options.no_kernel_breakdown,
               "skip the short CUPTI pass that follows each row's timed samples (default: traced; 3 calls)")
      ->group("Profiling");
  app.add_flag("--profile", options.profile,
               "for running under ncu or nsys: verify each row, then launch it once inside an NVTX range "
               "'profile' (no warm-up, L2 flush or repetition); nothing is timed, rows show as skipped; "
               "cannot be combined with --json")
      ->group("Profiling");
  app.add_option("--profile-calls", options.profile_calls,
                 "with --profile: calls per profiled launch; N > 1 captures N back-to-back calls in a CUDA graph "
                 "(hot mode's method) and replays it once in the 'profile' range, so that "
                 "`ncu --graph-profiling graph` times hot mode's steady state (graph time / N per call)")
      ->check(CLI::Range(1, 100000))
      ->default_val(1)
      ->group("Profiling");
  app.add_flag("--isolate", options.isolate,
               "run each case (op x shape x dtype) in a worker process, this binary run again, so that a kernel "
               "that faults or hangs makes its own row ERROR and the sweep goes on in a fresh process "
               "(default: on when a selected variant comes from a plugin or kernel file, else off)")
      ->group("Isolation");
  app.add_option("--repeat", options.repeat,
                 "measure each case in N fresh worker processes, one after another, and pool their samples, so that "
                 "per-process effects (allocation alignment, context state) show as variance; implies --isolate; "
                 "each timing records how many processes it pools [processes, default 1, at most 100]")
      ->group("Isolation");
  app.add_flag("--no-isolate", options.no_isolate,
               "run every case in this process, even plugin and kernel-file variants (a faulting kernel then "
               "loses the CUDA context and the rest of the run is skipped)")
      ->group("Isolation");
  app.add_option("--kernel-timeout", options.kernel_timeout_s,
                 "isolated runs: seconds one call (a verification call, a warm-up call or a timed sample) may take; "
                 "a call that takes longer is ERROR \"timed out\" and its worker is killed (SIGKILL) [s, default " +
                     fmt::format("{:g}", kDefaultKernelTimeoutS) + "]")
      ->group("Isolation");
  app.add_option("--shard", options.shard,
                 "run shard I of N of the plan (1-based, e.g. 2/4): a deterministic split by case (op x shape x dtype), "
                 "balanced by the cases' byte and FLOP models; join the shards' --json files with `kbench merge`. "
                 "Default: from a Slurm array job (SLURM_ARRAY_TASK_ID, _MIN, _COUNT or _MAX) or a Kubernetes indexed "
                 "Job (JOB_COMPLETION_INDEX with KBENCH_SHARD_COUNT), else the whole plan; --shard 1/1 runs the whole "
                 "plan whatever the environment says")
      ->group("Many GPUs and machines");
  app.add_option("--devices", options.devices,
                 "spread the cases over these GPUs: 'all' or CUDA indices such as 0,2,3; one worker process per GPU at "
                 "a time (each with its own context), largest estimated case first; one results file whose rows say "
                 "their GPU, each judged against its own GPU's peaks (implies --isolate; excludes --device)")
      ->group("Many GPUs and machines");
  // Hidden (empty group): what an isolated run's parent gives each worker process.
  app.add_option(kWorkerCaseOption, options.worker_case)->group("");
  app.add_option(kWorkerFirstRowOption, options.worker_first_row)->group("");
  app.add_option(kWorkerRowsOption, options.worker_rows)->group("");
  app.add_option(kWorkerHeartbeatOption, options.worker_heartbeat)->group("");
  device_command = app.add_subcommand("device", "print the GPU's attributes and the peaks kbench derives from them");
  list_command = app.add_subcommand("list", "list ops, variants, dtypes, size classes and configs (no GPU needed)");
  app.require_subcommand(0, 1);
}

Selection make_selection(const CLI::App& app, const Options& options) {
  Selection selection;
  selection.ops = split_list(options.ops);
  if (selection.ops.size() == 1 && selection.ops[0] == "all") selection.ops.clear();
  if (app.count("--size") > 0) selection.size_classes = split_list(options.sizes);
  for (const std::string& text : options.shapes) {
    for (const std::string& item : split_list(text)) {
      const Shape shape = parse_shape(item);
      // As a config refuses a case planned twice (harness/plan/config_plan.cpp).
      if (std::find(selection.shapes.begin(), selection.shapes.end(), shape) != selection.shapes.end()) {
        throw std::invalid_argument("--shape " + format_shape(shape) + " is given twice; expected each shape once");
      }
      selection.shapes.push_back(shape);
    }
  }
  if (app.count("--dtype") > 0) selection.dtypes = split_list(options.dtypes);
  selection.variants = split_list(options.variants);
  selection.with_references = !options.no_references;
  selection.max_cases = static_cast<std::size_t>(options.max_cases);
  return selection;
}

MeasureSettings merged_settings(const CLI::App& app, const Options& options, const SweepConfig& config) {
  MeasureSettings settings = config.settings;
  for (const MeasureSettingRow& row : measure_settings_table()) {
    if (app.count(option_name(row.key)) == 0) continue;
    std::visit([&](auto member) { settings.*member = options.settings.*member; }, row.field);
  }
  return settings;
}

}  // namespace kbench::cli
