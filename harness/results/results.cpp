#include "harness/results/results.hpp"

namespace kbench {

const ModeTiming* CaseResult::timing(MeasureMode mode) const {
  for (const ModeTiming& t : timings)
    if (t.mode == mode) return &t;
  return nullptr;
}

const ModeTiming* CaseResult::headline() const {
  if (const ModeTiming* cold = timing(MeasureMode::cold)) return cold;
  return timings.empty() ? nullptr : &timings.front();
}

bool CaseResult::contended() const {
  for (const ModeTiming& t : timings)
    if (t.telemetry && t.telemetry->contended()) return true;
  return false;
}

}  // namespace kbench

namespace kbench {

const DeviceInfo& device_of(const RunResults& results, const CaseResult& row) {
  return row.device < results.devices.size() ? results.devices[row.device] : results.device;
}

}  // namespace kbench
