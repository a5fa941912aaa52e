#include "harness/report/breakdown_report.hpp"

#include "harness/report/report_format.hpp"
#include "harness/report/text_table.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace kbench {

namespace {

std::string dims(const std::array<int, 3>& d) {
  if (d[1] == 1 && d[2] == 1) return std::to_string(d[0]);
  return fmt::format("{}x{}x{}", d[0], d[1], d[2]);
}

/// Kernel names can be long template instantiations: keep the head, which names the kernel.
std::string short_name(const std::string& name) {
  constexpr std::size_t kMax = 72;
  return name.size() <= kMax ? name : name.substr(0, kMax - 1) + "…";
}

}  // namespace

void print_kernel_breakdowns(std::ostream& out, const RunResults& results, const std::string& heading) {
  std::vector<std::string> ops;
  for (const CaseResult& c : results.cases) {
    if (c.breakdown && std::find(ops.begin(), ops.end(), c.op) == ops.end()) ops.push_back(c.op);
  }
  if (ops.empty()) return;
  if (!heading.empty()) out << heading;
  const TableRow header{"Shape", "Dtype", "Variant", "Kernels/call", "GPU time/call", "Hot (event)", "Gap",
                        "Kernel", "Grid x block", "Launches/call", "Mean time"};
  for (const std::string& op : ops) {
    std::vector<TableRow> rows;
    int calls_traced = 0;
    for (const CaseResult& c : results.cases) {
      if (c.op != op || !c.breakdown) continue;
      const KernelBreakdown& b = *c.breakdown;
      calls_traced = b.calls_traced;
      const ModeTiming* hot = c.timing(MeasureMode::hot);
      const double hot_ms = hot != nullptr ? hot->stats.median : 0;
      bool first = true;
      for (const KernelActivity& a : b.activities) {
        rows.push_back({first ? format_shape(c.shape) : "", first ? c.dtype : "", first ? c.variant : "",
                        first ? fmt::format("{:g}", b.kernels_per_call) : "", first ? format_ms(b.gpu_ms_per_call) : "",
                        first ? format_ms(hot_ms) : "",
                        first && hot_ms > 0 ? format_ms(std::max(0.0, hot_ms - b.gpu_ms_per_call)) : "",
                        table_cell(short_name(a.name)),
                        a.is_kernel() ? dims(a.grid) + " x " + dims(a.block) : "-",
                        fmt::format("{:g}", a.launches_per_call), format_ms(a.mean_ms)});
        first = false;
      }
      if (b.activities.empty()) {
        rows.push_back({format_shape(c.shape), c.dtype, c.variant, "0", "-", format_ms(hot_ms), "-",
                        "(no GPU activity recorded)", "-", "-", "-"});
      }
    }
    out << fmt::format("\n{}: kernel breakdown (CUPTI, {} calls traced per row)\n", op, calls_traced);
    print_pipe_table(out, header, rows);
  }
}

}  // namespace kbench
