#pragma once
/// The status report in Markdown, in the structure of the seed report
/// (shared/reference/status-report-example.md): test environment, summary, a table by size
/// category, a detailed table per op, and every row that was not timed. Reads results only.

#include "harness/report/report_input.hpp"

#include <ostream>

namespace kbench {

/// Writes the report. Summary and category figures use the headline row of each case (op x shape
/// x dtype): its `auto` row where the op has one, otherwise its best own row; the detailed tables
/// list every own row, the best marked ★ and `auto` marked ◆; nothing is dropped.
void write_markdown_report(std::ostream& out, const ReportInput& input);

}  // namespace kbench
