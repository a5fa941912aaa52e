#include "harness/device/provenance.hpp"

#include <unistd.h>

#include <ctime>

namespace kbench {

std::string utc_now_iso8601() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return buffer;
}

std::string host_name() {
  char buffer[256] = {};
  if (gethostname(buffer, sizeof buffer - 1) != 0) return "unknown";
  return buffer;
}

std::string join_command_line(int argc, const char* const* argv) {
  std::string line;
  for (int i = 0; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.find_first_of(" \t'\"") != std::string::npos) {
      std::string quoted = "'";
      for (char ch : arg) quoted += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
      arg = quoted + "'";
    }
    line += (i ? " " : "") + arg;
  }
  return line;
}

}  // namespace kbench
