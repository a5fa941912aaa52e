#pragma once
/// kbench's error for output it could not write. Host-only.

#include <stdexcept>

namespace kbench {

/// A results file, report, CSV or standard output that could not be written (no space, a closed
/// pipe, no permission, a failed rename). Commands turn it into exit code 5 (README: Exit codes):
/// the input was fine, the output is missing or incomplete.
class OutputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace kbench
