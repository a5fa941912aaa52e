#include "harness/isolate/timeout_policy.hpp"

#include <fmt/format.h>

namespace kbench {

bool calls_overdue(std::int64_t now_ns, std::int64_t since_ns, std::int64_t pending, double timeout_s) {
  if (pending <= 0 || since_ns <= 0) return false;
  const double waited_s = static_cast<double>(now_ns - since_ns) * 1e-9;
  return waited_s > static_cast<double>(pending) * timeout_s;
}

std::string timed_out_message(double timeout_s) {
  return fmt::format("timed out after {:g} s (--kernel-timeout): a call ran longer, so its worker process was killed",
                     timeout_s);
}

}  // namespace kbench
