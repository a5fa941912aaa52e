// kbench's command-line front end: parse, build a plan, call the harness, pick reporters,
// return an exit code. No measurement or CUDA logic lives here.
#include "cli_options.hpp"

#include "harness/build_info.hpp"
#include "harness/console_reporter.hpp"
#include "harness/device_setup.hpp"
#include "harness/exit_codes.hpp"
#include "harness/provenance.hpp"
#include "harness/registry.hpp"
#include "harness/results_json.hpp"
#include "harness/session.hpp"
#include "harness/size_classes.hpp"

#include <fmt/format.h>

#include <iostream>
#include <random>

namespace {

using namespace kbench;

int fail(int code, const std::string& message) {
  std::cerr << "kbench: error: " << message << '\n';
  return code;
}

void print_build_warnings(std::ostream& out) {
  const std::string warning = unoptimized_build_warning(build_info());
  if (!warning.empty()) out << "WARNING: " << warning << "\n";
}

int list_command(const Registry& registry) {
  std::cout << "Ops:\n";
  for (const auto& op : registry.ops()) {
    std::string dtypes;
    for (DType d : op->dtypes()) dtypes += (dtypes.empty() ? "" : ", ") + std::string(dtype_name(d));
    std::cout << fmt::format("  {}: {} [dtypes: {}]\n", op->name(), op->summary(), dtypes);
    for (const VariantInfo& v : op->variants())
      std::cout << fmt::format("    {:<16} {:<9} {}\n", v.name, role_name(v.role), v.description);
    std::cout << fmt::format("    {:<16} {:<9} {}\n", "d2d_copy", "roof", "cudaMemcpyAsync moving the same bytes");
  }
  std::cout << "Size classes:\n";
  for (const SizeClass& size_class : size_classes()) {
    std::string shapes;
    for (const Shape& s : size_class.shapes) shapes += (shapes.empty() ? "" : ", ") + format_shape(s);
    std::cout << fmt::format("  {:<7} {} ({})\n", size_class.name, shapes, size_class.description);
  }
  std::cout << "Dtypes: fp32, fp16, bf16\n";
  return exit_code::ok;
}

int device_command(const cli::Options& options) {
  std::string warning;
  const DeviceInfo device = open_device(options.device, options.peaks, warning);
  print_device(std::cout, device);
  if (!warning.empty()) std::cout << "WARNING: " << warning << '\n';
  print_build_warnings(std::cout);
  return exit_code::ok;
}

int dry_run(const Plan& plan) {
  for (const PlanEntry& entry : plan.entries) {
    const auto variants = entry.op->variants();
    std::string names;
    for (std::size_t i : entry.variants) names += (names.empty() ? "" : ", ") + variants[i].name;
    if (entry.copy_roof) names += (names.empty() ? "" : ", ") + std::string("d2d_copy");
    std::cout << fmt::format("{} {} {} ({}): {}\n", entry.op->name(), dtype_name(entry.problem.dtype),
                             format_shape(entry.problem.shape), entry.problem.size_class, names);
  }
  std::cout << fmt::format("{} problems, {} rows\n", plan.entries.size(), plan.row_count());
  return exit_code::ok;
}

int run_command(const Plan& plan, const cli::Options& options, const std::string& command_line) {
  std::string warning;
  const DeviceInfo device = open_device(options.device, options.peaks, warning);
  print_device(std::cout, device);
  if (!warning.empty()) std::cout << "WARNING: " << warning << '\n';
  print_build_warnings(std::cout);

  SessionOptions session;
  session.device = options.device;
  session.peaks = options.peaks;
  session.settings = options.settings;
  session.seed = options.seed ? *options.seed : std::random_device{}() * 0x100000001ull + std::random_device{}();
  session.command_line = command_line;

  std::size_t done = 0;
  const auto progress = [&](const std::vector<CaseResult>& rows) {
    ++done;
    const CaseResult& first = rows.front();
    std::cerr << fmt::format("[{}/{}] {} {} {} done\n", done, plan.entries.size(), first.op, first.dtype,
                             format_shape(first.shape));
  };
  bool context_lost = false;
  const RunResults results = run_session(plan, device, session, progress, context_lost);
  print_results_table(std::cout, results);
  if (!options.json_path.empty()) {
    write_results_file(results, options.json_path);
    std::cout << "\nResults written to " << options.json_path << '\n';
  }
  if (context_lost) std::cerr << "kbench: error: the CUDA context was lost; later cases were skipped\n";
  for (const CaseResult& row : results.cases) {
    if (row.status == CaseStatus::incorrect || row.status == CaseStatus::error) return exit_code::case_failed;
  }
  return context_lost ? exit_code::case_failed : exit_code::ok;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"kbench"};
  cli::Options options;
  CLI::App* device = nullptr;
  CLI::App* list = nullptr;
  cli::configure(app, options, device, list);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return fail(exit_code::usage, std::string(e.what()) + " (see kbench --help)");
  }

  Registry registry;
  register_all_ops(registry);
  try {
    if (list->parsed()) return list_command(registry);
    if (device->parsed()) return device_command(options);

    if (const std::string problem = validate(options.settings); !problem.empty()) return fail(exit_code::usage, problem);
    if (options.ops.empty()) return fail(exit_code::usage, "nothing to run: give --op (e.g. --op add) or a subcommand; see kbench --help");
    Plan plan;
    try {
      plan = make_plan(registry, cli::make_selection(options));
    } catch (const std::invalid_argument& e) {
      return fail(exit_code::usage, e.what());
    }
    if (options.dry_run) return dry_run(plan);
    return run_command(plan, options, join_command_line(argc, argv));
  } catch (const NoDeviceError& e) {
    return fail(exit_code::no_device, e.what());
  } catch (const UnsupportedArchitectureError& e) {
    return fail(exit_code::unsupported_architecture, e.what());
  } catch (const std::exception& e) {
    return fail(exit_code::case_failed, e.what());
  }
}
