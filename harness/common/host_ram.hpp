#pragma once
/// How much host memory the system can still give a process, so that a case whose inputs and
/// references would not fit is skipped with the numbers instead of the whole run being killed by
/// the kernel's out-of-memory handler mid-case. Host-only.

#include <optional>
#include <string>
#include <string_view>

namespace kbench {

/// MemAvailable of a /proc/meminfo text, in bytes; nullopt where the line is missing or not a
/// count of kB.
std::optional<double> parse_mem_available(std::string_view meminfo);

/// MemAvailable of this system (Linux); nullopt where it cannot be read.
std::optional<double> available_host_bytes();

/// Empty when `needed` bytes fit in `available`; else a line saying both, in GiB.
std::string host_memory_shortfall(double needed, double available);

}  // namespace kbench
