#include "harness/report/report_format.hpp"

#include <fmt/format.h>

#include <filesystem>

namespace kbench {

std::string format_ms(double ms) {
  if (!(ms > 0)) return "-";
  if (ms < 1.0) return fmt::format("{:.2f} µs", ms * 1e3);
  return fmt::format("{:.3f} ms", ms);
}

std::string format_percent(double fraction) { return fmt::format("{:.1f}%", 100 * fraction); }

std::string format_change(double fraction) { return fmt::format("{:+.1f}%", 100 * fraction); }

std::string format_ratio(double ratio) { return fmt::format("{:.2f}x", ratio); }

std::string status_label(const CaseResult& row, const Thresholds& thresholds) {
  switch (row.status) {
    case CaseStatus::passed: {
      const auto band = thresholds.band_of(row);
      return band ? std::string(band_label(*band)) : "-";
    }
    case CaseStatus::incorrect: return "INCORRECT";
    case CaseStatus::error: return "ERROR";
    case CaseStatus::skipped: return "SKIPPED";
  }
  return "?";
}

std::string category_title(const std::string& size_class) {
  if (size_class == "small") return "Small";
  if (size_class == "medium") return "Medium";
  if (size_class == "large") return "Large";
  if (size_class == "xlarge") return "Extra large";
  if (size_class == "batch") return "Batched";
  if (size_class == "custom") return "Custom shapes";
  return size_class;
}

std::string base_name(const std::string& path) { return std::filesystem::path(path).filename().string(); }

}  // namespace kbench
