#pragma once
/// cp.async (sm_80+): 16-byte (and 4-byte) copies from global to shared memory that bypass registers and do
/// not block the thread, grouped into commit groups a thread can wait on. The matmul kernels'
/// pipelines are built on these.

namespace kbench::matmul {

/// Copies 16 bytes global -> shared (`dst_shared`: a shared-window address), or writes 16 zero
/// bytes when `inside` is false (source size 0: nothing is read from `src`, which must still be
/// a valid address).
__device__ __forceinline__ void cp_async_16(unsigned dst_shared, const void* src, bool inside) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst_shared), "l"(src), "r"(inside ? 16 : 0)
               : "memory");
}

/// The same with a generic pointer into shared memory.
__device__ __forceinline__ void cp_async_16(void* dst, const void* src, bool inside) {
  cp_async_16(static_cast<unsigned>(__cvta_generic_to_shared(dst)), src, inside);
}

/// Copies 4 bytes global -> shared, or writes 4 zero bytes when `inside` is false (as cp_async_16;
/// 4-byte copies go through L1, .ca, the only caching 4-byte cp.async takes). `src` 4-byte aligned.
__device__ __forceinline__ void cp_async_4(void* dst, const void* src, bool inside) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(static_cast<unsigned>(__cvta_generic_to_shared(dst))),
               "l"(src), "r"(inside ? 4 : 0)
               : "memory");
}

__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }

/// Waits until at most `Pending` of this thread's commit groups are still in flight.
template <int Pending>
__device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(Pending) : "memory");
}

}  // namespace kbench::matmul
