#pragma once
/// Pipe tables ("| a | b |" with a "|---|" rule) padded to the cells' display width: valid
/// Markdown and readable at a terminal. Host-only.

#include <ostream>
#include <string>
#include <vector>

namespace kbench {

using TableRow = std::vector<std::string>;

/// Prints `header`, the rule and `rows`; every row has header.size() cells.
void print_pipe_table(std::ostream& out, const TableRow& header, const std::vector<TableRow>& rows);

/// `text` with '|' escaped and line breaks turned into spaces, fit for a table cell.
std::string table_cell(const std::string& text);

}  // namespace kbench
