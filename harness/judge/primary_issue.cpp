#include "harness/judge/primary_issue.hpp"

#include "harness/report/report_format.hpp"
#include "harness/results/result_queries.hpp"

#include <fmt/format.h>

#include <cmath>

namespace kbench {

namespace {

/// True when the trace shows one activity taking nearly all of a call's GPU time: the other
/// kernels (a two-stage reduction's final pass, say) are not what limits the row.
bool dominated_by_one_activity(const CaseResult& row) {
  if (!row.breakdown || !(row.breakdown->gpu_ms_per_call > 0)) return false;
  const KernelActivity* main = row.breakdown->dominant();
  return main != nullptr && main->mean_ms * main->launches_per_call >= kDominantShare * row.breakdown->gpu_ms_per_call;
}

/// The tensor pipe's or the issue slots' use, appended to a compute-bound row's text; "" without counters.
std::string compute_counters_note(const CaseResult& row) {
  const KernelCounters* main = row.counters ? row.counters->longest() : nullptr;
  if (main == nullptr) return "";
  const bool tensor_math = row.traffic.math.find("tensor") != std::string::npos;
  if (const std::optional<double> tensor = main->tensor_pipe_pct(); tensor_math && tensor) {
    return fmt::format("; tensor pipe {:.0f}% busy", *tensor);
  }
  if (const std::optional<double> issue = main->value(counter_metric::issue_active_pct)) {
    return fmt::format("; issue slots {:.0f}% busy", *issue);
  }
  return "";
}

/// Sums a metric over every kernel of the call; nothing when no kernel has it.
std::optional<double> summed(const HardwareCounters& counters, const char* metric) {
  std::optional<double> total;
  for (const KernelCounters& k : counters.kernels) {
    if (const std::optional<double> v = k.value(metric)) total = total.value_or(0) + *v;
  }
  return total;
}

/// Sectors per request of global loads or stores over the whole call when they also moved well
/// over the op's minimum bytes through L1; nothing otherwise.
std::optional<double> uncoalesced_sectors(const HardwareCounters& counters, bool load, double minimum_bytes) {
  const std::optional<double> sectors =
      summed(counters, load ? counter_metric::global_load_sectors : counter_metric::global_store_sectors);
  const std::optional<double> requests =
      summed(counters, load ? counter_metric::global_load_requests : counter_metric::global_store_requests);
  if (!sectors || !requests || !(*requests > 0) || !(minimum_bytes > 0)) return std::nullopt;
  const double per_request = *sectors / *requests;
  if (per_request > kCoalescedSectorsPerRequest && *sectors * 32.0 >= kExcessSectorBytes * minimum_bytes) return per_request;
  return std::nullopt;
}

/// The share of the SMs' cycles over the kernel that its bank conflicts' extra wavefronts take;
/// nothing without the SM count, the row's measured SM clock or the kernel's duration.
std::optional<double> conflict_cycle_share(const CaseResult& row, const KernelCounters& kernel, int sm_count) {
  const ModeTiming* timing = row.headline();
  const std::optional<double> duration_ns = kernel.value(counter_metric::duration_ns);
  const std::optional<double> conflicts = kernel.bank_conflicts();
  if (timing == nullptr || !(timing->sm_clock_mhz > 0) || sm_count <= 0 || !duration_ns || !(*duration_ns > 0) || !conflicts) {
    return std::nullopt;
  }
  const double sm_cycles = sm_count * *duration_ns * timing->sm_clock_mhz * 1e-3;
  return *conflicts / sm_cycles;
}

/// The first counter rule (README: Primary issue) that holds for a memory-bound row; "" for none.
std::string memory_counters_issue(const CaseResult& row, int sm_count) {
  if (!row.counters) return "";
  const HardwareCounters& counters = *row.counters;
  const KernelCounters* main = counters.longest();
  if (main == nullptr) return "";
  const std::optional<double> atomics = main->atomic_requests();
  const std::optional<double> loads = main->value(counter_metric::global_load_requests);
  const double minimum_kib = row.traffic.bytes_total() / 1024.0;
  if (atomics && *atomics > 0 && *atomics >= kAtomicRequestsPerKiB * minimum_kib &&
      (!loads || *atomics >= kAtomicsPerLoadRequest * *loads)) {
    return loads && *loads > 0 ? fmt::format("atomics: {:.2f} atomic requests per load request", *atomics / *loads)
                               : "atomics: no global loads besides them";
  }
  if (const std::optional<double> dram = counters.dram_bytes_per_call();
      dram && row.traffic.bytes_total() > 0 && *dram >= kExtraTrafficRatio * row.traffic.bytes_total()) {
    return fmt::format("extra traffic: {:.1f}× the minimum bytes", *dram / row.traffic.bytes_total());
  }
  for (const bool load : {true, false}) {
    const double minimum = load ? row.traffic.bytes_read : row.traffic.bytes_written;
    if (const std::optional<double> s = uncoalesced_sectors(counters, load, minimum)) {
      const std::optional<double> sectors =
          summed(counters, load ? counter_metric::global_load_sectors : counter_metric::global_store_sectors);
      const char* access = load ? "load" : "store";
      const double ratio = *sectors * 32.0 / minimum;
      if (*s > kWideAccessSectorsPerRequest) {
        return fmt::format("uncoalesced: {:.1f} sectors per {} request ({:.1f}× the minimum bytes through L1)", *s,
                           access, ratio);
      }
      return fmt::format("re-read or strided: {:.1f}× the minimum bytes through L1 ({:.1f} sectors per {} request)",
                         ratio, *s, access);
    }
  }
  if (const std::optional<double> conflicts = main->bank_conflict_fraction(); conflicts && *conflicts >= kBankConflictFraction) {
    const std::optional<double> share = conflict_cycle_share(row, *main, sm_count);
    if (!share) return fmt::format("shared-memory bank conflicts: {:.0f}% of shared wavefronts", 100 * *conflicts);
    if (*share >= kBankConflictCycleShare) {
      return fmt::format("shared-memory bank conflicts: {:.0f}% of shared wavefronts ({:.0f}% of the SMs' cycles)",
                         100 * *conflicts, 100 * *share);
    }
  }
  if (const std::optional<double> warps = main->value(counter_metric::warps_active_pct); warps && *warps < kLowOccupancyPct) {
    const KernelActivity* traced = row.breakdown ? row.breakdown->dominant() : nullptr;
    if (traced != nullptr && traced->is_kernel() && sm_count > 0) {
      return fmt::format("low occupancy: {:.0f}% warps active ({} blocks for {} SMs)", *warps, traced->blocks(), sm_count);
    }
    return fmt::format("low occupancy: {:.0f}% warps active", *warps);
  }
  return "";
}

}  // namespace

std::string primary_issue(const CaseResult& row, int sm_count) {
  if (row.status != CaseStatus::passed) return std::string(status_name(row.status));
  const double median = headline_ms(row);
  if (median <= 0) return "not timed";

  const long kernels = row.breakdown ? std::lround(row.breakdown->kernels_per_call) : row.kernels_per_call;
  if (kernels > 1 && !dominated_by_one_activity(row)) return fmt::format("unfused: {} kernels per call", kernels);

  const ModeTiming* hot = row.timing(MeasureMode::hot);
  const ModeTiming* eager = row.timing(MeasureMode::eager);
  if (hot != nullptr && eager != nullptr && hot->stats.median > 0) {
    if (eager->stats.median >= kLaunchOverheadRatio * hot->stats.median) {
      return fmt::format("launch overhead: eager {} vs hot {}", format_ms(eager->stats.median),
                         format_ms(hot->stats.median));
    }
  } else if (median < kLaunchLatencyMs) {
    return "launch latency";
  }

  if (const KernelActivity* main = row.breakdown ? row.breakdown->dominant() : nullptr;
      main != nullptr && main->is_kernel() && sm_count > 0 && main->blocks() < sm_count) {
    return fmt::format("under-filled grid: {} blocks for {} SMs", main->blocks(), sm_count);
  }
  if (row.bound == Bound::compute) {
    return fmt::format("compute bound: {:.0f}% of peak FLOP/s{}", 100 * row.compute_efficiency, compute_counters_note(row));
  }

  const ModeTiming* headline = row.headline();
  if (headline != nullptr && headline->mode == MeasureMode::hot && headline->l2_resident) return "L2-resident";
  if (row.roof_fraction && *row.roof_fraction >= kAtRoofFraction) return "at memory roof";
  if (std::string issue = memory_counters_issue(row, sm_count); !issue.empty()) return issue;
  if (!row.roof_fraction) return "memory bound (no roof row)";
  return fmt::format("memory bound: {:.0f}% of roof", 100 * *row.roof_fraction);
}

}  // namespace kbench
