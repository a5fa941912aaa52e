#include "harness/results/pooled_rows.hpp"

#include "harness/results/stats.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace kbench {

namespace {

void add_unique(std::vector<std::string>& to, const std::string& item) {
  if (std::find(to.begin(), to.end(), item) == to.end()) to.push_back(item);
}

ModeTiming pool_timings(const std::vector<const ModeTiming*>& timings) {
  ModeTiming out = *timings.front();
  out.samples_ms.clear();
  out.warnings.clear();
  out.warmup_calls = 0;
  out.low_clock_samples = 0;
  out.processes = 0;
  out.timed_out = false;
  std::vector<double> clocks;
  std::vector<std::string> reasons;
  std::vector<const ModeTelemetry*> telemetry;  // every process's: one that saw another process on the GPU taints the pool
  for (const ModeTiming* t : timings) {
    telemetry.push_back(t->telemetry ? &*t->telemetry : nullptr);
    if (t->samples_ms.empty() && t->stats.count > 0) {
      throw std::invalid_argument("--repeat: a process kept no samples of its " + std::string(mode_name(t->mode)) +
                                  "-mode timing, so they cannot be pooled");
    }
    out.samples_ms.insert(out.samples_ms.end(), t->samples_ms.begin(), t->samples_ms.end());
    out.warmup_calls += t->warmup_calls;
    out.low_clock_samples += t->low_clock_samples;
    out.processes += t->processes;
    out.timed_out = out.timed_out || t->timed_out;
    out.min_sm_clock_mhz = std::min(out.min_sm_clock_mhz, t->min_sm_clock_mhz);
    if (t->sm_clock_mhz > 0) clocks.push_back(t->sm_clock_mhz);
    for (const std::string& warning : t->warnings) add_unique(out.warnings, warning);
    add_unique(reasons, t->stop_reason);
  }
  out.stats = summarize(out.samples_ms);
  out.telemetry = pooled_telemetry(telemetry);
  std::sort(clocks.begin(), clocks.end());
  out.sm_clock_mhz = clocks.empty() ? 0 : quantile_sorted(clocks, 0.5);
  out.stop_reason.clear();
  for (const std::string& reason : reasons) out.stop_reason += (out.stop_reason.empty() ? "" : ",") + reason;
  return out;
}

CaseResult pool_row(const std::vector<const CaseResult*>& copies, int keep_samples) {
  const std::size_t n = copies.size();
  for (std::size_t p = 0; p < n; ++p) {
    const CaseResult& row = *copies[p];
    if (row.status == CaseStatus::incorrect || row.status == CaseStatus::error) {
      CaseResult failed = row;
      failed.message = "process " + std::to_string(p + 1) + " of " + std::to_string(n) + ": " + row.message;
      return failed;
    }
  }
  std::vector<const CaseResult*> passed;
  for (const CaseResult* row : copies)
    if (row->status == CaseStatus::passed) passed.push_back(row);
  if (passed.empty()) return *copies.front();
  CaseResult out = *passed.front();
  for (ModeTiming& timing : out.timings) {
    std::vector<const ModeTiming*> same_mode;
    for (const CaseResult* row : passed)
      if (const ModeTiming* t = row->timing(timing.mode)) same_mode.push_back(t);
    timing = pool_timings(same_mode);
  }
  if (const ModeTiming* headline = out.headline()) {
    for (ModeTiming& timing : out.timings) {
      if (!keeps_samples(keep_samples, timing.mode, headline->mode)) timing.samples_ms.clear();
    }
  }
  return out;
}

}  // namespace

std::vector<CaseResult> pool_repeated_rows(const std::vector<std::vector<CaseResult>>& repeats, int keep_samples) {
  if (repeats.empty()) return {};
  for (const auto& rows : repeats) {
    if (rows.size() != repeats.front().size()) throw std::invalid_argument("--repeat: processes reported different rows");
  }
  std::vector<CaseResult> out;
  for (std::size_t r = 0; r < repeats.front().size(); ++r) {
    std::vector<const CaseResult*> copies;
    for (const auto& rows : repeats) copies.push_back(&rows[r]);
    out.push_back(pool_row(copies, keep_samples));
  }
  return out;
}

}  // namespace kbench
