#include "harness/report/csv_report.hpp"

#include "harness/judge/primary_issue.hpp"
#include "harness/results/result_queries.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <vector>

namespace kbench {

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

namespace {

/// Numbers with 6 significant digits: deterministic and enough for every figure kbench derives.
std::string number(double value) { return fmt::format("{:.6g}", value); }
std::string number(const std::optional<double>& value) { return value ? number(*value) : ""; }


}  // namespace

void write_csv_report(std::ostream& out, const ReportInput& input) {
  const RunResults& r = *input.results;
  std::vector<std::string> header{
      "op", "variant", "role", "kernels_per_call", "dtype", "size_class", "shape", "elements", "bytes_read",
      "bytes_written", "flops", "math", "arithmetic_intensity", "ridge_point",
      "status", "message", "mismatches", "max_abs_error", "rel_l2_error", "headline_mode", "median_ms", "min_ms",
      "max_ms", "mean_ms", "stddev_ms", "q1_ms", "q3_ms", "relative_iqr", "samples", "calls_per_sample", "timed_out"};
  for (const auto& mode : EnumNames<MeasureMode>::table) header.push_back(std::string(mode.name) + "_median_ms");
  for (const auto& mode : EnumNames<MeasureMode>::table) header.push_back(std::string(mode.name) + "_relative_iqr");
  for (const char* name : {"bandwidth_gbps", "tflops", "bandwidth_efficiency", "compute_efficiency", "bound", "efficiency",
                           "roof_fraction", "baseline_ms", "speed_ratio",
                           "launch_overhead_ms", "min_efficiency", "target_efficiency", "min_speed_ratio", "band",
                           "best_own", "primary_issue", "first_call_ms"})
    header.push_back(name);
  if (input.against) {
    for (const char* name : {"against_variant", "against_ms", "against_ratio"}) header.push_back(name);
  }
  for (std::size_t i = 0; i < header.size(); ++i) out << (i ? "," : "") << header[i];
  out << '\n';

  const std::vector<const CaseResult*> best = best_own_rows(r);
  for (const CaseResult& row : r.cases) {
    const ModeTiming* h = headline_ms(row) > 0 ? row.headline() : nullptr;
    const Threshold& t = input.thresholds->lookup(row);
    const auto band = input.thresholds->band_of(row);
    const double ridge = ridge_point(device_of(r, row), row.traffic.math);
    std::vector<std::string> f{
        row.op, row.variant, std::string(role_name(row.role)), std::to_string(row.kernels_per_call), row.dtype, row.size_class,
        format_shape(row.shape), std::to_string(row.elements), fmt::format("{:.0f}", row.traffic.bytes_read),
        fmt::format("{:.0f}", row.traffic.bytes_written), fmt::format("{:.0f}", row.traffic.flops), row.traffic.math,
        number(arithmetic_intensity(row.traffic)), ridge > 0 ? number(ridge) : "",
        std::string(status_name(row.status)), row.message,
        std::to_string(row.mismatches), number(row.max_abs_error), number(row.rel_l2_error), h ? std::string(mode_name(h->mode)) : ""};
    if (h) {
      const SampleStats& s = h->stats;
      for (double v : {s.median, s.min, s.max, s.mean, s.stddev, s.q1, s.q3, s.relative_iqr()}) f.push_back(number(v));
      f.push_back(std::to_string(s.count));
      f.push_back(std::to_string(h->calls_per_sample));
      f.push_back(h->timed_out ? "true" : "false");
    } else {
      f.insert(f.end(), 11, "");
    }
    for (const auto& mode : EnumNames<MeasureMode>::table) {
      const ModeTiming* m = row.status == CaseStatus::passed ? row.timing(mode.value) : nullptr;
      f.push_back(m && m->stats.count ? number(m->stats.median) : "");
    }
    for (const auto& mode : EnumNames<MeasureMode>::table) {
      const ModeTiming* m = row.status == CaseStatus::passed ? row.timing(mode.value) : nullptr;
      f.push_back(m && m->stats.count ? number(m->stats.relative_iqr()) : "");
    }
    f.push_back(h ? number(row.bandwidth_gbps) : "");
    f.push_back(h ? number(row.tflops) : "");
    f.push_back(h ? number(row.bandwidth_efficiency) : "");
    f.push_back(h ? number(row.compute_efficiency) : "");
    f.push_back(h && row.bound ? std::string(enum_name(*row.bound)) : "");
    f.push_back(h ? number(row.efficiency) : "");
    f.push_back(number(row.roof_fraction));
    f.push_back(number(row.baseline_ms));
    f.push_back(number(row.speed_ratio));
    f.push_back(number(row.launch_overhead_ms));
    f.push_back(number(t.min_efficiency));
    f.push_back(number(t.target_efficiency));
    f.push_back(number(t.min_speed_ratio));
    f.push_back(band ? std::string(band_name(*band)) : "");
    f.push_back(std::find(best.begin(), best.end(), &row) != best.end() ? "true" : "false");
    f.push_back(primary_issue(row, device_of(r, row).sm_count));
    f.push_back(number(row.first_call_ms));
    if (input.against) {
      const CaseResult* other = h ? against_row(*input.against, row) : nullptr;
      f.push_back(other ? other->variant : "");
      f.push_back(other ? number(headline_ms(*other)) : "");
      f.push_back(other ? number(headline_ms(*other) / headline_ms(row)) : "");
    }
    for (std::size_t i = 0; i < f.size(); ++i) out << (i ? "," : "") << csv_field(f[i]);
    out << '\n';
  }
}

}  // namespace kbench
