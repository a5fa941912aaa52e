#pragma once
// The bulk copy engine (sm_90's cp.async.bulk) and the mbarriers its copies complete on, as the
// probes use them: one thread arms a barrier with the bytes it expects and starts the copies;
// every thread waits on the barrier's phase before reading the landed tile. Also the cluster
// forms: copies multicast to several blocks of a cluster (the arch-specific sm_90a target only),
// and arrivals on and waits for a barrier that other blocks of the cluster arrive on. Compute
// capability 9.0 and later; compiled for an older target the helpers trap (the probes check the
// device first).

namespace probe {

__device__ __forceinline__ unsigned shared_address(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

/// Initialises the shared-memory mbarrier `bar` for `count` arrivals per phase.
__device__ __forceinline__ void barrier_init(unsigned long long* bar, unsigned count) {
#if __CUDA_ARCH__ >= 900
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(shared_address(bar)), "r"(count) : "memory");
#else
  __trap();
#endif
}

/// Makes the initialised barriers visible to the copy engine (and the cluster) before any copy
/// names them.
__device__ __forceinline__ void fence_barrier_init() {
#if __CUDA_ARCH__ >= 900
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
#else
  __trap();
#endif
}

/// Arms `bar` for `bytes` of copies (the single arrival of its count of 1 included).
__device__ __forceinline__ void barrier_expect(unsigned long long* bar, unsigned bytes) {
#if __CUDA_ARCH__ >= 900
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(shared_address(bar)), "r"(bytes) : "memory");
#else
  __trap();
#endif
}

/// True once phase `parity` of `bar` has completed (its arrivals made and its bytes landed).
/// `ClusterScope`: the arrivals come from other blocks of the cluster, so the wait acquires at
/// cluster scope.
template <bool ClusterScope = false>
__device__ __forceinline__ bool barrier_try_wait(unsigned long long* bar, unsigned parity) {
  unsigned done = 0;
#if __CUDA_ARCH__ >= 900
  if constexpr (ClusterScope) {
    asm volatile(
        "{ .reg .pred p; mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
        : "=r"(done)
        : "r"(shared_address(bar)), "r"(parity)
        : "memory");
  } else {
    asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                 : "=r"(done)
                 : "r"(shared_address(bar)), "r"(parity)
                 : "memory");
  }
#else
  __trap();
#endif
  return done != 0;
}

/// `bytes` (a multiple of 16) from global `src` to shared `dst` by the bulk copy engine,
/// completing on `bar`.
__device__ __forceinline__ void bulk_copy(void* dst, const void* src, unsigned bytes, unsigned long long* bar) {
#if __CUDA_ARCH__ >= 900
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                   shared_address(dst)),
               "l"(src), "r"(bytes), "r"(shared_address(bar))
               : "memory");
#else
  __trap();
#endif
}

/// `bytes` (a multiple of 16) from global `src` into the shared memory of every cluster block
/// in `mask`, at `dst`'s offset, completing on the barrier at `bar`'s offset in each of them.
/// The arch-specific sm_90a target only.
__device__ __forceinline__ void multicast_copy(void* dst, const void* src, unsigned bytes, unsigned long long* bar,
                                               unsigned short mask) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile(
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%0], [%1], %2, [%3], %4;" ::"r"(
          shared_address(dst)),
      "l"(src), "r"(bytes), "r"(shared_address(bar)), "h"(mask)
      : "memory");
#else
  __trap();
#endif
}

/// Arrives on the barrier at `bar`'s offset in the shared memory of cluster block `rank`.
__device__ __forceinline__ void arrive_remote(unsigned long long* bar, unsigned rank) {
#if __CUDA_ARCH__ >= 900
  asm volatile(
      "{ .reg .b32 remote; mapa.shared::cluster.u32 remote, %0, %1; "
      "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [remote]; }" ::"r"(shared_address(bar)),
      "r"(rank)
      : "memory");
#else
  __trap();
#endif
}

}  // namespace probe
