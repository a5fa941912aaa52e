#include "harness/results/results.hpp"

namespace kbench {

std::string_view status_name(CaseStatus status) {
  switch (status) {
    case CaseStatus::passed: return "passed";
    case CaseStatus::incorrect: return "incorrect";
    case CaseStatus::error: return "error";
    case CaseStatus::skipped: return "skipped";
  }
  return "unknown";
}

std::optional<CaseStatus> parse_status(std::string_view text) {
  for (CaseStatus s : {CaseStatus::passed, CaseStatus::incorrect, CaseStatus::error, CaseStatus::skipped}) {
    if (status_name(s) == text) return s;
  }
  return std::nullopt;
}

const ModeTiming* CaseResult::timing(std::string_view mode) const {
  for (const ModeTiming& t : timings)
    if (t.mode == mode) return &t;
  return nullptr;
}

const ModeTiming* CaseResult::headline() const {
  if (const ModeTiming* cold = timing("cold")) return cold;
  return timings.empty() ? nullptr : &timings.front();
}

}  // namespace kbench
