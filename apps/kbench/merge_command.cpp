#include "merge_command.hpp"

#include "command_errors.hpp"
#include "output_paths.hpp"

#include "harness/common/exit_codes.hpp"
#include "harness/common/printable_text.hpp"
#include "harness/results/merge_results.hpp"
#include "harness/results/results_json.hpp"

#include <fmt/format.h>

#include <fstream>
#include <iostream>

namespace kbench::cli {

void add_merge_command(CLI::App& parent, MergeCommand& command) {
  command.app = parent.add_subcommand(
      "merge", "join the --json files of one sweep's shards (--shard, Slurm or Kubernetes jobs) into one results file that "
               "report, compare and gate read (no GPU needed)");
  command.app->add_option("results", command.inputs,
                          "the shards' results files: the same plan (config, selection, settings) and kbench commit, "
                          "no row in two of them")
      ->required()
      ->expected(2, -1);
  command.app->add_option("--json", command.json_path, "write the merged results file here")->required();
  command.app->add_flag("--force", command.force, "let --json replace an existing file");
}

int run_merge_command(const MergeCommand& command) {
  try {
    refuse_overwrite(command.json_path, command.inputs);
    if (!command.force && std::ifstream(command.json_path).good()) {
      throw std::invalid_argument("--json: '" + command.json_path + "' exists; give --force to replace it");
    }
    std::vector<NamedResults> inputs;
    for (const std::string& path : command.inputs) inputs.push_back({path, read_results_file(path)});
    const MergedResults merged = merge_results(inputs);
    const RunResults& out = merged.results;
    write_results_file(out, command.json_path);
    const std::size_t cases = out.plan ? out.plan->cases.size() : 0;
    std::cout << fmt::format("Merged {} files: {} rows of {} of the plan's {} cases, on {} device{}, run_state {}\n",
                             inputs.size(), out.cases.size(), cases - merged.missing_cases.size(), cases,
                             std::max<std::size_t>(1, out.devices.size()), out.devices.size() > 1 ? "s" : "",
                             enum_name(out.run_state));
    std::cout << "Results written to " << printable(command.json_path) << '\n';
    flush_standard_output();
    if (merged.missing_cases.empty()) return exit_code::ok;
    std::cerr << fmt::format("kbench merge: {} case{} of the plan {} in no file (a shard not run or not given?):\n",
                             merged.missing_cases.size(), merged.missing_cases.size() == 1 ? "" : "s",
                             merged.missing_cases.size() == 1 ? "is" : "are");
    for (const std::string& name : merged.missing_cases) std::cerr << "  missing: " << printable(name) << '\n';
    return exit_code::case_failed;
  } catch (const std::exception& e) {
    return fail("merge", e);
  }
}

}  // namespace kbench::cli
