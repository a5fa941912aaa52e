#pragma once
/// kbench's error for input it cannot use. Host-only.

#include <stdexcept>
#include <string>

namespace kbench {

/// A config, thresholds or results file (or a part of one) that cannot be used; what() is the
/// whole one-line message: the file, the JSON path or line and column, what was found and what
/// was expected. Commands turn it into exit code 2 (README: Exit codes). The message keeps the
/// input's text as found (the printer escapes control characters), except a NUL byte, which a JSON
/// string may hold (\u0000) and which would end what(): it is written \x00.
class InputError : public std::runtime_error {
 public:
  explicit InputError(const std::string& message) : std::runtime_error(with_nul_escaped(message)) {}
  explicit InputError(const char* message) : std::runtime_error(message) {}

 private:
  static std::string with_nul_escaped(const std::string& message) {
    std::string out;
    out.reserve(message.size());
    for (const char c : message) {
      if (c == '\0') out += "\\x00";
      else out += c;
    }
    return out;
  }
};

}  // namespace kbench
