#include "compare_command.hpp"

#include "command_errors.hpp"

#include "harness/report/compare_report.hpp"
#include "harness/common/exit_codes.hpp"
#include "harness/results/results_json.hpp"

#include <cmath>
#include <iostream>

namespace kbench::cli {

void add_compare_command(CLI::App& parent, CompareCommand& command) {
  command.app = parent.add_subcommand(
      "compare", "compare two results files row by row: medians, %diff, noise, verdict SAME/FASTER/SLOWER/UNCERTAIN");
  command.app->add_option("old", command.old_results, "the earlier results file")->required();
  command.app->add_option("new", command.new_results, "the later results file")->required();
  command.app->add_option("--tolerance", command.tolerance_pct,
                          "changes within this percentage are SAME (default 2); beyond it but within both runs' "
                          "noise, UNCERTAIN");
}

int run_compare_command(const CompareCommand& command) {
  try {
    if (!(command.tolerance_pct >= 0) || !std::isfinite(command.tolerance_pct)) {
      throw std::invalid_argument("--tolerance must be a percentage >= 0");
    }
    const RunResults old_run = read_results_file(command.old_results);
    const RunResults new_run = read_results_file(command.new_results);
    const double tolerance = command.tolerance_pct / 100;
    print_comparison(std::cout, compare_runs(old_run, new_run, tolerance), tolerance);
    flush_standard_output();
    return exit_code::ok;
  } catch (const std::exception& e) {
    return fail("compare", e);
  }
}

}  // namespace kbench::cli
