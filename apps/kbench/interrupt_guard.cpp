#include "interrupt_guard.hpp"

#include <csignal>

namespace kbench::cli {

namespace {
std::atomic<bool> g_requested{false};
void (*g_previous_int)(int) = SIG_DFL;
void (*g_previous_term)(int) = SIG_DFL;

extern "C" void on_signal(int signal) {
  if (g_requested.exchange(true)) {
    // Second signal: the user insists. Restore the default action and re-raise.
    std::signal(signal, SIG_DFL);
    std::raise(signal);
  }
}
}  // namespace

InterruptGuard::InterruptGuard() {
  g_requested = false;
  g_previous_int = std::signal(SIGINT, on_signal);
  g_previous_term = std::signal(SIGTERM, on_signal);
}

InterruptGuard::~InterruptGuard() {
  std::signal(SIGINT, g_previous_int);
  std::signal(SIGTERM, g_previous_term);
}

const std::atomic<bool>& InterruptGuard::requested() const { return g_requested; }

}  // namespace kbench::cli
