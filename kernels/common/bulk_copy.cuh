#pragma once
/// Hopper's bulk copy engine and mbarriers from device code (PTX: cp.async.bulk, mbarrier
/// complete_tx, bulk_group stores): the pieces that softmax's grid_row and the ring_rows kernels
/// (row_ring.cuh) build their shared-memory pipelines from. Device code for compute capability
/// 9.0 and later; included by .cu files only.

#include <cstdint>

namespace kbench::bulk {

/// The shared-memory address (a 32-bit offset in the shared window) of `p`.
__device__ __forceinline__ std::uint32_t shared_address(const void* p) {
  return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
}

/// Initialises the mbarrier at `bar` for one arriving thread (the one that issues the copies).
__device__ __forceinline__ void barrier_init(std::uint64_t* bar) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(shared_address(bar)) : "memory");
}

/// Makes initialised mbarriers visible to the bulk copy engine; a block barrier must follow
/// before any thread waits on them.
__device__ __forceinline__ void fence_barrier_init() { asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory"); }

/// Orders this thread's earlier shared-memory accesses (generic proxy) before later bulk copies
/// into or out of that memory (async proxy); then a block barrier, then the copy.
__device__ __forceinline__ void fence_proxy_async_shared() { asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); }

/// The one arrival of the barrier's current phase, announcing `bytes` of copies that complete it
/// (0: the phase completes at once).
__device__ __forceinline__ void arrive_expect_bytes(std::uint64_t* bar, std::uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(shared_address(bar)), "r"(bytes)
               : "memory");
}

/// Copies `bytes` (a positive multiple of 16; both addresses 16-byte aligned) from global `src`
/// to shared `dst`, counting them on `bar`.
__device__ __forceinline__ void load_bulk(void* dst, const void* src, std::uint32_t bytes, std::uint64_t* bar) {
  asm volatile(
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
          shared_address(dst)),
      "l"(src), "r"(bytes), "r"(shared_address(bar))
      : "memory");
}

/// Copies `bytes` (a positive multiple of 16; both addresses 16-byte aligned) from shared `src`
/// to global `dst` in this thread's current bulk group (commit_bulk closes it).
__device__ __forceinline__ void store_bulk(void* dst, const void* src, std::uint32_t bytes) {
  asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(dst), "r"(shared_address(src)),
               "r"(bytes)
               : "memory");
}

__device__ __forceinline__ void commit_bulk() { asm volatile("cp.async.bulk.commit_group;" ::: "memory"); }

/// Waits until at most kPending of this thread's committed bulk groups still read shared memory.
template <int kPending>
__device__ __forceinline__ void wait_bulk_reads() {
  asm volatile("cp.async.bulk.wait_group.read %0;" ::"n"(kPending) : "memory");
}

/// Waits until every bulk group this thread committed has completed (its writes done).
__device__ __forceinline__ void wait_bulk_all() { asm volatile("cp.async.bulk.wait_group 0;" ::: "memory"); }

/// Waits for the phase of parity `parity` of `bar`; a phase that does not complete within 2^33
/// SM clocks (about 4 s) traps, so a byte-count mistake fails the launch instead of hanging.
__device__ __forceinline__ void wait_phase(std::uint64_t* bar, std::uint32_t parity) {
  std::uint32_t done = 0;
  const long long start = clock64();
  for (;;) {
    asm volatile(
        "{\n"
        ".reg .pred p;\n"
        "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
        "selp.u32 %0, 1, 0, p;\n"
        "}\n"
        : "=r"(done)
        : "r"(shared_address(bar)), "r"(parity)
        : "memory");
    if (done != 0) return;
    if (clock64() - start > (1ll << 33)) __trap();
  }
}

}  // namespace kbench::bulk
