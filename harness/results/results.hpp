#pragma once
/// The results document: what a run measured, self-described. Host-only; reporters and the gate
/// read only this. Its JSON form is documented in results/SCHEMA.md.

#include "harness/common/enum_names.hpp"
#include "harness/config/measure_mode.hpp"
#include "harness/config/measure_settings.hpp"
#include "harness/device/build_info.hpp"
#include "harness/device/device_info.hpp"
#include "harness/ops/problem.hpp"
#include "harness/ops/traffic.hpp"
#include "harness/ops/variant_role.hpp"
#include "harness/results/gpu_telemetry.hpp"
#include "harness/results/hardware_counters.hpp"
#include "harness/results/kernel_breakdown.hpp"
#include "harness/results/stats.hpp"
#include "harness/results/status_bands.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kbench {

/// Bumped whenever a field changes meaning or disappears.
constexpr int kResultsSchemaVersion = 1;
/// The most rows a results file may hold: reports, compare and the gate match rows pairwise, so
/// this bounds them to seconds. A run that would write more is refused before it starts.
constexpr std::size_t kMaxResultsRows = 10000;

/// The source of kbench's own variants (CaseResult::source, VariantInfo::source).
constexpr const char* kKbenchSource = "kbench";

enum class CaseStatus {
  passed,     ///< verified against the reference, then timed
  incorrect,  ///< verification failed: not timed
  error,      ///< a CUDA or other error stopped the case
  skipped,    ///< not run, with the reason in `message`
};

template <>
struct EnumNames<CaseStatus> {
  static constexpr std::array<EnumName<CaseStatus>, 4> table{{{CaseStatus::passed, "passed"},
                                                              {CaseStatus::incorrect, "incorrect"},
                                                              {CaseStatus::error, "error"},
                                                              {CaseStatus::skipped, "skipped"}}};
};

/// "passed", "incorrect", "error" or "skipped".
constexpr std::string_view status_name(CaseStatus status) { return enum_name(status); }

/// Which floor limits a timed case: moving its bytes at peak bandwidth or doing its FLOPs at peak.
enum class Bound {
  memory,   ///< bytes / peak bandwidth is the larger floor
  compute,  ///< FLOPs / peak FLOP/s is the larger floor
};

template <>
struct EnumNames<Bound> {
  static constexpr std::array<EnumName<Bound>, 2> table{{{Bound::memory, "memory"}, {Bound::compute, "compute"}}};
};

/// How far a run got.
enum class RunState {
  complete,      ///< every planned row ran
  in_progress,   ///< a copy written after each problem
  interrupted,   ///< SIGINT or SIGTERM: unfinished rows are skipped
  context_lost,  ///< a sticky CUDA error ended the run
};

template <>
struct EnumNames<RunState> {
  static constexpr std::array<EnumName<RunState>, 4> table{{{RunState::complete, "complete"},
                                                            {RunState::in_progress, "in_progress"},
                                                            {RunState::interrupted, "interrupted"},
                                                            {RunState::context_lost, "context_lost"}}};
};

/// How one variant was sampled in one measurement mode.
struct ModeTiming {
  MeasureMode mode = MeasureMode::cold;  ///< the mode these samples were taken in
  std::vector<double> samples_ms;   ///< per-call time of each sample, in order
  SampleStats stats;                ///< of samples_ms, in milliseconds
  int warmup_calls = 0;
  int calls_per_sample = 1;         ///< >1 when a sample times several back-to-back calls (hot mode)
  bool timed_out = false;           ///< stopped at the timeout before min_samples
  std::string stop_reason;          ///< why sampling stopped (harness/measure/stopping_rule.hpp)
  bool l2_resident = false;         ///< hot mode: the working set fits in L2, so it is served from there
  double sm_clock_mhz = 0;          ///< median SM clock measured between batches
  double min_sm_clock_mhz = 0;      ///< lowest SM clock measured
  int low_clock_samples = 0;        ///< samples taken while the clock was below clock_floor x peak
  int processes = 1;                ///< processes whose samples were pooled into this timing (--repeat)
  std::vector<std::string> warnings;  ///< what a reader of this timing must know
  /// NVML's readings while this mode was sampled; none without NVML (harness/measure/gpu_telemetry_sampler.hpp).
  std::optional<ModeTelemetry> telemetry;
  double warmup_s = 0;  ///< host wall time of the warm-up
  double wall_s = 0;    ///< host wall time of the whole mode: warm-up, graph capture and sampling
};

/// Where one row's host wall time went, in seconds (steady clock): what a sweep's length is made of.
struct RowWallTime {
  /// Drawing the inputs, computing the float64 references and allocating the buffers: the whole
  /// problem's, counted on its first row (the copy-roof row counts its own buffers).
  double prepare_s = 0;
  double verify_s = 0;     ///< the variant's setup and its verified calls, with the copies and comparisons
  double timing_s = 0;     ///< every measurement mode, warm-ups included
  double breakdown_s = 0;  ///< the CUPTI kernel trace
  double counters_s = 0;   ///< the hardware-counter passes (--counters)
  double total_s() const { return prepare_s + verify_s + timing_s + breakdown_s + counters_s; }
};

/// One op x variant x shape x dtype.
struct CaseResult {
  std::string op;
  std::string variant;
  VariantRole role = VariantRole::own;  ///< as the op declares it; roof for the copy-roof row
  /// Where the variant was declared: "kbench", or the path of a plugin or kernel file.
  std::string source = kKbenchSource;
  int kernels_per_call = 1;  ///< as the op declares it for this variant
  std::string dtype;
  std::string size_class;
  Shape shape;
  std::int64_t elements = 0;
  Traffic traffic;

  CaseStatus status = CaseStatus::skipped;
  std::string message;     ///< verification summary, error text or skip reason

  // Verification (meaningful when status is passed or incorrect).
  std::int64_t mismatches = 0;
  double max_abs_error = 0;
  double rel_l2_error = 0;
  /// Wall time of the variant's first call on this case's inputs (ms): launch to stream drained,
  /// before any warm-up, lazy module loading and first touch included; none when not called.
  std::optional<double> first_call_ms;

  // Timing (status passed): one entry per measurement mode, in the order measured.
  std::vector<ModeTiming> timings;
  /// The mode headline figures come from: cold when measured, else the first measured.
  const ModeTiming* headline() const;
  /// The timing of `mode`, or nullptr.
  const ModeTiming* timing(MeasureMode mode) const;

  // Derived by harness/results/metrics.cpp from traffic, stats and the device's peaks.
  std::optional<MeasureMode> headline_mode;  ///< the mode the figures below come from; none when not timed
  double bandwidth_gbps = 0;              ///< traffic.bytes_total() / median time, 1e9 bytes/s
  double tflops = 0;                      ///< traffic.flops / median time, 1e12 FLOP/s
  double bandwidth_efficiency = 0;        ///< bandwidth over theoretical peak bandwidth, as a fraction
  double compute_efficiency = 0;          ///< FLOP/s over the peak of traffic.math; 0 when that peak is unknown
  std::optional<Bound> bound;             ///< which floor (bytes / peak, FLOPs / peak) is larger; none when not timed
  /// The headline efficiency: that larger floor over the median time, i.e. bandwidth_efficiency
  /// for memory-bound cases and compute_efficiency for compute-bound ones.
  double efficiency = 0;
  std::optional<double> roof_fraction;    ///< bandwidth over the copy roof's bandwidth
  std::optional<double> baseline_ms;      ///< median of the baseline variant for this problem
  std::optional<double> speed_ratio;      ///< baseline median / this median (>1: faster than baseline)
  std::optional<double> launch_overhead_ms;  ///< eager median - hot median, when both were measured
  std::optional<Band> band;               ///< none when not timed

  /// What one call ran on the GPU, from CUPTI (harness/measure/kernel_tracer.hpp); empty when not traced.
  std::optional<KernelBreakdown> breakdown;

  /// The device the row ran on: an index into RunResults::devices; 0 when that is empty.
  std::size_t device = 0;
  /// Hardware counters of one call, per kernel (`--counters`: harness/measure/counter_profiler.hpp); empty when not collected.
  std::optional<HardwareCounters> counters;
  /// Where the row's wall time went; none in files from before it was recorded.
  std::optional<RowWallTime> wall;
  /// Another process used the GPU while a mode of this row was sampled (its telemetry says so).
  bool contended() const;
};

/// Which plan a run's rows come from, so that shards of one sweep can be merged (kbench merge).
struct PlanIdentity {
  std::string fingerprint;           ///< harness/plan/plan_fingerprint.hpp: the whole plan and its settings
  std::vector<std::string> cases;    ///< "op dtype shape" of every case of the whole plan, in plan order
  std::size_t shard_index = 0;       ///< 0-based; written 1-based
  std::size_t shard_count = 1;       ///< 1: the run was not sharded
  std::string shard_source;          ///< "--shard", or the scheduler's variables that chose the shard
};

struct RunResults {
  int schema_version = kResultsSchemaVersion;
  BuildInfo build;
  DeviceInfo device;
  MeasureSettings settings;
  std::string command_line;
  std::string utc_time;    ///< ISO 8601, e.g. 2026-11-22T03:04:05Z
  std::string host;
  std::uint64_t seed = 0;  ///< base seed of the random inputs
  RunState run_state = RunState::complete;  ///< how far the run got
  std::vector<CaseResult> cases;
  /// Run-level notes a reader must see, e.g. why no kernel breakdown could be traced.
  std::vector<std::string> notes;
  /// Every device rows ran on (--devices, or shards merged from several hosts), devices[0] ==
  /// device; empty when all ran on `device`.
  std::vector<DeviceInfo> devices;
  /// The plan the rows come from; none in files from before plans were recorded.
  std::optional<PlanIdentity> plan;
};

/// The device `row` ran on: results.devices[row.device], or results.device when devices is empty.
const DeviceInfo& device_of(const RunResults& results, const CaseResult& row);

}  // namespace kbench
