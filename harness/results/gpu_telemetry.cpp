#include "harness/results/gpu_telemetry.hpp"

namespace kbench {

std::string contention_warning(const ModeTelemetry& telemetry) {
  std::string pids;
  for (const std::int64_t pid : telemetry.other_processes) pids += (pids.empty() ? "" : ", ") + std::to_string(pid);
  return "another process used the GPU while this mode was sampled (pid " + pids +
         "): its time may include their work; the gate does not judge it";
}

}  // namespace kbench
