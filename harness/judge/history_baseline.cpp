#include "harness/judge/history_baseline.hpp"

#include "harness/common/input_error.hpp"
#include "harness/common/printable_text.hpp"
#include "harness/report/report_format.hpp"
#include "harness/results/result_queries.hpp"
#include "harness/results/stats.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <system_error>

namespace kbench {

std::vector<std::string> history_files(const std::string& folder) {
  namespace fs = std::filesystem;
  std::error_code error;
  if (!fs::is_directory(folder, error)) throw InputError("--history: '" + printable(folder) + "' is not a folder");
  std::vector<std::string> files;
  for (const fs::directory_entry& entry : fs::directory_iterator(folder, error)) {
    if (entry.path().extension() == ".json" && entry.is_regular_file(error)) files.push_back(entry.path().string());
  }
  if (error) throw InputError("--history: cannot list '" + printable(folder) + "': " + error.message());
  if (files.empty()) throw InputError("--history: '" + printable(folder) + "' holds no results file (*.json)");
  std::sort(files.begin(), files.end());
  return files;
}

namespace {

bool same_plan(const RunResults& a, const RunResults& b) {
  if (a.cases.size() != b.cases.size()) return false;
  for (const CaseResult& row : a.cases) {
    if (std::none_of(b.cases.begin(), b.cases.end(), [&](const CaseResult& other) { return same_row(row, other); })) return false;
  }
  return true;
}

bool same_run(const RunResults& a, const RunResults& b) {
  return a.utc_time == b.utc_time && a.host == b.host && a.seed == b.seed && a.device.pci_bus_id == b.device.pci_bus_id;
}

const CaseResult* find_row(const RunResults& run, const CaseResult& row) {
  for (const CaseResult& candidate : run.cases)
    if (same_row(candidate, row)) return &candidate;
  return nullptr;
}

/// The timings of `mode` for `row` in the used files that timed it, oldest first.
std::vector<const ModeTiming*> timings_of(const std::vector<const HistoryFile*>& used, const CaseResult& row, MeasureMode mode) {
  std::vector<const ModeTiming*> out;
  for (const HistoryFile* file : used) {
    const CaseResult* match = find_row(file->results, row);
    if (!match || match->status != CaseStatus::passed) continue;
    if (const ModeTiming* t = match->timing(mode); t && t->stats.count > 0) out.push_back(t);
  }
  return out;
}

/// Pools `timings` (all with samples) into one: samples concatenated, clocks by their median.
ModeTiming pooled(const ModeTiming& newest, const std::vector<const ModeTiming*>& timings) {
  ModeTiming out = newest;
  out.samples_ms.clear();
  std::vector<double> clocks;
  out.processes = 0;
  out.low_clock_samples = 0;
  std::vector<const ModeTelemetry*> telemetry;  // a run that shared the GPU taints the pooled baseline
  for (const ModeTiming* t : timings) {
    telemetry.push_back(t->telemetry ? &*t->telemetry : nullptr);
    for (const std::string& warning : t->warnings)
      if (std::find(out.warnings.begin(), out.warnings.end(), warning) == out.warnings.end()) out.warnings.push_back(warning);
    out.samples_ms.insert(out.samples_ms.end(), t->samples_ms.begin(), t->samples_ms.end());
    if (t->sm_clock_mhz > 0) clocks.push_back(t->sm_clock_mhz);
    out.min_sm_clock_mhz = std::min(out.min_sm_clock_mhz, t->min_sm_clock_mhz);
    out.low_clock_samples += t->low_clock_samples;
    out.processes += t->processes;
  }
  out.stats = summarize(out.samples_ms);
  out.telemetry = pooled_telemetry(telemetry);
  std::sort(clocks.begin(), clocks.end());
  out.sm_clock_mhz = clocks.size() == timings.size() && !clocks.empty() ? quantile_sorted(clocks, 0.5) : 0;
  return out;
}

}  // namespace

HistoryBaseline history_baseline(const RunResults& run, const std::vector<HistoryFile>& candidates, std::size_t depth,
                                 const std::string& folder) {
  HistoryBaseline out;
  std::vector<const HistoryFile*> usable;
  for (const HistoryFile& file : candidates) {
    const std::string name = printable(file.path);
    if (const std::string device = device_mismatch(run, file.results); !device.empty()) {
      out.skipped.push_back(name + ": another device (" + device + ")");
    } else if (!same_plan(run, file.results)) {
      out.skipped.push_back(name + ": another plan (its rows are not this run's)");
    } else if (file.results.run_state != RunState::complete) {
      out.skipped.push_back(name + ": did not complete (run_state " + std::string(enum_name(file.results.run_state)) + ")");
    } else if (same_run(run, file.results)) {
      out.skipped.push_back(name + ": the run being gated");
    } else {
      usable.push_back(&file);
    }
  }
  if (usable.empty()) {
    std::string why;
    for (const std::string& line : out.skipped) why += "; " + line;
    throw InputError("--history: no results file in '" + printable(folder) + "' matches this run's device and plan" + why);
  }
  std::stable_sort(usable.begin(), usable.end(), [](const HistoryFile* a, const HistoryFile* b) {
    return a->results.utc_time != b->results.utc_time ? a->results.utc_time < b->results.utc_time : a->path < b->path;
  });
  if (depth > 0 && usable.size() > depth) usable.erase(usable.begin(), usable.end() - static_cast<std::ptrdiff_t>(depth));
  for (const HistoryFile* file : usable) out.used.push_back(file->path);

  out.baseline = usable.back()->results;
  for (CaseResult& row : out.baseline.cases) {
    for (ModeTiming& timing : row.timings) {
      const std::vector<const ModeTiming*> timings = timings_of(usable, row, timing.mode);
      const bool all_sampled = !timings.empty() && std::all_of(timings.begin(), timings.end(), [](const ModeTiming* t) {
        return !t->samples_ms.empty();
      });
      if (all_sampled && timings.size() > 1) timing = pooled(timing, timings);
    }
  }
  for (const CaseResult& row : run.cases) {
    const ModeTiming* now = row.headline();
    if (row.role != VariantRole::own || !now || now->stats.count == 0) continue;
    std::string medians;
    for (const ModeTiming* t : timings_of(usable, row, now->mode)) medians += (medians.empty() ? "" : ", ") + format_ms(t->stats.median);
    out.trends.push_back(fmt::format("{} ({}): {} (last {} run{}, oldest first) -> {} now", row_label(row), mode_name(now->mode),
                                     medians.empty() ? "not timed" : medians, usable.size(), usable.size() == 1 ? "" : "s",
                                     format_ms(now->stats.median)));
  }
  return out;
}

}  // namespace kbench
