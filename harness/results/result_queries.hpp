#pragma once
/// Questions reporters, the gate and compare ask of a results document: which rows form a case,
/// which own row is the best, which row of another run matches. Reads results only. Host-only.

#include "harness/results/results.hpp"

#include <string>
#include <vector>

namespace kbench {

/// The headline median in ms of a passed, timed row; 0 otherwise.
double headline_ms(const CaseResult& row);

/// The headline mode's relative IQR ((q3 - q1) / median): the row's noise; 0 when not timed.
double headline_noise(const CaseResult& row);

/// "add vectorized fp32 4096x4096": a row's identity for messages, control characters escaped.
std::string row_label(const CaseResult& row);

/// True when both rows are the same case: op, shape and dtype.
bool same_case(const CaseResult& a, const CaseResult& b);

/// True when both rows are the same case and variant.
bool same_row(const CaseResult& a, const CaseResult& b);

/// The fastest passed own row of each case (op x shape x dtype), in first-appearance order;
/// cases without a timed own row are left out.
std::vector<const CaseResult*> best_own_rows(const RunResults& results);

/// The name that marks an op's `auto` variant: the kernel and launch shape a framework would ship,
/// picked per problem by a documented heuristic (no timing at run time). Where a case has one,
/// the status (summary, categories) and the gate judge it instead of the best own row.
inline constexpr const char* kAutoVariant = "auto";

/// True for an own row of the `auto` variant.
bool is_auto(const CaseResult& row);

/// The row each case (op x shape x dtype) is judged by, in first-appearance order: its timed
/// `auto` row where it has one, otherwise its best own row (best_own_rows); cases without a timed
/// own row are left out.
std::vector<const CaseResult*> headline_rows(const RunResults& results);

/// True when some own row of the results is an `auto` row.
bool has_auto_rows(const RunResults& results);

/// The row of `other` that `row` is compared against with --against: the fastest passed row that
/// is not a roof row, for the same op, shape and dtype; nullptr when there is none.
const CaseResult* against_row(const RunResults& other, const CaseResult& row);

/// Empty when the two runs were on the same kind of device (name and peak bandwidth), otherwise
/// a sentence saying what differs.
std::string device_mismatch(const RunResults& a, const RunResults& b);

}  // namespace kbench
