#pragma once
/// When a worker's GPU calls count as hung (--kernel-timeout). Host-only.
///
/// Why a heartbeat watched by the parent, and not a watchdog thread in the worker: a worker whose
/// kernel spins forever may be stuck inside a CUDA call, or its process may be past saving; the
/// parent is outside all of that, so its SIGKILL always lands. The worker only publishes what it
/// knows (harness/common/heartbeat.hpp): since when calls are outstanding, and how many. The host
/// sees calls complete only where it synchronises, so each outstanding call is allowed the
/// timeout: a single call that runs longer than the timeout is caught within (calls in flight) x
/// timeout, exactly so when one call is in flight, and a batch of quick calls is never killed for
/// its length. Host work (building a reference, starting up) has no call in flight and no limit.

#include <cstdint>
#include <string>

namespace kbench {

/// Default of --kernel-timeout, in seconds.
constexpr double kDefaultKernelTimeoutS = 60;

/// True when `pending` calls, outstanding since `since_ns` (steady clock, ns), have taken longer
/// than `timeout_s` each: now_ns - since_ns > pending x timeout_s. Never with no call pending.
bool calls_overdue(std::int64_t now_ns, std::int64_t since_ns, std::int64_t pending, double timeout_s);

/// The message of a row whose call timed out: "timed out after 60 s (--kernel-timeout) ...".
std::string timed_out_message(double timeout_s);

}  // namespace kbench
