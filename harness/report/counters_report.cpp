#include "harness/report/counters_report.hpp"

#include "harness/report/report_format.hpp"
#include "harness/report/text_table.hpp"
#include "harness/results/result_queries.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

namespace kbench {

namespace {

std::string or_dash(const std::optional<double>& value, const char* format) {
  return value ? fmt::format(fmt::runtime(format), *value) : "-";
}

std::string short_name(const std::string& name) {
  constexpr std::size_t kMax = 48;
  return name.size() <= kMax ? name : name.substr(0, kMax - 1) + "…";
}

std::string mib(const std::optional<double>& bytes) {
  return bytes ? fmt::format("{:.1f}", *bytes / 1048576.0) : "-";
}

}  // namespace

void print_hardware_counters(std::ostream& out, const RunResults& results, const std::string& heading) {
  std::vector<std::string> ops;
  for (const CaseResult& c : results.cases) {
    if (c.counters && std::find(ops.begin(), ops.end(), c.op) == ops.end()) ops.push_back(c.op);
  }
  if (ops.empty()) return;
  if (!heading.empty()) out << heading;
  const TableRow header{"Shape", "Dtype", "Variant", "DRAM / min", "Kernel", "DRAM read MiB", "DRAM write MiB",
                        "Warps active", "L2 hit", "Sectors/req ld, st", "Bank conflicts", "Atomic req", "Issue busy",
                        "Tensor pipe"};
  for (const std::string& op : ops) {
    std::vector<TableRow> rows;
    for (const CaseResult& c : results.cases) {
      if (c.op != op || !c.counters) continue;
      const std::optional<double> dram = c.counters->dram_bytes_per_call();
      const std::string ratio =
          dram && c.traffic.bytes_total() > 0 ? fmt::format("{:.2f}×", *dram / c.traffic.bytes_total()) : "-";
      bool first = true;
      for (const KernelCounters& k : c.counters->kernels) {
        const std::optional<double> conflicts = k.bank_conflict_fraction();
        rows.push_back({first ? format_shape(c.shape) : "", first ? c.dtype : "", first ? c.variant : "", first ? ratio : "",
                        table_cell(short_name(k.name)), mib(k.value(counter_metric::dram_read_bytes)),
                        mib(k.value(counter_metric::dram_write_bytes)),
                        or_dash(k.value(counter_metric::warps_active_pct), "{:.0f}%"),
                        or_dash(k.value(counter_metric::l2_hit_pct), "{:.0f}%"),
                        or_dash(k.sectors_per_request(true), "{:.1f}") + ", " + or_dash(k.sectors_per_request(false), "{:.1f}"),
                        conflicts ? fmt::format("{:.0f}%", 100 * *conflicts) : "-", or_dash(k.atomic_requests(), "{:.0f}"),
                        or_dash(k.value(counter_metric::issue_active_pct), "{:.0f}%"), or_dash(k.tensor_pipe_pct(), "{:.0f}%")});
        first = false;
      }
      if (c.counters->kernels.empty()) {
        rows.push_back({format_shape(c.shape), c.dtype, c.variant, "-", "(no kernel launched: memcpy or memset only)", "-",
                        "-", "-", "-", "-", "-", "-", "-", "-"});
      }
    }
    out << fmt::format("\n{}: hardware counters (CUPTI range profiler, one call per row after an L2 flush; DRAM / min = "
                       "DRAM bytes of the call over the op's minimum bytes)\n",
                       op);
    print_pipe_table(out, header, rows);
  }
}

void print_gpu_telemetry(std::ostream& out, const RunResults& results, const std::string& heading) {
  std::vector<TableRow> rows;
  for (const CaseResult& c : results.cases) {
    for (const ModeTiming& t : c.timings) {
      if (!t.telemetry) continue;
      const ModeTelemetry& m = *t.telemetry;
      std::string reasons, others;
      for (const std::string& r : m.clock_event_reasons) reasons += (reasons.empty() ? "" : ", ") + r;
      for (const std::int64_t pid : m.other_processes) others += (others.empty() ? "" : ", ") + std::to_string(pid);
      rows.push_back({table_cell(row_label(c)), std::string(mode_name(t.mode)),
                      m.energy_j_per_call ? fmt::format("{:.3g}", *m.energy_j_per_call * 1e3) : "-",
                      or_dash(m.mean_power_w, "{:.0f}"), or_dash(m.max_temperature_c, "{:.0f}"),
                      reasons.empty() ? "-" : table_cell(reasons), others.empty() ? "-" : "⚠ " + others});
    }
  }
  if (rows.empty()) return;
  if (!heading.empty()) out << heading;
  out << "\nGPU telemetry (NVML, read every 10 ms while each mode was sampled)\n";
  print_pipe_table(out, {"Row", "Mode", "Energy/call mJ", "Mean power W", "Max temp °C", "Clock events", "Other processes"},
                   rows);
}

}  // namespace kbench
