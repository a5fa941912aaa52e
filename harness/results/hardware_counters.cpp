#include "harness/results/hardware_counters.hpp"

#include <algorithm>

namespace kbench {

const std::vector<std::string>& counter_metric_names() {
  using namespace counter_metric;
  static const std::vector<std::string> names{
      duration_ns,          dram_read_bytes,        dram_write_bytes,       warps_active_pct,
      l2_hit_pct,           global_load_sectors,    global_load_requests,   global_store_sectors,
      global_store_requests, shared_load_conflicts, shared_store_conflicts, shared_load_wavefronts,
      shared_store_wavefronts, global_atom_requests, global_red_requests,   l2_atom_sectors,
      l2_red_sectors,       issue_active_pct,       tensor_hmma_pct,        tensor_gmma_pct,
  };
  return names;
}

std::optional<double> KernelCounters::value(const std::string& metric) const {
  const auto found = metrics.find(metric);
  if (found == metrics.end()) return std::nullopt;
  return found->second;
}

namespace {

/// a + b where either is present; nothing when neither is.
std::optional<double> sum_present(std::optional<double> a, std::optional<double> b) {
  if (!a && !b) return std::nullopt;
  return a.value_or(0) + b.value_or(0);
}

}  // namespace

std::optional<double> KernelCounters::sectors_per_request(bool load) const {
  using namespace counter_metric;
  const std::optional<double> sectors = value(load ? global_load_sectors : global_store_sectors);
  const std::optional<double> requests = value(load ? global_load_requests : global_store_requests);
  if (!sectors || !requests || !(*requests > 0)) return std::nullopt;
  return *sectors / *requests;
}

std::optional<double> KernelCounters::atomic_requests() const {
  return sum_present(value(counter_metric::global_atom_requests), value(counter_metric::global_red_requests));
}

std::optional<double> KernelCounters::bank_conflicts() const {
  return sum_present(value(counter_metric::shared_load_conflicts), value(counter_metric::shared_store_conflicts));
}

std::optional<double> KernelCounters::bank_conflict_fraction() const {
  using namespace counter_metric;
  const std::optional<double> conflicts = bank_conflicts();
  const std::optional<double> wavefronts = sum_present(value(shared_load_wavefronts), value(shared_store_wavefronts));
  if (!conflicts || !wavefronts || !(*wavefronts > 0)) return std::nullopt;
  return *conflicts / *wavefronts;
}

std::optional<double> KernelCounters::tensor_pipe_pct() const {
  const std::optional<double> hmma = value(counter_metric::tensor_hmma_pct);
  const std::optional<double> gmma = value(counter_metric::tensor_gmma_pct);
  if (!hmma && !gmma) return std::nullopt;
  return std::max(hmma.value_or(0), gmma.value_or(0));
}

const KernelCounters* HardwareCounters::longest() const {
  const KernelCounters* best = nullptr;
  for (const KernelCounters& k : kernels) {
    if (best == nullptr || k.value(counter_metric::duration_ns).value_or(0) > best->value(counter_metric::duration_ns).value_or(0)) {
      best = &k;
    }
  }
  return best;
}

std::optional<double> HardwareCounters::dram_bytes_per_call() const {
  if (kernels.empty()) return std::nullopt;
  double bytes = 0;
  for (const KernelCounters& k : kernels) {
    const std::optional<double> read = k.value(counter_metric::dram_read_bytes);
    const std::optional<double> written = k.value(counter_metric::dram_write_bytes);
    if (!read || !written) return std::nullopt;
    bytes += *read + *written;
  }
  return bytes / std::max(1, calls_profiled);
}

}  // namespace kbench
