#include "harness/common/host_memory.hpp"

#include "harness/common/parallel_for.hpp"

#include <cstdint>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace kbench {

void prefault_pages(void* data, std::size_t bytes) {
#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
  const long page_size = sysconf(_SC_PAGESIZE);
  if (page_size <= 0 || bytes == 0) return;
  const auto page = static_cast<std::uintptr_t>(page_size);
  const auto begin = (reinterpret_cast<std::uintptr_t>(data) + page - 1) / page * page;
  const auto end = (reinterpret_cast<std::uintptr_t>(data) + bytes) / page * page;
  if (end <= begin) return;
  // Ranges of 8 MiB: a 16 MiB array is already two, a GiB enough for 32 threads, and each kernel
  // call still maps thousands of pages.
  constexpr std::int64_t kRangeBytes = std::int64_t{8} << 20;
  parallel_for(static_cast<std::int64_t>(end - begin), kRangeBytes, [&](std::int64_t first, std::int64_t last) {
    // Refused (EINVAL before Linux 5.14, ENOMEM, ...): the pages fault in when first written.
    (void)madvise(reinterpret_cast<void*>(begin + static_cast<std::uintptr_t>(first)),
                  static_cast<std::size_t>(last - first), MADV_POPULATE_WRITE);
  });
#else
  (void)data;
  (void)bytes;
#endif
}

}  // namespace kbench
