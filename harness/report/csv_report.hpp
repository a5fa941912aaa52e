#pragma once
/// The CSV report: one line per row of the results (every role and status, in run order) with
/// every figure the results hold, the thresholds that apply and the derived status and primary
/// issue. RFC 4180 quoting; empty fields for values that do not exist. Reads results only.

#include "harness/report/report_input.hpp"

#include <ostream>
#include <string>

namespace kbench {

/// Writes the header line and one line per row.
void write_csv_report(std::ostream& out, const ReportInput& input);

/// `text` quoted for CSV when it holds a comma, a quote or a line break.
std::string csv_field(const std::string& text);

}  // namespace kbench
