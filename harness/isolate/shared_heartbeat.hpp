#pragma once
/// A HeartbeatSlot (harness/common/heartbeat.hpp) in a small file mapped by the parent and its
/// worker process, so that the parent can watch a worker's calls without talking to it.

#include "harness/common/heartbeat.hpp"

#include <string>

namespace kbench {

class SharedHeartbeat {
 public:
  /// Creates (or truncates) `path` and maps it, zeroed: the parent's side. Throws std::runtime_error.
  static SharedHeartbeat create(const std::string& path);
  /// Maps the existing `path`: the worker's side. Throws std::runtime_error.
  static SharedHeartbeat open(const std::string& path);

  SharedHeartbeat(SharedHeartbeat&& other) noexcept;
  SharedHeartbeat& operator=(SharedHeartbeat&&) = delete;
  SharedHeartbeat(const SharedHeartbeat&) = delete;
  ~SharedHeartbeat();

  /// The shared words.
  HeartbeatSlot* slot() const { return slot_; }

 private:
  explicit SharedHeartbeat(HeartbeatSlot* slot) : slot_(slot) {}
  HeartbeatSlot* slot_ = nullptr;
};

}  // namespace kbench
