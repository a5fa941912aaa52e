#pragma once
/// Where a run's host wall time went: the rows' phases (results/SCHEMA.md `wall_s`) summed, and
/// the rows that took longest. Host-only; reads results.

#include "harness/results/results.hpp"

#include <ostream>
#include <string>
#include <vector>

namespace kbench {

/// The phases of every row that recorded them, summed.
RowWallTime total_wall_time(const RunResults& results);

/// "op variant dtype shape: N s" for the `count` rows whose wall time was longest, longest first.
std::vector<std::string> longest_rows(const RunResults& results, std::size_t count);

/// "Wall time of the rows: ..." with its phases, then the longest rows; nothing when no row
/// recorded its wall time (files from before it was recorded, or nothing ran).
void print_wall_time(std::ostream& out, const RunResults& results);

}  // namespace kbench
