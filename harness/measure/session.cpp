#include "harness/measure/session.hpp"

#include "harness/device/build_info.hpp"
#include "harness/device/device_setup.hpp"
#include "harness/results/metrics.hpp"
#include "harness/device/provenance.hpp"

#include <stdexcept>

namespace kbench {

DeviceInfo open_device(int index, const PeakOverrides& peaks, std::string& warning) {
  warning = select_device(index);
  DeviceInfo device = query_device_info(index);
  apply_peak_overrides(device, peaks);
  return device;
}

RunResults run_session(const Plan& plan, const DeviceInfo& device, const SessionOptions& options,
                       const ProblemDoneFn& on_problem_done, const PartialResultsFn& on_partial) {
  if (!options.band_policy) throw std::invalid_argument("run_session: no band policy (load the thresholds first)");
  RunResults results;
  results.build = build_info();
  results.device = device;
  results.settings = options.settings;
  results.command_line = options.command_line;
  results.utc_time = utc_now_iso8601();
  results.host = host_name();
  results.seed = options.seed;
  results.plan = options.plan_identity;
  results.devices = options.devices;

  RunResults so_far = results;
  so_far.run_state = RunState::in_progress;
  const ProblemDoneFn each_problem = [&](const std::vector<CaseResult>& rows) {
    if (on_problem_done) on_problem_done(rows);
    if (!on_partial) return;
    so_far.cases.insert(so_far.cases.end(), rows.begin(), rows.end());
    derive_metrics(so_far, options.band_policy);
    on_partial(so_far);
  };
  RunOutcome outcome =
      options.run_plan_with
          ? options.run_plan_with(plan, each_problem)
          : run_plan(plan, device, options.settings, options.seed, each_problem, options.stop_requested, options.extras);
  results.notes = std::move(outcome.notes);
  results.run_state = outcome.context_lost ? RunState::context_lost
                      : outcome.interrupted  ? RunState::interrupted
                                             : RunState::complete;
  results.cases = std::move(outcome.rows);
  for (const SkippedEntry& skipped : plan.skipped) {
    for (CaseResult& row : planned_rows(skipped.entry)) {
      row.message = "skipped by the config: " + skipped.reason;
      results.cases.push_back(std::move(row));
    }
  }
  derive_metrics(results, options.band_policy);
  return results;
}

}  // namespace kbench
