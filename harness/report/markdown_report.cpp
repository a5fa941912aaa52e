#include "harness/common/printable_text.hpp"
#include "harness/report/markdown_report.hpp"

#include "harness/report/breakdown_report.hpp"
#include "harness/report/first_call_report.hpp"
#include "harness/report/counters_report.hpp"

#include "harness/config/measure_settings.hpp"
#include "harness/judge/primary_issue.hpp"
#include "harness/report/report_format.hpp"
#include "harness/results/result_queries.hpp"
#include "harness/report/text_table.hpp"

#include <fmt/format.h>

#include <filesystem>

#include <algorithm>

namespace kbench {

namespace {

/// Headline noise above this relative IQR is listed under Notes.
constexpr double kNoisy = 0.10;

void add_unique(std::vector<std::string>& list, const std::string& value) {
  if (std::find(list.begin(), list.end(), value) == list.end()) list.push_back(value);
}

std::vector<std::string> op_order(const RunResults& results) {
  std::vector<std::string> ops;
  for (const CaseResult& row : results.cases) add_unique(ops, row.op);
  return ops;
}

/// Size classes of `op`'s own rows, in order of first appearance.
std::vector<std::string> class_order(const RunResults& results, const std::string& op) {
  std::vector<std::string> classes;
  for (const CaseResult& row : results.cases)
    if (row.op == op && row.role == VariantRole::own) add_unique(classes, row.size_class);
  return classes;
}

/// The name of `op`'s baseline variant in these results, or "".
std::string baseline_name(const RunResults& results, const std::string& op) {
  for (const CaseResult& row : results.cases)
    if (row.op == op && row.role == VariantRole::baseline) return row.variant;
  return {};
}

/// What the summary's figures are taken over.
std::string headline_words(const RunResults& results) {
  return has_auto_rows(results) ? "the `auto` variant (where its op has one, else the best kbench variant)"
                                : "the best kbench variant";
}

/// "0.95-1.02x", "1.00x", or "-" for no values.
std::string ratio_range(std::vector<double> ratios) {
  if (ratios.empty()) return "-";
  const auto [low, high] = std::minmax_element(ratios.begin(), ratios.end());
  const std::string a = format_ratio(*low), b = format_ratio(*high);
  return a == b ? a : fmt::format("{:.2f}-{}", *low, b);
}

/// other's time / this row's time, when the against run has the case.
std::optional<double> against_ratio(const ReportInput& input, const CaseResult& row) {
  if (!input.against || headline_ms(row) <= 0) return std::nullopt;
  const CaseResult* other = against_row(*input.against, row);
  if (!other) return std::nullopt;
  return headline_ms(*other) / headline_ms(row);
}

std::string version_text(const BuildInfo& b) {
  const std::string commit = b.git_commit.size() > 12 ? b.git_commit.substr(0, 12) : b.git_commit;
  return fmt::format("{}, commit {}{}, {} build{}", b.version, commit, b.git_dirty == "true" ? " (modified)" : "",
                     b.build_type, b.optimized ? "" : " (NOT optimised)");
}

std::string measurement_text(const RunResults& results) {
  std::vector<std::string> modes;
  for (const CaseResult& row : results.cases)
    if (row.headline_mode) add_unique(modes, std::string(mode_name(*row.headline_mode)));
  std::string settings;
  for (const MeasureSettingRow& row : measure_settings_table()) {
    if (!listed_in_results(results.settings, row)) continue;
    const nlohmann::json value = setting_to_json(results.settings, row);
    settings += (settings.empty() ? "" : ", ") + row.key + "=" + (value.is_string() ? value.get<std::string>() : value.dump());
  }
  std::string mode_list;
  for (const std::string& mode : modes) mode_list += (mode_list.empty() ? "" : ", ") + mode;
  return fmt::format("headline mode {}; settings: {}", mode_list.empty() ? "-" : mode_list, settings);
}

/// "FP32 20 FLOP/B (67 TFLOP/s), TF32 tensor 160 FLOP/B (535 TFLOP/s), ...": where each unit's
/// compute ceiling meets the memory roof; cases of higher arithmetic intensity are compute bound.
std::string ridge_points_text(const DeviceInfo& d) {
  std::string text;
  for (const auto& [math, label] : {std::pair<const char*, const char*>{"fp32", "FP32"}, {"tf32_tensor", "TF32 tensor"},
                                    {"fp16_tensor", "FP16/BF16 tensor"}}) {
    const double ridge = ridge_point(d, math);
    if (ridge <= 0) continue;
    text += fmt::format("{}{} {:.0f} FLOP/B ({:.0f} TFLOP/s)", text.empty() ? "" : ", ", label, ridge,
                        peak_flops_for(d, math) / 1e12);
  }
  return text.empty() ? "unknown (no FLOP/s peaks for this architecture)" : text;
}

void write_environment(std::ostream& out, const ReportInput& input) {
  const RunResults& r = *input.results;
  const DeviceInfo& d = r.device;
  std::vector<TableRow> rows{
      {"Device", fmt::format("{} (sm_{}{}, {} SMs, ECC {})", d.name, d.cc_major, d.cc_minor, d.sm_count,
                             d.ecc_enabled ? "on" : "off")},
      {"Memory", fmt::format("{:.1f} GiB, {}-bit bus at {} MHz, L2 {:.1f} MiB", d.global_memory_bytes / 1073741824.0,
                             d.bus_width_bits, d.memory_clock_khz / 1000, d.l2_bytes / 1048576.0)},
      {"Theoretical bandwidth", fmt::format("{:.0f} GB/s ({})", d.peak_bandwidth_bytes_per_s / 1e9, d.peak_bandwidth_source)},
      {"Ridge points", ridge_points_text(d)},
      {"CUDA driver / runtime", fmt::format("{}.{} / {}.{}", d.driver_version / 1000, d.driver_version % 1000 / 10,
                                            d.runtime_version / 1000, d.runtime_version % 1000 / 10)},
      {"Date", r.utc_time},
      {"kbench", version_text(r.build)},
      {"Command", "`" + r.command_line + "`"},
      {"Run", r.run_state == RunState::complete
                  ? std::string(enum_name(r.run_state))
                  : "**" + std::string(enum_name(r.run_state)) + "**: rows not run are listed as skipped"},
      {"Host", r.host},
      {"Measurement", measurement_text(r)},
      {"Thresholds", "`" + base_name(input.thresholds->file) + "`"},
  };
  if (input.against) {
    rows.push_back({"Compared with", fmt::format("{}: {}, {}, `{}`", input.against_label, input.against->device.name,
                                                 input.against->utc_time, input.against->command_line)});
  }
  // Rows from several devices (--devices, merged shards) are each judged against their own peaks.
  for (std::size_t i = 0; i < r.devices.size(); ++i) {
    const DeviceInfo& each = r.devices[i];
    rows.insert(rows.begin() + 1 + static_cast<std::ptrdiff_t>(i),
                {fmt::format("Device {} of {}", i, r.devices.size()),
                 fmt::format("{} (GPU {}, {}, {:.0f} GB/s theoretical): rows marked [{}] are judged against its peaks", each.name,
                             each.index, each.pci_bus_id, each.peak_bandwidth_bytes_per_s / 1e9, i)});
  }
  for (TableRow& row : rows) row[1] = table_cell(row[1]);
  out << "## Test environment\n\n";
  print_pipe_table(out, {"", ""}, rows);
}

void write_summary(std::ostream& out, const ReportInput& input) {
  const RunResults& r = *input.results;
  const std::vector<const CaseResult*> best = headline_rows(r);
  out << "\n## Summary\n\n";
  if (best.empty()) {
    out << "- No kbench row was timed; every row is listed under \"Cases not timed\".\n";
  } else {
    double sum = 0;
    const CaseResult* top = best.front();
    const CaseResult* bottom = best.front();
    std::size_t counts[3] = {0, 0, 0};
    for (const CaseResult* row : best) {
      sum += row->efficiency;
      if (row->efficiency > top->efficiency) top = row;
      if (row->efficiency < bottom->efficiency) bottom = row;
      if (const auto band = input.thresholds->band_of(*row)) ++counts[static_cast<int>(*band)];
    }
    out << fmt::format("- **Mean efficiency: {}** of theoretical bandwidth, over {} of each of {} cases\n",
                       format_percent(sum / static_cast<double>(best.size())), headline_words(r), best.size());
    out << fmt::format("- **Best: {}**: {} ({})\n", format_percent(top->efficiency), row_label(*top), category_title(top->size_class));
    out << fmt::format("- **Worst: {}**: {} ({})\n", format_percent(bottom->efficiency), row_label(*bottom),
                       category_title(bottom->size_class));
    out << fmt::format("- Status of those cases: {} {}, {} {}, {} {}\n", counts[2], band_label(Band::good), counts[1],
                       band_label(Band::poor), counts[0], band_label(Band::critical));
  }
  std::size_t by_status[4] = {0, 0, 0, 0};
  for (const CaseResult& row : r.cases) ++by_status[static_cast<int>(row.status)];
  out << fmt::format("- Rows: {} ({} passed, {} incorrect, {} error, {} skipped); rows not timed are listed under "
                     "\"Cases not timed\"\n",
                     r.cases.size(), by_status[0], by_status[1], by_status[2], by_status[3]);
}

void write_categories(std::ostream& out, const ReportInput& input) {
  const RunResults& r = *input.results;
  const std::vector<const CaseResult*> best = headline_rows(r);
  TableRow header{"Op", "Category", "Elements", "Cases", "Avg efficiency", "Status", "Speed ratio vs baseline"};
  if (input.against) header.push_back("vs " + input.against_label);
  std::vector<TableRow> rows;
  for (const std::string& op : op_order(r)) {
    for (const std::string& size_class : class_order(r, op)) {
      std::int64_t low = 0, high = 0;
      std::vector<std::int64_t> cases;
      for (const CaseResult& row : r.cases) {
        if (row.op != op || row.role != VariantRole::own || row.size_class != size_class) continue;
        low = low ? std::min(low, row.elements) : row.elements;
        high = std::max(high, row.elements);
      }
      double sum = 0;
      std::vector<double> ratios, against;
      std::size_t timed = 0;
      for (const CaseResult* row : best) {
        if (row->op != op || row->size_class != size_class) continue;
        ++timed;
        sum += row->efficiency;
        if (row->speed_ratio) ratios.push_back(*row->speed_ratio);
        if (const auto ratio = against_ratio(input, *row)) against.push_back(*ratio);
      }
      const std::string elements = low == high ? format_count(static_cast<double>(low))
                                               : format_count(static_cast<double>(low)) + "-" + format_count(static_cast<double>(high));
      const double mean = timed ? sum / static_cast<double>(timed) : 0;
      TableRow row{op,
                   category_title(size_class),
                   elements,
                   std::to_string(timed),
                   timed ? format_percent(mean) : "-",
                   timed ? std::string(band_label(classify(mean, input.thresholds->lookup(op, size_class).band()))) : "not timed",
                   ratio_range(ratios)};
      if (input.against) row.push_back(ratio_range(against));
      rows.push_back(row);
    }
  }
  out << "\n## By size category\n\n";
  out << (has_auto_rows(r) ? "The `auto` variant of each case where its op has one, otherwise the best kbench variant"
                           : "Best kbench variant of each case")
      << "; the status is that of the average efficiency.\n\n";
  print_pipe_table(out, header, rows);
}

void write_op(std::ostream& out, const ReportInput& input, const std::string& op) {
  const RunResults& r = *input.results;
  const std::string baseline = baseline_name(r, op);
  const std::vector<const CaseResult*> best = best_own_rows(r);
  TableRow header{"Shape", "Size", "Dtype", "Variant",
                  baseline.empty() ? "Baseline" : "Baseline (" + baseline + ")",
                  "kbench", "Speed ratio", "Efficiency", "% of roof", "Status", "Primary issue"};
  if (input.against) {
    header.push_back(input.against_label);
    header.push_back("vs " + input.against_label);
  }
  std::vector<TableRow> rows;
  for (const CaseResult& row : r.cases) {
    if (row.op != op || row.role != VariantRole::own) continue;
    const bool timed = headline_ms(row) > 0;
    const bool is_best = std::find(best.begin(), best.end(), &row) != best.end();
    TableRow cells{format_shape(row.shape),
                   format_count(static_cast<double>(row.elements)),
                   row.dtype,
                   row.variant + (is_best ? " ★" : "") + (is_auto(row) ? " ◆" : "") +
                       (r.devices.empty() ? "" : fmt::format(" [{}]", row.device)),
                   row.baseline_ms ? format_ms(*row.baseline_ms) : "-",
                   format_ms(headline_ms(row)),
                   row.speed_ratio ? format_ratio(*row.speed_ratio) : "-",
                   timed ? format_percent(row.efficiency) : "-",
                   row.roof_fraction ? format_percent(*row.roof_fraction) : "-",
                   status_label(row, *input.thresholds),
                   primary_issue(row, device_of(r, row).sm_count)};
    if (input.against) {
      const CaseResult* other = against_row(*input.against, row);
      const auto ratio = against_ratio(input, row);
      cells.push_back(other ? format_ms(headline_ms(*other)) : "-");
      cells.push_back(ratio ? format_ratio(*ratio) : "-");
    }
    rows.push_back(cells);
  }
  out << "\n## " << op << "\n\n";
  print_pipe_table(out, header, rows);
  std::string bands;
  for (const std::string& size_class : class_order(r, op)) {
    const Threshold& t = input.thresholds->lookup(op, size_class);
    bands += fmt::format("{}{} {} / {}", bands.empty() ? "" : "; ", category_title(size_class), format_percent(t.min_efficiency),
                         format_percent(t.target_efficiency));
    if (t.min_speed_ratio) bands += fmt::format(" (speed ratio >= {})", format_ratio(*t.min_speed_ratio));
  }
  const bool with_auto =
      std::any_of(r.cases.begin(), r.cases.end(), [&](const CaseResult& row) { return row.op == op && is_auto(row); });
  out << (with_auto ? "\n★ the best kbench variant of the case; ◆ `auto`, the variant a framework would ship (the one summarised "
                      "and gated). Minimum / target efficiency: "
                    : "\n★ the best kbench variant of the case (the one summarised and gated). Minimum / target efficiency: ")
      << bands << ".\n";
}

void write_plots(std::ostream& out, const ReportInput& input) {
  if (input.plots.empty()) return;
  out << "\n## Plots\n\nMade by `scripts/plot_results.py` from the same results files.\n\n";
  for (const std::string& plot : input.plots) {
    const std::string name = std::filesystem::path(plot).stem().string();
    out << (name.rfind("roofline", 0) == 0 ? "![" + name + "](" + plot + ")\n\n" : "- [" + name + "](" + plot + ")\n");
  }
}

void write_not_timed(std::ostream& out, const RunResults& r) {
  std::vector<TableRow> rows;
  for (const CaseResult& row : r.cases) {
    if (row.status == CaseStatus::passed) continue;
    rows.push_back({row_label(row), category_title(row.size_class), std::string(role_name(row.role)), std::string(status_name(row.status)),
                    table_cell(row.message)});
  }
  out << "\n## Cases not timed\n\n";
  if (rows.empty()) {
    out << "None: every planned row was verified and timed.\n";
    return;
  }
  print_pipe_table(out, {"Case", "Category", "Role", "Status", "Reason"}, rows);
}

void write_notes(std::ostream& out, const RunResults& r) {
  std::vector<std::string> notes = r.notes;
  for (const CaseResult& row : r.cases) {
    for (const ModeTiming& t : row.timings)
      for (const std::string& warning : t.warnings) notes.push_back(fmt::format("{}: {} mode: {}", row_label(row), mode_name(t.mode), warning));
    if (headline_noise(row) > kNoisy) {
      notes.push_back(fmt::format("{}: noisy: relative IQR {} over {} samples", row_label(row),
                                  format_percent(headline_noise(row)), row.headline()->stats.count));
    }
  }
  if (notes.empty()) return;
  out << "\n## Notes\n\n";
  for (const std::string& note : notes) out << "- " << printable(note) << '\n';
}

}  // namespace

void write_markdown_report(std::ostream& out, const ReportInput& input) {
  const RunResults& r = *input.results;
  out << "# kbench status report\n\n";
  out << "Generated by `kbench report` from `" << input.results_name << "`. Efficiency = the op's minimum work "
      << "over time against the device's theoretical peak (bytes / time / peak bandwidth for memory-bound ops, "
      << "FLOPs / time / peak FLOP/s for compute-bound ones); speed ratio = baseline time / kbench time (above 1.00x "
      << "is faster than the baseline); the status comes from efficiency alone (❌ Critical below the minimum, 🔴 Poor below the target, "
      << "✅ Good at or above it). Times are medians per call."
      << (input.against ? " vs " + input.against_label + " = " + input.against_label + "'s time / kbench time." : std::string())
      << "\n\n";
  write_environment(out, input);
  write_summary(out, input);
  write_categories(out, input);
  write_plots(out, input);
  for (const std::string& op : op_order(r)) write_op(out, input, op);
  print_kernel_breakdowns(out, r,
                         "\n## Kernel breakdown\n\nWhat one call launches, traced with CUPTI after the timed samples; "
                         "Gap = hot-mode event time - GPU time of the launches.\n");
  print_hardware_counters(out, r,
                          "\n## Hardware counters\n\nCounted with CUPTI's range profiler in one more call per row after "
                          "its timed samples (`--counters`); the primary issue's counter rules read them.\n");
  print_gpu_telemetry(out, r, "\n## GPU telemetry\n");
  print_first_calls(out, r);
  write_not_timed(out, r);
  write_notes(out, r);
}

}  // namespace kbench
