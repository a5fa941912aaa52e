#include "harness/report/device_comparison_report.hpp"

#include "harness/common/printable_text.hpp"
#include "harness/report/report_format.hpp"
#include "harness/report/text_table.hpp"
#include "harness/results/result_queries.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <tuple>

namespace kbench {

namespace {

using RowKey = std::tuple<std::string, std::string, std::string, Shape>;  // op, variant, dtype, shape

RowKey key_of(const CaseResult& row) { return {row.op, row.variant, row.dtype, row.shape}; }

std::string device_text(const RunResults& r) {
  std::string text = fmt::format("{}, {:.0f} GB/s", r.device.name, r.device.peak_bandwidth_bytes_per_s / 1e9);
  if (r.devices.size() > 1) text += fmt::format(" (rows over {} GPUs, each against its own)", r.devices.size());
  return text;
}

}  // namespace

std::vector<std::string> device_labels(const std::vector<const RunResults*>& runs, const std::vector<std::string>& files) {
  std::vector<std::string> labels;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const std::string& name = runs[i]->device.name;
    const bool shared = std::count_if(runs.begin(), runs.end(), [&](const RunResults* r) { return r->device.name == name; }) > 1;
    labels.push_back(shared ? name + " [" + std::filesystem::path(files[i]).filename().string() + "]" : name);
  }
  return labels;
}

void write_device_comparison(std::ostream& out, const std::vector<DeviceRun>& runs) {
  out << "# kbench across devices\n\n";
  std::vector<TableRow> environment;
  for (const DeviceRun& run : runs) {
    const RunResults& r = *run.results;
    environment.push_back({table_cell(printable(run.label)), table_cell(printable(device_text(r))),
                           table_cell(printable(r.build.version + " " + r.build.git_commit.substr(0, 12))),
                           table_cell(printable(r.utc_time)), table_cell("`" + printable(r.command_line) + "`")});
  }
  print_pipe_table(out, {"Run", "Device, theoretical bandwidth", "kbench", "Date", "Command"}, environment);
  out << "\nEach row is judged against its own device: efficiency is the case's floor (bytes at that device's peak "
         "bandwidth, or FLOPs at its peak FLOP/s) over the median, % of roof its bandwidth over that device's d2d copy. "
         "Speed = the first run's median / this run's: above 1.00x is faster than on "
      << printable(runs.front().label) << ".\n";

  // Rows of every run, in order of first appearance; per run, its row of each key.
  std::vector<RowKey> keys;
  std::vector<std::map<RowKey, const CaseResult*>> by_run(runs.size());
  for (std::size_t i = 0; i < runs.size(); ++i) {
    for (const CaseResult& row : runs[i].results->cases) {
      if (row.role == VariantRole::roof) continue;
      const RowKey key = key_of(row);
      if (by_run[i].emplace(key, &row).second && std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(key);
    }
  }
  std::vector<std::string> ops;
  for (const RowKey& key : keys) {
    if (std::find(ops.begin(), ops.end(), std::get<0>(key)) == ops.end()) ops.push_back(std::get<0>(key));
  }
  TableRow header{"Shape", "Dtype", "Variant"};
  for (const DeviceRun& run : runs) {
    const std::string label = printable(run.label);
    header.insert(header.end(), {label + " time", label + " efficiency", label + " % of roof"});
  }
  for (std::size_t i = 1; i < runs.size(); ++i) header.push_back("Speed " + printable(runs[i].label));
  for (const std::string& op : ops) {
    std::vector<TableRow> rows;
    for (const RowKey& key : keys) {
      if (std::get<0>(key) != op) continue;
      TableRow cells{format_shape(std::get<3>(key)), printable(std::get<2>(key)), printable(std::get<1>(key))};
      std::vector<double> medians;
      for (std::size_t i = 0; i < runs.size(); ++i) {
        const auto found = by_run[i].find(key);
        const CaseResult* row = found == by_run[i].end() ? nullptr : found->second;
        const double median = row ? headline_ms(*row) : 0;
        medians.push_back(median);
        cells.push_back(median > 0 ? format_ms(median) : row ? std::string(status_name(row->status)) : "-");
        cells.push_back(median > 0 ? format_percent(row->efficiency) : "-");
        cells.push_back(median > 0 && row->roof_fraction ? format_percent(*row->roof_fraction) : "-");
      }
      for (std::size_t i = 1; i < runs.size(); ++i) {
        cells.push_back(medians[0] > 0 && medians[i] > 0 ? format_ratio(medians[0] / medians[i]) : "-");
      }
      rows.push_back(cells);
    }
    out << "\n## " << printable(op) << "\n\n";
    print_pipe_table(out, header, rows);
  }
}

}  // namespace kbench
