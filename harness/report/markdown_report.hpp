#pragma once
/// The status report in Markdown, in the structure of the seed report
/// (shared/reference/status-report-example.md): test environment, summary, a table by size
/// category, a detailed table per op, and every row that was not timed. Reads results only.

#include "harness/report/report_input.hpp"

#include <ostream>

namespace kbench {

/// Writes the report. Summary and category figures use the best own variant of each case
/// (op x shape x dtype); the detailed tables list every own row; nothing is dropped.
void write_markdown_report(std::ostream& out, const ReportInput& input);

}  // namespace kbench
