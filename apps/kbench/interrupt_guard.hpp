#pragma once
/// Turns SIGINT and SIGTERM into a flag the run polls between variants, so that an interrupted
/// sweep stops cleanly and keeps what it finished. A second signal ends the process at once.

#include <atomic>

namespace kbench::cli {

class InterruptGuard {
 public:
  /// Installs the handlers; the destructor restores the previous ones.
  InterruptGuard();
  ~InterruptGuard();
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;

  /// Set once a signal arrived.
  const std::atomic<bool>& requested() const;
};

}  // namespace kbench::cli
