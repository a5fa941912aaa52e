#pragma once
/// Hardware counters of one call of a variant, per kernel it launched: what CUPTI's range
/// profiler (harness/measure/counter_profiler.hpp) read in a pass of its own after the timed
/// samples. Values are keyed by the Nsight Compute metric name they come from, so a results
/// file can be checked against `ncu --metrics` directly (scripts/ncu_compare.sh). Host-only.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace kbench {

/// The metrics `--counters` asks for, as Nsight Compute names them. A device that lacks one is
/// profiled without it (a run note names it); the rules that need it then do not fire.
namespace counter_metric {
inline constexpr const char* duration_ns = "gpu__time_duration.sum";
inline constexpr const char* dram_read_bytes = "dram__bytes_read.sum";
inline constexpr const char* dram_write_bytes = "dram__bytes_write.sum";
inline constexpr const char* warps_active_pct = "sm__warps_active.avg.pct_of_peak_sustained_active";
inline constexpr const char* l2_hit_pct = "lts__t_sector_hit_rate.pct";
inline constexpr const char* global_load_sectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum";
inline constexpr const char* global_load_requests = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum";
inline constexpr const char* global_store_sectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum";
inline constexpr const char* global_store_requests = "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum";
inline constexpr const char* shared_load_conflicts = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum";
inline constexpr const char* shared_store_conflicts = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum";
inline constexpr const char* shared_load_wavefronts = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum";
inline constexpr const char* shared_store_wavefronts = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum";
inline constexpr const char* global_atom_requests = "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum";
inline constexpr const char* global_red_requests = "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum";
inline constexpr const char* l2_atom_sectors = "lts__t_sectors_op_atom.sum";
inline constexpr const char* l2_red_sectors = "lts__t_sectors_op_red.sum";
inline constexpr const char* issue_active_pct = "sm__inst_issued.avg.pct_of_peak_sustained_active";
inline constexpr const char* tensor_hmma_pct = "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active";
inline constexpr const char* tensor_gmma_pct = "sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active";
}  // namespace counter_metric

/// Every metric above, in the order they are collected and printed.
const std::vector<std::string>& counter_metric_names();

/// One kernel launch of the profiled call.
struct KernelCounters {
  std::string name;                       ///< demangled kernel name (CUPTI's range name)
  std::map<std::string, double> metrics;  ///< metric name -> value for this launch

  /// The metric's value, or nothing when it was not collected.
  std::optional<double> value(const std::string& metric) const;
  /// Sectors per request of global loads (`load`) or stores; nothing without requests.
  std::optional<double> sectors_per_request(bool load) const;
  /// Global atomic and reduction requests (atom + red); nothing when neither was collected.
  std::optional<double> atomic_requests() const;
  /// Shared-memory bank conflicts (loads and stores): extra wavefronts; nothing when not collected.
  std::optional<double> bank_conflicts() const;
  /// Shared-memory bank conflicts over shared wavefronts (loads and stores); nothing without wavefronts.
  std::optional<double> bank_conflict_fraction() const;
  /// The busier of the tensor pipes (mma.sync's hmma, Hopper's gmma), in percent.
  std::optional<double> tensor_pipe_pct() const;
};

struct HardwareCounters {
  int calls_profiled = 1;               ///< calls of the variant the values come from (one pass)
  std::vector<KernelCounters> kernels;  ///< one per kernel launch of the call, in launch order

  /// The launch that took longest (gpu__time_duration), else the first; nullptr when none.
  const KernelCounters* longest() const;
  /// DRAM bytes read plus written by all launches, per call; nothing without both metrics.
  std::optional<double> dram_bytes_per_call() const;
};

}  // namespace kbench
