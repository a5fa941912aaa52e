// kbench's command-line front end: parse, dispatch to the command, return its exit code. The
// commands live in their own files; no measurement or CUDA logic lives here.
#include "cli_options.hpp"
#include "command_errors.hpp"
#include "compare_command.hpp"
#include "device_command.hpp"
#include "gate_command.hpp"
#include "kernel_files.hpp"
#include "list_command.hpp"
#include "merge_command.hpp"
#include "report_command.hpp"
#include "run_command.hpp"

#include "harness/common/exit_codes.hpp"
#include "harness/device/provenance.hpp"
#include "harness/ops/plugin_loader.hpp"
#include "harness/ops/registry.hpp"

#include <cstdlib>

#include <iostream>

int main(int argc, char** argv) {
  using namespace kbench;
  CLI::App app{"kbench"};
  cli::Options options;
  CLI::App* device = nullptr;
  CLI::App* list = nullptr;
  cli::configure(app, options, device, list);
  cli::ReportCommand report;
  cli::GateCommand gate;
  cli::CompareCommand compare;
  cli::MergeCommand merge;
  cli::add_report_command(app, report);
  cli::add_gate_command(app, gate);
  cli::add_compare_command(app, compare);
  cli::add_merge_command(app, merge);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return cli::fail("", exit_code::usage, cli::plain_parse_message(e.what()) + " (see kbench --help)");
  }
  try {
    cli::check_option_values(app);
  } catch (const std::exception& e) {
    return cli::fail("", e);
  }

  // Commands that read files only: no GPU; the registry only names kbench's ops, which a
  // thresholds file may name.
  const auto registered_ops = [] {
    Registry registry;
    register_all_ops(registry);
    std::vector<std::string> names;
    for (const auto& op : registry.ops()) names.push_back(op->name());
    return names;
  };
  try {
    if (report.app->parsed()) report.registered_ops = registered_ops();
    if (gate.app->parsed()) gate.registered_ops = registered_ops();
  } catch (const std::exception& e) {
    return cli::fail("", e);
  }
  if (report.app->parsed()) return cli::run_report_command(report);
  if (gate.app->parsed()) return cli::run_gate_command(gate);
  if (compare.app->parsed()) return cli::run_compare_command(compare);
  if (merge.app->parsed()) return cli::run_merge_command(merge);

  try {
    // The main command checks its options in prepare_run (run_command.hpp), with the rest of a run.
    if (list->parsed() || device->parsed()) cli::check_options(app, options, /*running=*/false);
    Registry registry;
    register_all_ops(registry);
    for (const std::string& path : plugin_paths(options.plugins, std::getenv("KBENCH_PLUGIN_PATH"))) {
      load_plugin(path, registry);
    }
    for (const std::string& path : options.kernel_files) cli::load_kernel_file(path, options.device, registry);
    int code = exit_code::ok;
    if (list->parsed()) {
      code = cli::list_command(registry);
    } else if (device->parsed()) {
      code = cli::device_command(options);
    } else {
      code = cli::run_main_command(app, options, registry, join_command_line(argc, argv),
                                   std::vector<std::string>(argv + 1, argv + argc));
    }
    cli::flush_standard_output();
    return code;
  } catch (const std::exception& e) {
    return cli::fail("", e);
  }
}
