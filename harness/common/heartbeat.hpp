#pragma once
/// The heartbeat a worker process publishes for its supervisor (harness/isolate/): when the GPU
/// last had nothing outstanding or last finished calls, and how many calls are in flight since.
/// Lives in memory shared by both processes; host-only, lock-free.
///
/// The host sees calls complete only where it synchronises (after a verification call, a group
/// of warm-up calls, a batch of samples), so the worker says how many calls it enqueued since the
/// last such point; the supervisor allows each of them the timeout (harness/isolate/timeout_policy.hpp).
/// It is updated outside every event-timed window, so it costs the measured work nothing.

#include <atomic>
#include <chrono>
#include <cstdint>

namespace kbench {

/// The shared words. std::atomic<std::int64_t> is lock-free on the 64-bit targets kbench builds
/// for, so two processes may share it through a mapping.
struct HeartbeatSlot {
  std::atomic<std::int64_t> since_ns{0};       ///< steady clock, ns: last completion (0: not started)
  std::atomic<std::int64_t> pending_calls{0};  ///< calls enqueued since then and not yet seen done
};

/// Nanoseconds of the steady (monotonic, system-wide on Linux) clock: comparable across processes.
inline std::int64_t monotonic_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

/// The worker's side: a no-op without a slot (a run that is not isolated).
class Heartbeat {
 public:
  explicit Heartbeat(HeartbeatSlot* slot = nullptr) : slot_(slot) {}
  /// `calls` more calls are about to be enqueued; the clock starts if none were outstanding.
  void calls_enqueued(std::int64_t calls) const {
    if (slot_ == nullptr) return;
    if (slot_->pending_calls.load() == 0) slot_->since_ns.store(monotonic_ns());
    slot_->pending_calls.fetch_add(calls);
  }
  /// Every call enqueued so far has completed (the host synchronised).
  void calls_completed() const {
    if (slot_ == nullptr) return;
    slot_->pending_calls.store(0);
    slot_->since_ns.store(monotonic_ns());
  }

 private:
  HeartbeatSlot* slot_;
};

/// `calls` calls in flight for the lifetime of this object: enqueued at construction, completed
/// at destruction (the scope synchronises before it ends, or fails).
class CallsInFlight {
 public:
  CallsInFlight(const Heartbeat& heartbeat, std::int64_t calls) : heartbeat_(heartbeat) { heartbeat_.calls_enqueued(calls); }
  ~CallsInFlight() { heartbeat_.calls_completed(); }
  CallsInFlight(const CallsInFlight&) = delete;
  CallsInFlight& operator=(const CallsInFlight&) = delete;

 private:
  const Heartbeat& heartbeat_;
};

}  // namespace kbench
