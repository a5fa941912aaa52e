#include "harness/common/parallel_for.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

namespace kbench {

int host_threads() {
  if (const char* text = std::getenv("KBENCH_HOST_THREADS")) {
    const int wanted = std::atoi(text);
    if (wanted >= 1) return std::min(wanted, 256);
  }
  const unsigned hardware = std::thread::hardware_concurrency();
  return static_cast<int>(std::clamp(hardware, 1u, 32u));
}

void parallel_for(std::int64_t count, std::int64_t grain, const std::function<void(std::int64_t, std::int64_t)>& body) {
  if (count <= 0) return;
  grain = std::max<std::int64_t>(grain, 1);
  const std::int64_t chunks = chunk_count(count, grain);
  const int threads = static_cast<int>(std::min<std::int64_t>(chunks, host_threads()));
  if (threads <= 1) {
    for (std::int64_t c = 0; c < chunks; ++c) body(c * grain, std::min(count, (c + 1) * grain));
    return;
  }
  std::atomic<std::int64_t> next{0};
  std::exception_ptr failure;
  std::mutex failure_mutex;
  const auto work = [&] {
    for (std::int64_t c = next++; c < chunks; c = next++) {
      try {
        body(c * grain, std::min(count, (c + 1) * grain));
      } catch (...) {
        const std::lock_guard<std::mutex> lock(failure_mutex);
        if (!failure) failure = std::current_exception();
        next = chunks;  // stop handing out chunks
      }
    }
  };
  std::vector<std::thread> pool;
  try {
    for (int t = 1; t < threads; ++t) pool.emplace_back(work);
  } catch (const std::system_error&) {
    // No more threads to be had (a process or pid limit): those started and this one share the chunks.
  }
  work();
  for (std::thread& thread : pool) thread.join();
  if (failure) std::rethrow_exception(failure);
}

}  // namespace kbench
