#include "harness/common/host_ram.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>

namespace kbench {

std::optional<double> parse_mem_available(std::string_view meminfo) {
  constexpr std::string_view kKey = "MemAvailable:";
  std::size_t at = 0;
  while (at < meminfo.size()) {
    const std::size_t end = std::min(meminfo.find('\n', at), meminfo.size());
    std::string_view line = meminfo.substr(at, end - at);
    at = end + 1;
    if (line.substr(0, kKey.size()) != kKey) continue;
    line.remove_prefix(kKey.size());
    while (!line.empty() && line.front() == ' ') line.remove_prefix(1);
    double kib = 0;
    std::size_t digits = 0;
    while (digits < line.size() && std::isdigit(static_cast<unsigned char>(line[digits])) != 0) {
      kib = kib * 10 + (line[digits] - '0');
      ++digits;
    }
    if (digits == 0 || line.substr(digits) != " kB") return std::nullopt;
    return kib * 1024.0;
  }
  return std::nullopt;
}

std::optional<double> available_host_bytes() {
  std::ifstream file("/proc/meminfo");
  if (!file) return std::nullopt;
  std::ostringstream text;
  text << file.rdbuf();
  return parse_mem_available(text.str());
}

std::string host_memory_shortfall(double needed, double available) {
  if (needed <= available) return {};
  constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
  return fmt::format("needs about {:.1f} GiB of host memory for its inputs and references, {:.1f} GiB available",
                     needed / kGiB, available / kGiB);
}

}  // namespace kbench
