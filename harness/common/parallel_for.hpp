#pragma once
/// Host loops over large tensors (drawing inputs, float64 references, comparing outputs) on
/// several CPU threads. A 256M-element case otherwise spends minutes of a sweep on the CPU.
///
/// The work is cut into chunks by `count` and `grain` alone, never by the thread count, so a body
/// that writes per-index results, or per-chunk partials combined in chunk order, gives the same
/// bytes on any machine. Host-only.

#include <cstdint>
#include <functional>

namespace kbench {

/// Threads parallel_for uses: the hardware's, at most 32 (KBENCH_HOST_THREADS overrides, >= 1).
int host_threads();

/// Runs body(begin, end) over [0, count) in chunks of `grain` (the last one shorter), on up to
/// host_threads() threads; returns once every chunk is done. A count of one chunk runs on the
/// calling thread. The first exception a body throws is rethrown here, after every thread ends.
void parallel_for(std::int64_t count, std::int64_t grain, const std::function<void(std::int64_t, std::int64_t)>& body);

/// Chunks parallel_for cuts [0, count) into: ceil(count / grain).
inline std::int64_t chunk_count(std::int64_t count, std::int64_t grain) { return count <= 0 ? 0 : (count + grain - 1) / grain; }

}  // namespace kbench
