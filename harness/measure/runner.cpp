#include "harness/measure/runner.hpp"

#include "harness/common/host_ram.hpp"

#include "harness/ops/copy_roof.hpp"
#include "harness/device/cuda_check.hpp"
#include "harness/device/cuda_resources.hpp"
#include "harness/measure/counter_profiler.hpp"
#include "harness/measure/gpu_telemetry_sampler.hpp"
#include "harness/measure/kernel_tracer.hpp"
#include "harness/measure/l2_flush.hpp"
#include "harness/measure/long_calls.hpp"
#include "harness/measure/measure.hpp"
#include "harness/device/nvtx_range.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <memory>

namespace kbench {

std::vector<CaseResult> planned_rows(const PlanEntry& entry) {
  CaseResult common;
  common.op = entry.op->name();
  common.dtype = std::string(dtype_name(entry.problem.dtype));
  common.size_class = entry.problem.size_class;
  common.shape = entry.problem.shape;
  common.elements = element_count(entry.problem.shape);
  common.traffic = entry.op->traffic(entry.problem);
  common.message = "not run";

  std::vector<CaseResult> rows;
  const std::vector<VariantInfo> variants = entry.op->variants();
  for (std::size_t index : entry.variants) {
    CaseResult row = common;
    row.variant = variants[index].name;
    row.role = variants[index].role;
    row.source = variants[index].source;
    row.kernels_per_call = variants[index].kernels_per_call;
    rows.push_back(row);
  }
  if (entry.copy_roof) {
    const VariantInfo roof = copy_roof_variant();
    CaseResult row = common;
    row.variant = roof.name;
    row.role = roof.role;
    row.kernels_per_call = roof.kernels_per_call;
    row.traffic.flops = 0;  // the same bytes, no arithmetic: a roof row is always memory bound
    rows.push_back(row);
  }
  return rows;
}

namespace {

/// Empty when the device has room for the problem's buffers, else why the rows are skipped.
std::string lacks_memory(const Op& op, const Problem& problem) {
  std::size_t free_bytes = 0, total_bytes = 0;
  KBENCH_CUDA_CALL(cudaMemGetInfo(&free_bytes, &total_bytes));
  // The op's own estimate, or the copy roof's two buffers of half the traffic, whichever is
  // larger, plus room for the allocator's granularity and library workspaces.
  const double needed = std::max(op.device_bytes(problem), op.traffic(problem).bytes_total()) + 64.0 * (1 << 20);
  if (needed <= static_cast<double>(free_bytes)) return {};
  return fmt::format("needs about {:.0f} MiB of device memory, {:.0f} MiB free", needed / 1048576.0,
                     static_cast<double>(free_bytes) / 1048576.0);
}

/// Empty when the host has room for the problem's inputs and references (or cannot say), else why
/// the rows are skipped: a process the kernel kills for memory loses every case, not one.
std::string lacks_host_memory(const Op& op, const Problem& problem) {
  const double needed = op.host_bytes(problem);
  if (needed <= 0) return {};
  const std::optional<double> available = available_host_bytes();
  if (!available) return {};
  return host_memory_shortfall(needed + 256.0 * (1 << 20), *available);
}

/// Adds the host wall time of its scope to `into`, in seconds, also when the scope throws.
class AddElapsed {
 public:
  explicit AddElapsed(double& into) : into_(into) {}
  AddElapsed(const AddElapsed&) = delete;
  AddElapsed& operator=(const AddElapsed&) = delete;
  ~AddElapsed() { into_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }

 private:
  double& into_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

/// SplitMix-style mixing so that neighbouring problems get unrelated inputs.
std::uint64_t mix_seed(std::uint64_t seed, std::uint64_t index) {
  std::uint64_t z = seed + 0x9E3779B97F4A7C15ull * (index + 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/// The seed of one problem's inputs: the run's seed mixed with the case's identity (op, dtype,
/// shape), not its position, so a shard, a worker process or a filtered run draws the inputs the
/// whole run draws for the same case.
std::uint64_t case_seed(std::uint64_t seed, const std::string& op, const Problem& problem) {
  std::uint64_t hash = 0xcbf29ce484222325ull;  // FNV-1a, 64 bits
  const std::string identity = op + '/' + std::string(dtype_name(problem.dtype)) + '/' + format_shape(problem.shape);
  for (const unsigned char c : identity) hash = (hash ^ c) * 0x100000001b3ull;
  return mix_seed(seed, hash);
}

/// A sticky CUDA error: the context is gone and nothing more can run in this process.
struct ContextLost : std::runtime_error {
  using std::runtime_error::runtime_error;
};

void record_error(CaseResult& row, const std::exception& error) {
  row.status = CaseStatus::error;
  row.message = error.what();
  if (const auto* cuda = dynamic_cast<const CudaError*>(&error); cuda && is_sticky_cuda_error(cuda->code())) {
    throw ContextLost(error.what());
  }
}

ModeTiming to_mode_timing(Measurement&& m, bool keep_samples) {  // samples kept or dropped here, before the row is stored
  ModeTiming t;
  t.mode = m.mode;
  if (keep_samples) t.samples_ms = std::move(m.samples_ms);
  t.stats = m.stats;
  t.warmup_calls = m.warmup_calls;
  t.calls_per_sample = m.calls_per_sample;
  t.timed_out = m.timed_out;
  t.stop_reason = m.stop_reason;
  t.l2_resident = m.l2_resident;
  t.sm_clock_mhz = m.sm_clock_mhz;
  t.min_sm_clock_mhz = m.min_sm_clock_mhz;
  t.low_clock_samples = m.low_clock_samples;
  t.warnings = std::move(m.warnings);
  t.telemetry = std::move(m.telemetry);
  if (t.telemetry && t.telemetry->contended()) t.warnings.push_back(contention_warning(*t.telemetry));
  t.warmup_s = m.warmup_s;
  t.wall_s = m.wall_time_s;
  return t;
}

/// "add vectorized fp32 4096x4096": the row's NVTX range name.
std::string row_label(const CaseResult& row) {
  return fmt::format("{} {} {} {}", row.op, row.variant, row.dtype, format_shape(row.shape));
}

/// Launches the row once inside an NVTX "profile" range, for a profiler attached to kbench; with
/// `calls` > 1, captures that many back-to-back calls in a graph (as hot mode does) and replays
/// the graph once inside the range, so a graph-level profiler sees hot mode's steady state.
void launch_for_profiler(const LaunchFn& launch, int calls, CaseResult& row, cudaStream_t stream) {
  if (calls <= 1) {
    const NvtxRange range("profile");
    launch(stream);
    KBENCH_CUDA_CALL(cudaStreamSynchronize(stream));
    row.status = CaseStatus::skipped;
    row.message = "verified (" + row.message + "), then launched once for a profiler (--profile): not timed";
    return;
  }
  const CapturedGraph graph(stream, [&](cudaStream_t s) {
    for (int i = 0; i < calls; ++i) launch(s);
  });
  graph.launch(stream);  // the first replay uploads the graph; keep it out of the range
  KBENCH_CUDA_CALL(cudaStreamSynchronize(stream));
  {
    const NvtxRange range("profile");
    graph.launch(stream);
    KBENCH_CUDA_CALL(cudaStreamSynchronize(stream));
  }
  row.status = CaseStatus::skipped;
  row.message = fmt::format("verified ({}), then a graph of {} back-to-back calls replayed once for a profiler "
                            "(--profile --profile-calls {}): not timed; divide the graph's time by {}",
                            row.message, calls, calls, calls);
}

/// Traces a few calls with CUPTI after the timed samples; once CUPTI proves unusable, the run
/// notes why (once) and goes on without breakdowns.
void trace_kernels(const LaunchFn& launch, CaseResult& row, cudaStream_t stream, int calls,
                   std::vector<std::string>& notes) {
  KernelTracer& tracer = KernelTracer::instance();
  if (tracer.unavailable_reason().empty()) {
    const NvtxRange range("kernel breakdown");
    row.breakdown = tracer.trace(launch, stream, calls);
  }
  if (!row.breakdown && !tracer.unavailable_reason().empty()) {
    const std::string note = "no kernel breakdown: " + tracer.unavailable_reason();
    if (std::find(notes.begin(), notes.end(), note) == notes.end()) notes.push_back(note);
  }
}

/// Adds `note` to the run's notes unless it is there already.
void note_once(std::vector<std::string>& notes, const std::string& note) {
  if (std::find(notes.begin(), notes.end(), note) == notes.end()) notes.push_back(note);
}

/// Profiles one more call with CUPTI's range profiler, after an L2 flush (as cold mode runs it);
/// once counters prove unavailable, the run notes why (once) and goes on without them.
void collect_counters(const LaunchFn& launch, CaseResult& row, const MeasureContext& context, std::vector<std::string>& notes) {
  CounterProfiler& profiler = CounterProfiler::instance();
  if (profiler.unavailable_reason().empty()) {
    const NvtxRange range("counters");
    PassPrologue flush;
    if (context.flusher != nullptr) flush = {[&](cudaStream_t s) { context.flusher->flush(s); }, L2Flusher::kKernelsPerFlush};
    row.counters = profiler.profile(launch, flush, context.stream);
  }
  if (!profiler.missing_metrics().empty()) {
    std::string names;
    for (const std::string& m : profiler.missing_metrics()) names += (names.empty() ? "" : ", ") + m;
    note_once(notes, "hardware counters without " + names + " (this GPU does not offer them)");
  }
  if (!row.counters && !profiler.unavailable_reason().empty()) {
    note_once(notes, "no hardware counters: " + profiler.unavailable_reason() + "; the rows keep their timings");
  }
}

/// Verifies one variant, then times it in each of `modes` if it is correct. A mode that
/// fails (a call that cannot be captured in a graph, say) is noted; the other modes still count.
void verify_and_time(Workload& workload, std::size_t variant, CaseResult& row, const MeasureContext& context,
                     const MeasureSettings& settings, const std::vector<MeasureMode>& modes, const RunExtras& extras,
                     std::vector<std::string>& notes) {
  const NvtxRange case_range(row_label(row));
  RowWallTime& wall = row.wall ? *row.wall : row.wall.emplace();
  if (const std::string why = workload.cannot_run(variant); !why.empty()) {
    row.status = CaseStatus::skipped;
    row.message = "skipped: " + why;
    return;
  }
  try {
    const NvtxRange verify_range("verify");
    const AddElapsed verifying(wall.verify_s);
    workload.prepare_call(variant);  // host work (scratch, handles): before the call watchdog
    const CallsInFlight in_flight(context.heartbeat, 2);  // one call per input set
    const Verification check = workload.verify(variant, context.stream);
    row.mismatches = check.mismatches;
    row.max_abs_error = check.max_abs_error;
    row.rel_l2_error = check.rel_l2_error;
    row.message = check.message;
    row.first_call_ms = check.first_call_ms;
    if (!check.passed) {
      row.status = CaseStatus::incorrect;
      return;
    }
  } catch (const std::exception& error) {
    record_error(row, error);
    return;
  }
  const LaunchFn launch = [&](cudaStream_t s) { workload.launch(variant, s); };
  if (extras.profile) {
    try {
      const CallsInFlight in_flight(context.heartbeat, 2 * extras.profile_calls);  // graph: upload, then replay
      launch_for_profiler(launch, extras.profile_calls, row, context.stream);
    } catch (const std::exception& error) {
      record_error(row, error);
    }
    return;
  }
  std::string failures;
  for (const MeasureMode mode : modes) {
    const AddElapsed timing(wall.timing_s);
    try {
      row.timings.push_back(
          to_mode_timing(measure(mode, launch, context, settings, row.traffic.bytes_total()),
                         keeps_samples(settings.keep_samples, mode, planned_headline_mode(modes))));
    } catch (const CudaError& error) {
      if (is_sticky_cuda_error(error.code())) record_error(row, error);
      failures += "; " + std::string(mode_name(mode)) + " mode not measured: " + error.what();
    } catch (const std::exception& error) {
      failures += "; " + std::string(mode_name(mode)) + " mode not measured: " + error.what();
    }
  }
  row.message += failures;
  if (row.timings.empty()) {
    row.status = CaseStatus::error;
    row.message = "no mode could be measured" + failures;
  } else {
    row.status = CaseStatus::passed;
    if (extras.kernel_breakdown) {
      try {
        const AddElapsed tracing(wall.breakdown_s);
        // A long call's kernels are the same on every call: one traced call tells them.
        const int calls = is_long_call(row.timings.front().stats.median)
                              ? 1 : extras.breakdown_calls;
        const CallsInFlight in_flight(context.heartbeat, calls);
        trace_kernels(launch, row, context.stream, calls, notes);
      } catch (const CudaError& error) {
        if (is_sticky_cuda_error(error.code())) record_error(row, error);
        row.message += std::string("; kernel breakdown failed: ") + error.what();
      }
    }
    if (settings.counters != 0) {
      try {
        const AddElapsed profiling(wall.counters_s);
        const CallsInFlight in_flight(context.heartbeat, 1);
        collect_counters(launch, row, context, notes);
      } catch (const CudaError& error) {
        if (is_sticky_cuda_error(error.code())) record_error(row, error);
        row.message += std::string("; hardware counters failed: ") + error.what();
      } catch (const std::exception& error) {
        row.message += std::string("; hardware counters failed: ") + error.what();
      }
    }
  }
}

}  // namespace

RunOutcome run_plan(const Plan& plan, const DeviceInfo& device, const MeasureSettings& settings, std::uint64_t seed,
                    const ProblemDoneFn& on_problem_done, const std::atomic<bool>* stop_requested,
                    const RunExtras& extras) {
  RunOutcome outcome;
  const auto stopping = [&] {
    if (stop_requested != nullptr && stop_requested->load()) outcome.interrupted = true;
    return outcome.interrupted;
  };
  const std::vector<MeasureMode> modes = parse_modes(settings.modes);  // once per run, not per row
  CudaStream stream;
  const MeasureResources resources(stream.get(), device.l2_bytes, device.sm_clock_khz, settings.flush_l2 != 0);
  MeasureContext context = resources.context();
  GpuTelemetrySampler telemetry(device.pci_bus_id);  // after the context exists: see its header
  if (telemetry.available()) {
    context.telemetry = &telemetry;
    if (!telemetry.processes_note().empty()) outcome.notes.push_back(telemetry.processes_note());
  } else {
    outcome.notes.push_back("no GPU telemetry (energy, power, temperature, other processes): " + telemetry.unavailable_reason());
  }
  context.heartbeat = Heartbeat(extras.heartbeat);
  context.heartbeat.calls_completed();  // ready: nothing in flight

  for (std::size_t p = 0; p < plan.entries.size(); ++p) {
    const PlanEntry& entry = plan.entries[p];
    std::vector<CaseResult> rows = planned_rows(entry);
    const auto skip_unrun = [&](const std::string& why) {
      for (CaseResult& row : rows)
        if (row.status == CaseStatus::skipped) row.message = "skipped: " + why;
    };
    if (outcome.context_lost || stopping()) {
      skip_unrun(outcome.context_lost ? "the CUDA context was lost in an earlier case"
                                      : "the run was interrupted (SIGINT or SIGTERM) before this case");
      outcome.rows.insert(outcome.rows.end(), rows.begin(), rows.end());
      continue;
    }
    const auto row_done = [&](std::size_t r) {
      if (extras.on_row_done) extras.on_row_done(p, r, rows[r]);
    };
    // Reports the row once its work is over, also when that work lost the context.
    const auto finish_row = [&](std::size_t r, const std::function<void()>& work) {
      try {
        work();
      } catch (const ContextLost&) {
        row_done(r);
        throw;
      }
      row_done(r);
    };
    std::string why = lacks_memory(*entry.op, entry.problem);
    if (why.empty()) why = lacks_host_memory(*entry.op, entry.problem);
    if (!why.empty()) {
      skip_unrun(why);
      for (std::size_t r = 0; r < rows.size(); ++r) row_done(r);
      if (on_problem_done) on_problem_done(rows);
      outcome.rows.insert(outcome.rows.end(), rows.begin(), rows.end());
      continue;
    }
    const std::uint64_t problem_seed = case_seed(seed, entry.op->name(), entry.problem);
    try {
      std::size_t r = 0;
      {
        std::unique_ptr<Workload> workload;
        try {
          const AddElapsed preparing(rows.front().wall.emplace().prepare_s);
          workload = entry.op->prepare(entry.problem, problem_seed);
        } catch (const std::exception& error) {
          for (std::size_t i = 0; i < entry.variants.size(); ++i) finish_row(i, [&] { record_error(rows[i], error); });
        }
        for (; workload && r < entry.variants.size() && !stopping(); ++r) {
          finish_row(r, [&] {
            verify_and_time(*workload, entry.variants[r], rows[r], context, settings, modes, extras, outcome.notes);
          });
        }
      }  // the op's buffers are freed before the roof allocates its own
      if (entry.copy_roof && !stopping()) {
        CaseResult& row = rows.back();
        finish_row(rows.size() - 1, [&] {
          try {
            std::unique_ptr<Workload> roof;
            {
              const AddElapsed preparing(row.wall ? row.wall->prepare_s : row.wall.emplace().prepare_s);
              roof = prepare_copy_roof(copy_roof_bytes(row.traffic), problem_seed ^ 0xC0FFEEull);
            }
            verify_and_time(*roof, 0, row, context, settings, modes, extras, outcome.notes);
          } catch (const ContextLost&) {
            throw;
          } catch (const std::exception& error) {
            record_error(row, error);
          }
        });
      }
      if (outcome.interrupted) skip_unrun("the run was interrupted (SIGINT or SIGTERM) before this row");
    } catch (const ContextLost& lost) {
      outcome.context_lost = true;
      skip_unrun(std::string("CUDA context lost: ") + lost.what());
    }
    if (on_problem_done) on_problem_done(rows);
    outcome.rows.insert(outcome.rows.end(), rows.begin(), rows.end());
  }
  return outcome;
}

}  // namespace kbench
