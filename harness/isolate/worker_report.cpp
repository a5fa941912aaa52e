#include "harness/isolate/worker_report.hpp"

#include "harness/isolate/timeout_policy.hpp"

#include <fmt/format.h>

#include <cstring>
#include <sstream>

namespace kbench {

std::size_t merge_worker_report(std::vector<CaseResult>& rows, std::size_t first_row, const WorkerReport& report,
                                double timeout_s) {
  std::size_t next = first_row;
  for (const CaseResult& row : report.rows) {
    if (next >= rows.size()) break;
    CaseResult& planned = rows[next];
    if (row.op != planned.op || row.variant != planned.variant || row.dtype != planned.dtype ||
        row.shape != planned.shape) {
      // The worker re-planned from the same options and got another case: its rows cannot be
      // trusted to stand for this one (a config or plugin changed during the run?).
      planned.status = CaseStatus::error;
      planned.message = "its worker process reported '" + row.variant + "' for this row: the worker's plan differs "
                        "from this run's (did a config or plugin change during the run?)";
      return next + 1;
    }
    planned = row;
    ++next;
  }
  if (next >= rows.size() || report.end == WorkerEnd::interrupted) return next;
  const bool progressed = next > first_row;
  if (report.end == WorkerEnd::context_lost && progressed) return next;  // it reported the faulting row
  CaseResult& in_flight = rows[next];
  in_flight.status = CaseStatus::error;
  switch (report.end) {
    case WorkerEnd::timed_out:
      in_flight.message = timed_out_message(timeout_s);
      break;
    case WorkerEnd::context_lost:
      in_flight.message = "the CUDA context was lost before this row finished" +
                          (report.reason.empty() ? std::string() : ": " + report.reason);
      break;
    default:
      in_flight.message = "its worker process " + (report.reason.empty() ? std::string("ended early") : report.reason);
      break;
  }
  return next + 1;
}

std::string last_error_line(const std::string& stderr_text) {
  std::istringstream lines(stderr_text);
  std::string line, kbench_error, cuda_error;
  while (std::getline(lines, line)) {
    if (line.find("kbench: error") != std::string::npos) kbench_error = line;
    if (line.find("cudaError") != std::string::npos || line.find("CUDA error") != std::string::npos) cuda_error = line;
  }
  return kbench_error.empty() ? cuda_error : kbench_error;
}

std::string worker_death_reason(int exit_code, int signal, const std::string& stderr_text) {
  std::string reason = signal != 0 ? fmt::format("was killed by signal {} ({})", signal, strsignal(signal))
                                   : fmt::format("exited with code {} before finishing", exit_code);
  if (const std::string line = last_error_line(stderr_text); !line.empty()) reason += ": " + line;
  return reason;
}

}  // namespace kbench
