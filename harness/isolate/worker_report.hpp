#pragma once
/// What the parent of an isolated run learns from one worker process, and how it folds that into
/// the case's rows. Host-only: the policy is tested without a GPU.

#include "harness/results/results.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace kbench {

/// How a worker ended.
enum class WorkerEnd {
  finished,      ///< ran every row it was given
  context_lost,  ///< a call poisoned its CUDA context; it reported the row and stopped
  interrupted,   ///< SIGINT or SIGTERM stopped it between rows
  timed_out,     ///< killed by the parent: a call outlived --kernel-timeout
  died,          ///< exited or was killed without finishing (a crash, a refusal)
};

/// One worker's rows and end.
struct WorkerReport {
  std::vector<CaseResult> rows;  ///< the rows it finished, in order, from its first row on
  WorkerEnd end = WorkerEnd::died;
  std::vector<std::string> notes;  ///< its run-level notes (RunOutcome::notes)
  std::string reason;            ///< for died: how ("killed by signal 11 (Segmentation fault)"), with its last error line
};

/// Copies the worker's rows into `rows` from `first_row` on and returns the first row still to
/// run (rows.size() when the case is done). The row in flight when a worker timed out or died is
/// ERROR (timed_out_message(timeout_s), or the reason), and the next worker starts after it; a
/// worker that lost its context reported that row itself. A worker that finished nothing moves
/// the case on too (its first row is ERROR), so a case always ends.
std::size_t merge_worker_report(std::vector<CaseResult>& rows, std::size_t first_row, const WorkerReport& report,
                                double timeout_s);

/// The last line of a worker's standard error that says what went wrong: a "kbench: error" line,
/// or else one naming a CUDA error; empty when none does.
std::string last_error_line(const std::string& stderr_text);

/// "exited with code 2" or "killed by signal 11 (Segmentation fault)", then ": " and the last
/// error line of its standard error when there is one.
std::string worker_death_reason(int exit_code, int signal, const std::string& stderr_text);

}  // namespace kbench
