#pragma once
/// Large host arrays without the single-threaded page faults of their first write. A vector of a
/// few GB that is value-initialised faults in every 4 KiB page from one thread, at about 0.6 GB/s
/// on the development machine, and a 268M-element case's inputs and references are 10 GB or more.
/// Mapping the pages first, a range of 8 MiB per kernel call (madvise MADV_POPULATE_WRITE, Linux
/// 5.14+) with the ranges on several threads, then value-initialising them (a memset) took add
/// fp32 268M's two input sets and references from 11-30 s to 6-7 s on two cores (three runs each).
/// Where the kernel refuses (older kernels, other systems) the pages fault in as before. Host-only.

#include <cstddef>
#include <vector>

namespace kbench {

/// Arrays of at least this many bytes are mapped ahead; smaller ones are left to the allocator.
constexpr std::size_t kPrefaultBytes = std::size_t{16} << 20;

/// Maps the whole pages inside [data, data + bytes) for writing, ranges of 8 MiB on up to
/// host_threads() threads.
/// Changes no byte; a refusal by the kernel is ignored (the pages then fault in when written).
void prefault_pages(void* data, std::size_t bytes);

/// v.resize(count) (new elements value-initialised), with the pages of a large growth mapped
/// ahead by prefault_pages.
template <typename T>
void resize_prefaulted(std::vector<T>& v, std::size_t count) {
  if (count > v.size() && (count - v.size()) * sizeof(T) >= kPrefaultBytes) {
    v.reserve(count);
    prefault_pages(v.data() + v.size(), (count - v.size()) * sizeof(T));
  }
  v.resize(count);
}

/// v.assign(count, T{}), with the pages mapped ahead as resize_prefaulted does.
template <typename T>
void assign_zeros_prefaulted(std::vector<T>& v, std::size_t count) {
  v.clear();
  resize_prefaulted(v, count);
}

}  // namespace kbench
