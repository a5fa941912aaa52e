#include "report_command.hpp"

#include "command_errors.hpp"
#include "output_paths.hpp"
#include "source_paths.hpp"

#include "harness/report/csv_report.hpp"
#include "harness/report/device_comparison_report.hpp"
#include "harness/common/exit_codes.hpp"
#include "harness/common/file_output.hpp"
#include "harness/common/printable_text.hpp"
#include "harness/report/markdown_report.hpp"
#include "harness/report/report_format.hpp"
#include "harness/results/results_json.hpp"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <sstream>

namespace kbench::cli {

void add_report_command(CLI::App& parent, ReportCommand& command) {
  command.app = parent.add_subcommand(
      "report", "write the Markdown status report (seed-report structure) and/or a CSV of a results file (no GPU needed)");
  command.app->add_option("results", command.results, "results file written by kbench --json")->required();
  command.app->add_option("other-devices", command.other_devices,
                          "more results files, e.g. the same sweep on other GPUs: a cross-device report of the same "
                          "cases side by side, each against its own device's roof, with the speed ratio to the first "
                          "(Markdown; not with --against or --csv)");
  CLI::Option* against =
      command.app->add_option("--against", command.against,
                              "another results file in the same schema (e.g. a PyTorch run) added as a comparison column");
  command.app->add_option("--against-label", command.against_label, "heading of that column (default: its file name)")
      ->needs(against);
  command.app->add_option("--md", command.markdown_path, "write the Markdown report to FILE (default: stdout)");
  command.app->add_option("--csv", command.csv_path, "write every figure as CSV to FILE");
  command.app->add_option("--thresholds", command.thresholds,
                          "thresholds file (default: " + default_thresholds_path() + ")");
}

namespace {

/// PNG plots in a `plots` folder beside the Markdown report (where scripts/plot_results.py
/// writes them in the results folders), as links relative to the report: roofline first.
std::vector<std::string> plots_beside(const std::string& markdown_path) {
  namespace fs = std::filesystem;
  const fs::path folder = fs::path(markdown_path).parent_path() / "plots";
  std::vector<std::string> plots;
  std::error_code error;
  if (!fs::is_directory(folder, error)) return plots;
  for (const fs::directory_entry& entry : fs::directory_iterator(folder, error)) {
    if (entry.path().extension() == ".png") plots.push_back("plots/" + entry.path().filename().string());
  }
  std::sort(plots.begin(), plots.end(), [](const std::string& a, const std::string& b) {
    const bool a_roof = a.find("/roofline") != std::string::npos, b_roof = b.find("/roofline") != std::string::npos;
    return a_roof != b_roof ? a_roof : a < b;
  });
  return plots;
}

}  // namespace

/// `kbench report A.json B.json ...`: harness/report/device_comparison_report.hpp.
int run_device_comparison(const ReportCommand& command) {
  if (!command.against.empty() || !command.csv_path.empty()) {
    throw std::invalid_argument("a report of several results files (" + std::to_string(1 + command.other_devices.size()) +
                                " given) compares devices, in Markdown: it takes neither --against nor --csv");
  }
  std::vector<std::string> files{command.results};
  files.insert(files.end(), command.other_devices.begin(), command.other_devices.end());
  if (!command.markdown_path.empty()) refuse_overwrite(command.markdown_path, files);
  std::vector<RunResults> loaded;
  for (const std::string& file : files) loaded.push_back(read_results_file(file));
  std::vector<const RunResults*> pointers;
  for (const RunResults& r : loaded) pointers.push_back(&r);
  const std::vector<std::string> labels = device_labels(pointers, files);
  std::vector<DeviceRun> runs;
  for (std::size_t i = 0; i < loaded.size(); ++i) runs.push_back({labels[i], &loaded[i]});
  std::ostringstream markdown;
  write_device_comparison(markdown, runs);
  if (command.markdown_path.empty()) {
    std::cout << markdown.str();
  } else {
    write_file_atomically(command.markdown_path, markdown.str());
    std::cerr << "Markdown report written to " << printable(command.markdown_path) << '\n';
  }
  flush_standard_output();
  return exit_code::ok;
}

int run_report_command(const ReportCommand& command) {
  try {
    if (!command.other_devices.empty()) return run_device_comparison(command);
    const std::vector<std::string> inputs{command.results, command.against, command.thresholds};
    if (!command.markdown_path.empty()) refuse_overwrite(command.markdown_path, inputs);
    if (!command.csv_path.empty()) refuse_overwrite(command.csv_path, inputs);
    if (!command.markdown_path.empty() && !command.csv_path.empty() && same_file(command.markdown_path, command.csv_path)) {
      throw std::invalid_argument("--md and --csv name the same file '" + command.csv_path + "'");
    }
    const RunResults results = read_results_file(command.results);
    const Thresholds thresholds = load_thresholds(command.thresholds.empty() ? default_thresholds_path() : command.thresholds);
    RunResults against;
    ReportInput input{&results, &thresholds, base_name(command.results), nullptr, {}};
    if (!command.against.empty()) {
      against = read_results_file(command.against);
      input.against = &against;
      input.against_label = command.against_label.empty() ? std::filesystem::path(command.against).stem().string()
                                                          : command.against_label;
    }
    check_threshold_names(thresholds, command.registered_ops,
                          std::vector<const RunResults*>{&results, command.against.empty() ? nullptr : &against});
    if (!command.markdown_path.empty()) input.plots = plots_beside(command.markdown_path);
    if (!command.markdown_path.empty() || command.csv_path.empty()) {
      std::ostringstream markdown;
      write_markdown_report(markdown, input);
      if (command.markdown_path.empty()) {
        std::cout << markdown.str();
      } else {
        write_file_atomically(command.markdown_path, markdown.str());
        std::cerr << "Markdown report written to " << printable(command.markdown_path) << '\n';
      }
    }
    if (!command.csv_path.empty()) {
      std::ostringstream csv;
      write_csv_report(csv, input);
      write_file_atomically(command.csv_path, csv.str());
      std::cerr << "CSV written to " << printable(command.csv_path) << '\n';
    }
    flush_standard_output();
    return exit_code::ok;
  } catch (const std::exception& e) {
    return fail("report", e);
  }
}

}  // namespace kbench::cli
