#pragma once
/// Where and when a run happened. Host-only.

#include <string>

namespace kbench {

/// Current UTC time as ISO 8601 ("2026-11-22T03:04:05Z").
std::string utc_now_iso8601();

/// This machine's host name, or "unknown".
std::string host_name();

/// argv joined with spaces, arguments with spaces or quotes single-quoted.
std::string join_command_line(int argc, const char* const* argv);

}  // namespace kbench
