#pragma once
/// Number and label formats shared by the markdown report, the gate and compare. Host-only.

#include "harness/results/results.hpp"
#include "harness/config/thresholds.hpp"

#include <string>

namespace kbench {

/// "4.50 µs" below a millisecond, "1.234 ms" from one up; "-" for 0 or less.
std::string format_ms(double ms);

/// A fraction as a percentage with one decimal: 0.8563 -> "85.6%".
std::string format_percent(double fraction);

/// A signed change as a percentage: 0.211 -> "+21.1%", -0.05 -> "-5.0%".
std::string format_change(double fraction);

/// A speed ratio: 1.0234 -> "1.02x".
std::string format_ratio(double ratio);

/// "✅ Good", "🔴 Poor", "❌ Critical" from the thresholds, or INCORRECT / ERROR / SKIPPED.
std::string status_label(const CaseResult& row, const Thresholds& thresholds);

/// The report's title for a size category: "Small", "Extra large", "Batched", or the name itself.
std::string category_title(const std::string& size_class);

/// The file name part of a path ("dir/run.json" -> "run.json").
std::string base_name(const std::string& path);

}  // namespace kbench
