#include "harness/results/gpu_telemetry.hpp"

#include <algorithm>

namespace kbench {

std::string contention_warning(const ModeTelemetry& telemetry) {
  std::string pids;
  for (const std::int64_t pid : telemetry.other_processes) pids += (pids.empty() ? "" : ", ") + std::to_string(pid);
  return "another process used the GPU while this mode was sampled (pid " + pids +
         "): its time may include their work; the gate does not judge it";
}

namespace {

template <typename T>
void add_unique(std::vector<T>& to, const std::vector<T>& items) {
  for (const T& item : items)
    if (std::find(to.begin(), to.end(), item) == to.end()) to.push_back(item);
}

}  // namespace

std::optional<ModeTelemetry> pooled_telemetry(const std::vector<const ModeTelemetry*>& each) {
  std::optional<ModeTelemetry> out;
  double power_sum = 0, energy_sum = 0;
  int power_readings = 0, energies = 0;
  for (const ModeTelemetry* t : each) {
    if (t == nullptr) continue;
    if (!out) out.emplace();
    out->samples += t->samples;
    if (t->mean_power_w) {
      const int readings = std::max(1, t->samples);
      power_sum += *t->mean_power_w * readings;
      power_readings += readings;
    }
    if (t->energy_j_per_call) {
      energy_sum += *t->energy_j_per_call;
      ++energies;
    }
    if (t->max_temperature_c) out->max_temperature_c = std::max(out->max_temperature_c.value_or(*t->max_temperature_c), *t->max_temperature_c);
    add_unique(out->clock_event_reasons, t->clock_event_reasons);
    add_unique(out->other_processes, t->other_processes);
  }
  if (out && power_readings > 0) out->mean_power_w = power_sum / power_readings;
  if (out && energies > 0) out->energy_j_per_call = energy_sum / energies;
  return out;
}

}  // namespace kbench
