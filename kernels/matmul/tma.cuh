#pragma once
/// Hopper's asynchronous copy machinery, as PTX: shared-memory mbarriers (arrive, expect_tx,
/// parity waits), 2-D TMA loads (cp.async.bulk.tensor) that complete on an mbarrier, 2-D TMA
/// stores in bulk async-groups, named barriers, and the per-warpgroup register budget
/// (setmaxnreg). sm_90a only; included by matmul_wgmma_tma.cu.

#include <cuda.h>  // CUtensorMap (the type only: nothing here calls the driver)

#include <cstdint>
#include <cstdio>

namespace kbench::matmul::tma {

/// Sets up the mbarrier at shared address `bar` to complete a phase after `arrivals` arrivals
/// (and, where an arrival announced bytes with arrive_expect_tx, once those bytes have landed).
__device__ __forceinline__ void mbarrier_init(unsigned bar, unsigned arrivals) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(bar), "r"(arrivals) : "memory");
}

/// Makes the mbarrier inits visible to the other threads and to the async proxy (the TMA unit);
/// before the block barrier that follows them.
__device__ __forceinline__ void fence_mbarrier_init() {
  asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
}

/// One arrival that also announces `bytes` still to come from TMA loads completing on `bar`.
__device__ __forceinline__ void arrive_expect_tx(unsigned bar, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(bar), "r"(bytes) : "memory");
}

/// One plain arrival.
__device__ __forceinline__ void arrive(unsigned bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(bar) : "memory");
}

/// True once the phase of parity `parity` of `bar` has completed (a fresh barrier is in phase 0,
/// so waiting for parity 1 returns at once: "the phase before the first").
__device__ __forceinline__ bool try_wait(unsigned bar, unsigned parity) {
  unsigned done;
  asm volatile(
      "{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\nselp.u32 %0, 1, 0, p;\n}\n"
      : "=r"(done)
      : "r"(bar), "r"(parity)
      : "memory");
  return done != 0;
}

/// SM clock cycles a wait may take before the kernel gives up: about 4 s at 2 GHz, far beyond any
/// stage of a correct pipeline; a phase bug then ends in a trap with a line naming the barrier
/// instead of a hang.
constexpr long long kHangCycles = 1ll << 33;

/// Waits for the phase of parity `parity` of `bar`; traps if it never completes (the launch then
/// fails with "unspecified launch failure" instead of hanging). With kReport, and only in a build
/// with KBENCH_TMA_REPORT_HANGS defined, the trap is preceded by a line naming `what` and `stage`:
/// a printf is a function call, and any call in a kernel makes ptxas serialise all of its wgmmas
/// (C7510), so the default build has none.
template <bool kReport>
__device__ __forceinline__ void wait(unsigned bar, unsigned parity, const char* what, int stage) {
  if (try_wait(bar, parity)) return;
  const long long start = clock64();
  while (!try_wait(bar, parity)) {
    if (clock64() - start > kHangCycles) {
#if defined(KBENCH_TMA_REPORT_HANGS)
      if constexpr (kReport) {
        printf("kbench tma: block %d thread %d waited over 2^33 cycles for the %s barrier of stage %d, parity %u\n",
               static_cast<int>(blockIdx.x), static_cast<int>(threadIdx.x), what, stage, parity);
      }
#else
      (void)what;
      (void)stage;
#endif
      __trap();
    }
  }
}

/// Starts a TMA load of the box at element coordinates (x, y) (x along the innermost dimension) of
/// the 2-D tensor `map` into shared memory at `dst`; it completes `bytes` of the transaction
/// count of the mbarrier `bar` (the whole box: out-of-bounds elements are filled with zeros and
/// counted too). `map` must be a __grid_constant__ kernel parameter (or in global/const memory).
__device__ __forceinline__ void load_2d(unsigned dst, const CUtensorMap* map, unsigned bar, int x, int y) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];\n" ::"r"(
          dst),
      "l"(reinterpret_cast<std::uint64_t>(map)), "r"(x), "r"(y), "r"(bar)
      : "memory");
}

/// Starts a TMA store of the box at element coordinates (x, y) of the 2-D tensor `map` from
/// shared memory at `src` (laid out as the map's swizzle says); elements of the box outside the
/// tensor are not written. The store joins this thread's current bulk async-group (commit_group).
/// The writes to `src` must be made visible to the async proxy first (fence.proxy.async).
__device__ __forceinline__ void store_2d(const CUtensorMap* map, unsigned src, int x, int y) {
  asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%1, %2}], [%3];\n" ::"l"(
                   reinterpret_cast<std::uint64_t>(map)),
               "r"(x), "r"(y), "r"(src)
               : "memory");
}

/// Closes this thread's bulk async-group (the stores issued since the last commit; an empty group
/// when there were none).
__device__ __forceinline__ void bulk_commit_group() { asm volatile("cp.async.bulk.commit_group;\n" ::: "memory"); }

/// Waits until at most `Pending` of this thread's bulk async-groups still read their shared
/// memory (their sources may then be overwritten; the global writes may still be in flight).
template <int Pending>
__device__ __forceinline__ void bulk_wait_group_read() {
  asm volatile("cp.async.bulk.wait_group.read %0;\n" ::"n"(Pending) : "memory");
}

/// Waits until all of this thread's bulk async-groups have completed, global writes included.
__device__ __forceinline__ void bulk_wait_all() { asm volatile("cp.async.bulk.wait_group 0;\n" ::: "memory"); }

/// Block-level named barrier `id` (1..15; 0 is __syncthreads) for `threads` threads, a multiple of
/// 32: one warpgroup syncs alone while the others run on.
__device__ __forceinline__ void named_barrier(unsigned id, unsigned threads) {
  asm volatile("bar.sync %0, %1;\n" ::"r"(id), "r"(threads) : "memory");
}

/// Fetches the tensor map's descriptor into the TMA unit's cache ahead of the first load.
__device__ __forceinline__ void prefetch_map(const CUtensorMap* map) {
  asm volatile("prefetch.tensormap [%0];\n" ::"l"(reinterpret_cast<std::uint64_t>(map)) : "memory");
}

/// Lowers (dec) or raises (inc) the registers per thread of the calling warpgroup to `Count`; every
/// thread of the warpgroup must execute it. The kernel's launch register count times its threads
/// is the pool these moves share.
template <int Count>
__device__ __forceinline__ void release_registers() {
  asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(Count));
}
template <int Count>
__device__ __forceinline__ void claim_registers() {
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(Count));
}

}  // namespace kbench::matmul::tma
