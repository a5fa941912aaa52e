#pragma once
/// First calls worth a reader's attention: rows whose first call on their inputs (lazy module
/// loading, JIT, first touch; results/SCHEMA.md `first_call_ms`) cost far more than their steady
/// state. Host-only; reads results.

#include "harness/results/results.hpp"

#include <optional>
#include <ostream>

namespace kbench {

/// A first call is listed when it took at least this many times the row's headline median...
inline constexpr double kSlowFirstCallFactor = 10;
/// ...and at least this many milliseconds more: a host round trip (tens of µs) or a small
/// first-touch cost on a microsecond kernel is not worth a line.
inline constexpr double kSlowFirstCallExtraMs = 1.0;

/// first_call_ms / the headline median of a timed row whose first call meets both limits above;
/// none for any other row (not timed, no first call recorded, or not slow enough).
std::optional<double> slow_first_call(const CaseResult& row);

/// "## First calls": a table of the rows slow_first_call lists, with first call, median and
/// their ratio, or one line saying none did; nothing when no row recorded a first call.
void print_first_calls(std::ostream& out, const RunResults& results);

}  // namespace kbench
