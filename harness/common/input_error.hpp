#pragma once
/// kbench's error for input it cannot use. Host-only.

#include <stdexcept>

namespace kbench {

/// A config, thresholds or results file (or a part of one) that cannot be used; what() is the
/// whole one-line message: the file, the JSON path or line and column, what was found and what
/// was expected. Commands turn it into exit code 2 (README: Exit codes).
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace kbench
