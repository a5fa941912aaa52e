// kbench's command-line front end: parse, dispatch to the command, return its exit code. The
// commands live in their own files; no measurement or CUDA logic lives here.
#include "cli_options.hpp"
#include "compare_command.hpp"
#include "device_command.hpp"
#include "gate_command.hpp"
#include "list_command.hpp"
#include "report_command.hpp"
#include "run_command.hpp"

#include "harness/device/device_setup.hpp"
#include "harness/common/exit_codes.hpp"
#include "harness/common/input_error.hpp"
#include "harness/device/provenance.hpp"
#include "harness/ops/registry.hpp"

#include <iostream>

namespace {

int fail(int code, const std::string& message) {
  std::cerr << "kbench: error: " << message << '\n';
  return code;
}

}  // namespace

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
  cli::add_report_command(app, report);
  cli::add_gate_command(app, gate);
  cli::add_compare_command(app, compare);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return fail(exit_code::usage, std::string(e.what()) + " (see kbench --help)");
  }

  // Commands that read files only: no GPU, no registry.
  if (report.app->parsed()) return cli::run_report_command(report);
  if (gate.app->parsed()) return cli::run_gate_command(gate);
  if (compare.app->parsed()) return cli::run_compare_command(compare);

  if (const std::string problem = cli::check_options(app, options); !problem.empty()) {
    return fail(exit_code::usage, problem);
  }
  Registry registry;
  register_all_ops(registry);
  try {
    if (list->parsed()) return cli::list_command(registry);
    if (device->parsed()) return cli::device_command(options);
    return cli::run_main_command(app, options, registry, join_command_line(argc, argv));
  } catch (const NoDeviceError& e) {
    return fail(exit_code::no_device, e.what());
  } catch (const UnsupportedArchitectureError& e) {
    return fail(exit_code::unsupported_architecture, e.what());
  } catch (const InputError& e) {
    return fail(exit_code::usage, e.what());
  } catch (const std::exception& e) {
    return fail(exit_code::case_failed, e.what());
  }
}
