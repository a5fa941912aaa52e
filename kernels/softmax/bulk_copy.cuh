#pragma once
/// Hopper's bulk copy engine from global to shared memory, with the mbarrier that counts its
/// bytes (PTX ISA: cp.async.bulk, mbarrier). One thread issues a copy of any multiple of 16 bytes
/// and the whole stretch is in flight at once, where a block of threads keeps only its
/// registers' worth of loads in flight. Device code for compute capability 9.0 and later only;
/// included by the .cu files of kernels/softmax/.

#include <cstdint>

namespace kbench::softmax {

/// The shared-memory address (a 32-bit offset in the shared window) of `p`.
__device__ __forceinline__ std::uint32_t shared_address(const void* p) {
  return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
}

/// Initialises the mbarrier at `bar` for one arriving thread; then fence_barrier_init and a block
/// barrier before any thread waits on it.
__device__ __forceinline__ void barrier_init(std::uint64_t* bar) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(shared_address(bar)) : "memory");
}

/// Makes initialised mbarriers visible to the bulk copy engine.
__device__ __forceinline__ void fence_barrier_init() {
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}

/// Orders this thread's earlier generic-proxy accesses to shared memory before later bulk copies
/// into it (a slice read by the threads, then overwritten by the next copy).
__device__ __forceinline__ void fence_proxy_async_shared() {
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}

/// The one arrival of the barrier's current phase, announcing `bytes` of copies that complete it
/// (0: the phase completes at once).
__device__ __forceinline__ void barrier_arrive_expect_bytes(std::uint64_t* bar, std::uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(shared_address(bar)), "r"(bytes)
               : "memory");
}

/// Copies `bytes` (a multiple of 16; both addresses 16-byte aligned) from global `src` to shared
/// `dst`, counting them on `bar`.
__device__ __forceinline__ void bulk_copy_to_shared(void* dst, const void* src, std::uint32_t bytes,
                                                    std::uint64_t* bar) {
  asm volatile(
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
          shared_address(dst)),
      "l"(src), "r"(bytes), "r"(shared_address(bar))
      : "memory");
}

/// Waits until the barrier's phase of parity `parity` (0 for the first phase, then alternating)
/// has completed.
__device__ __forceinline__ void barrier_wait(std::uint64_t* bar, std::uint32_t parity) {
  std::uint32_t done = 0;
  do {
    asm volatile(
        "{\n"
        ".reg .pred p;\n"
        "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
        "selp.u32 %0, 1, 0, p;\n"
        "}\n"
        : "=r"(done)
        : "r"(shared_address(bar)), "r"(parity)
        : "memory");
  } while (done == 0);
}

}  // namespace kbench::softmax
