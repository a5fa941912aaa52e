#pragma once
/// Plain-text output for a person at a terminal: the device block and the efficiency table.
/// Reads results only; includes no CUDA or measurement headers.

#include "harness/results/results.hpp"

#include <ostream>
#include <vector>

namespace kbench {

/// The device block: name, architecture, memory system and the peaks (with their source).
void print_device(std::ostream& out, const DeviceInfo& device);

/// One table per op in the seed report's shape, then a note for every row that was not timed
/// (incorrect, error, skipped) and every timing warning. Nothing is dropped.
void print_results_table(std::ostream& out, const RunResults& results);

/// "12.3 µs" below a millisecond, "1.234 ms" above.
std::string format_duration_ms(double ms);

/// Columns a string occupies on a terminal (emoji count as two).
std::size_t display_width(const std::string& text);

}  // namespace kbench
