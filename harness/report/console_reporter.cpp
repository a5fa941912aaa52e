#include "harness/report/console_reporter.hpp"

#include "harness/judge/primary_issue.hpp"
#include "harness/results/status_bands.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

namespace kbench {

std::string format_duration_ms(double ms) {
  if (ms <= 0) return "-";
  if (ms < 1.0) return fmt::format("{:.2f} µs", ms * 1e3);
  return fmt::format("{:.3f} ms", ms);
}

std::size_t display_width(const std::string& text) {
  std::size_t width = 0;
  for (std::size_t i = 0; i < text.size();) {
    const auto byte = static_cast<unsigned char>(text[i]);
    std::size_t length = byte < 0x80 ? 1 : byte < 0xE0 ? 2 : byte < 0xF0 ? 3 : 4;
    unsigned code = 0;
    if (length == 1) code = byte;
    else {
      code = byte & (0xFF >> (length + 1));
      for (std::size_t k = 1; k < length && i + k < text.size(); ++k) code = (code << 6) | (text[i + k] & 0x3F);
    }
    const bool wide = code >= 0x1F000 || code == 0x274C || code == 0x2705;
    if (code != 0xFE0F) width += wide ? 2 : 1;  // variation selectors take no column
    i += length;
  }
  return width;
}

void print_device(std::ostream& out, const DeviceInfo& d) {
  out << fmt::format("Device {}: {} (sm_{}{}, {} SMs, {}), PCI {}\n", d.index, d.name, d.cc_major, d.cc_minor,
                     d.sm_count, d.ecc_enabled ? "ECC on" : "ECC off", d.pci_bus_id);
  out << fmt::format("  memory: {:.1f} GiB, {}-bit bus at {} MHz; L2 {:.1f} MiB; SM clock {} MHz\n",
                     d.global_memory_bytes / 1073741824.0, d.bus_width_bits, d.memory_clock_khz / 1000,
                     d.l2_bytes / 1048576.0, d.sm_clock_khz / 1000);
  out << fmt::format("  peak bandwidth {:.0f} GB/s ({}); peak FP32 {} ({})\n", d.peak_bandwidth_bytes_per_s / 1e9,
                     d.peak_bandwidth_source,
                     d.peak_fp32_flops > 0 ? fmt::format("{:.1f} TFLOP/s", d.peak_fp32_flops / 1e12) : "unknown",
                     d.peak_flops_source);
  out << fmt::format("  driver {}.{}, runtime {}.{}\n", d.driver_version / 1000, d.driver_version % 1000 / 10,
                     d.runtime_version / 1000, d.runtime_version % 1000 / 10);
}

namespace {

using Row = std::vector<std::string>;

void print_table(std::ostream& out, const Row& header, const std::vector<Row>& rows) {
  std::vector<std::size_t> widths(header.size());
  for (std::size_t c = 0; c < header.size(); ++c) widths[c] = display_width(header[c]);
  for (const Row& row : rows)
    for (std::size_t c = 0; c < row.size(); ++c) widths[c] = std::max(widths[c], display_width(row[c]));
  const auto print_row = [&](const Row& row) {
    out << '|';
    for (std::size_t c = 0; c < row.size(); ++c) {
      out << ' ' << row[c] << std::string(widths[c] - display_width(row[c]), ' ') << " |";
    }
    out << '\n';
  };
  print_row(header);
  out << '|';
  for (std::size_t w : widths) out << std::string(w + 2, '-') << '|';
  out << '\n';
  for (const Row& row : rows) print_row(row);
}

std::string status_cell(const CaseResult& c) {
  switch (c.status) {
    case CaseStatus::passed: return c.band ? std::string(band_label(*c.band)) : "-";
    case CaseStatus::incorrect: return "INCORRECT";
    case CaseStatus::error: return "ERROR";
    case CaseStatus::skipped: return "SKIPPED";
  }
  return "?";
}

std::string variant_cell(const CaseResult& c) {
  return c.role == VariantRole::own ? c.variant : c.variant + " (" + std::string(role_name(c.role)) + ")";
}

/// A mode's median, marked "(L2)" when hot-mode inputs were served from L2; "-" if not measured.
std::string mode_cell(const CaseResult& c, MeasureMode mode) {
  const ModeTiming* t = c.status == CaseStatus::passed ? c.timing(mode) : nullptr;
  if (!t || t->stats.count == 0) return "-";
  return format_duration_ms(t->stats.median) + (t->l2_resident ? " (L2)" : "");
}

/// The eager median with the launch overhead (eager - hot) in brackets when both were measured.
std::string eager_cell(const CaseResult& c) {
  const std::string eager = mode_cell(c, MeasureMode::eager);
  if (eager == "-" || !c.launch_overhead_ms) return eager;
  return fmt::format("{} (+{:.2f})", eager, *c.launch_overhead_ms * 1e3);
}

/// Kernels one call launches: CUPTI's count when traced, marked when it differs from the op's
/// declaration; the declaration otherwise.
std::string kernels_cell(const CaseResult& c) {
  if (!c.breakdown) return std::to_string(c.kernels_per_call);
  const double traced = c.breakdown->kernels_per_call;
  if (std::abs(traced - c.kernels_per_call) < 1e-9) return std::to_string(c.kernels_per_call);
  return fmt::format("{:g} (declared {})", traced, c.kernels_per_call);
}

/// Noise above this relative IQR gets a warning mark.
constexpr double kNoisy = 0.10;

}  // namespace

void print_results_table(std::ostream& out, const RunResults& results) {
  std::vector<std::string> op_order;
  for (const CaseResult& c : results.cases)
    if (std::find(op_order.begin(), op_order.end(), c.op) == op_order.end()) op_order.push_back(c.op);

  const Row header{"Shape", "Size",    "Dtype",      "Variant",   "Kernels", "Baseline", "kbench",
                   "Speed ratio", "GB/s", "TFLOP/s", "Efficiency", "% of roof", "Noise", "Hot",
                   "Eager (+launch µs)", "Status", "Primary issue"};
  std::vector<std::string> notes;
  for (const std::string& op : op_order) {
    std::vector<Row> rows;
    for (const CaseResult& c : results.cases) {
      if (c.op != op) continue;
      const ModeTiming* headline = c.status == CaseStatus::passed ? c.headline() : nullptr;
      const bool timed = headline != nullptr;
      const double noise = timed ? headline->stats.relative_iqr() : 0;
      rows.push_back({format_shape(c.shape), format_count(static_cast<double>(c.elements)), c.dtype, variant_cell(c),
                      kernels_cell(c), c.baseline_ms ? format_duration_ms(*c.baseline_ms) : "-",
                      timed ? format_duration_ms(headline->stats.median) : "-",
                      c.speed_ratio ? fmt::format("{:.2f}x", *c.speed_ratio) : "-",
                      timed ? fmt::format("{:.0f}", c.bandwidth_gbps) : "-",
                      timed ? fmt::format("{:.2f}", c.tflops) : "-",
                      timed ? fmt::format("{:.1f}%{}", 100 * c.efficiency, c.bound == Bound::compute ? " of FLOP/s" : "") : "-",
                      c.roof_fraction ? fmt::format("{:.1f}%", 100 * *c.roof_fraction) : "-",
                      timed ? fmt::format("{:.1f}%{}", 100 * noise, noise > kNoisy ? " ⚠" : "") : "-",
                      mode_cell(c, MeasureMode::hot), eager_cell(c), status_cell(c), primary_issue(c, device_of(results, c).sm_count)});
      const std::string label = fmt::format("{} {} {} {}", c.op, c.variant, c.dtype, format_shape(c.shape));
      if (!timed) notes.push_back(fmt::format("{}: {}: {}", label, status_name(c.status), c.message));
      for (const ModeTiming& t : c.timings) {
        for (const std::string& warning : t.warnings) notes.push_back(fmt::format("{}: {} mode: {}", label, mode_name(t.mode), warning));
      }
      if (timed && noise > kNoisy)
        notes.push_back(fmt::format("{}: noisy: relative IQR {:.1f}% over {} samples", label, 100 * noise, headline->stats.count));
    }
    out << "\n" << op << "\n";
    print_table(out, header, rows);
  }
  const MeasureMode headline = results.cases.empty() ? MeasureMode::cold
                                                     : results.cases.front().headline_mode.value_or(MeasureMode::cold);
  out << fmt::format(
      "\nkbench = median per call in {} mode{}; Hot = CUDA-graph replay of back-to-back calls, (L2) when the inputs "
      "fit in L2; Eager = one event pair per call, with eager - hot (launch overhead) in brackets. Efficiency = bytes "
      "moved / time / {:.0f} GB/s theoretical peak, or FLOP/s / peak FLOP/s for compute-bound cases; % of roof = bandwidth / the d2d copy's; speed ratio = baseline "
      "time / this time.\n",
      mode_name(headline), headline == MeasureMode::cold ? (results.settings.flush_l2 ? " (L2 flushed before each call)" : " (L2 NOT flushed)") : "",
      results.device.peak_bandwidth_bytes_per_s / 1e9);
  if (!notes.empty()) {
    out << "\nNotes:\n";
    for (const std::string& note : notes) out << "  - " << note << '\n';
  }
}

}  // namespace kbench
