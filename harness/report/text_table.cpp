#include "harness/report/text_table.hpp"

#include "harness/report/console_reporter.hpp"

#include <algorithm>

namespace kbench {

void print_pipe_table(std::ostream& out, const TableRow& header, const std::vector<TableRow>& rows) {
  std::vector<std::size_t> widths(header.size());
  for (std::size_t c = 0; c < header.size(); ++c) widths[c] = display_width(header[c]);
  for (const TableRow& row : rows)
    for (std::size_t c = 0; c < row.size() && c < widths.size(); ++c) widths[c] = std::max(widths[c], display_width(row[c]));
  const auto print_row = [&](const TableRow& row) {
    out << '|';
    for (std::size_t c = 0; c < widths.size(); ++c) {
      const std::string cell = c < row.size() ? row[c] : "";
      out << ' ' << cell << std::string(widths[c] - display_width(cell), ' ') << " |";
    }
    out << '\n';
  };
  print_row(header);
  out << '|';
  for (std::size_t w : widths) out << std::string(w + 2, '-') << '|';
  out << '\n';
  for (const TableRow& row : rows) print_row(row);
}

std::string table_cell(const std::string& text) {
  std::string cell;
  for (char c : text) {
    if (c == '|') cell += "\\|";
    else if (c == '\n' || c == '\r') cell += ' ';
    else cell += c;
  }
  return cell;
}

}  // namespace kbench
