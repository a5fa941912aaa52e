#pragma once
/// Hopper's warpgroup MMA (wgmma) and the pieces around it, as PTX: shared-memory matrix
/// descriptors, the wgmma fences and groups, and the proxy fence that makes shared-memory stores
/// visible to it. sm_90a only (the arch-specific target: plain sm_90 code cannot hold wgmma);
/// included by the wgmma kernels (matmul_wgmma.cu, matmul_wgmma_tma.cu).

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>

namespace kbench::matmul::wgmma {

/// A shared-memory matrix descriptor with the 128-byte swizzle (PTX ISA, "Matrix Descriptor
/// Format"): bits 0-13 the start address / 16, 16-29 the leading-dimension byte offset / 16,
/// 32-45 the stride-dimension byte offset / 16, 62-63 the swizzle mode (1 = 128 bytes). The
/// base-offset bits stay 0: every swizzle atom (8 rows of 128 bytes) starts 1024-byte aligned.
__device__ __forceinline__ std::uint64_t descriptor(unsigned shared_address, unsigned leading_bytes,
                                                    unsigned stride_bytes) {
  std::uint64_t d = (shared_address & 0x3FFFFu) >> 4;
  d |= static_cast<std::uint64_t>((leading_bytes >> 4) & 0x3FFFu) << 16;
  d |= static_cast<std::uint64_t>((stride_bytes >> 4) & 0x3FFFu) << 32;
  d |= std::uint64_t{1} << 62;
  return d;
}

/// Orders this thread's earlier register writes (the accumulators) before the next wgmma.
__device__ __forceinline__ void fence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
/// Closes the group of wgmmas issued since the last commit.
__device__ __forceinline__ void commit_group() { asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory"); }
/// Waits until at most `Pending` committed groups are still running.
template <int Pending>
__device__ __forceinline__ void wait_group() {
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(Pending) : "memory");
}
/// Pins the accumulators in place around the wgmma asm: an empty asm that "writes" each of them,
/// so the compiler moves no read or write of them across the wait_group (or fence) beside it.
template <int N>
__device__ __forceinline__ void fence_operands(float (&d)[N]) {
#pragma unroll
  for (int i = 0; i < N; ++i) asm volatile("" : "+f"(d[i])::"memory");
}
/// Makes this thread's shared-memory writes (st.shared, cp.async) visible to the async proxy
/// that wgmma reads shared memory through; before the barrier that publishes a stage.
__device__ __forceinline__ void fence_shared_for_async_proxy() {
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
}

/// The 128 accumulator operands of an m64n256 wgmma, as the asm template names them and as
/// read-write operands bound to d[0..127].
#define KBENCH_WGMMA_N256_ACCUMULATORS \
  "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, " \
  "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, " \
  "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, " \
  "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, " \
  "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, " \
  "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, " \
  "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, " \
  "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127"
#define KBENCH_WGMMA_N256_OPERANDS \
  "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), \
  "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), \
  "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), \
  "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), \
  "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), \
  "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), \
  "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), \
  "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), \
  "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), \
  "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), \
  "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), \
  "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), \
  "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]), \
  "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]), \
  "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]), \
  "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])

/// The 96 accumulator operands of an m64n192 wgmma, as the asm template names them and as
/// read-write operands bound to d[0..95].
#define KBENCH_WGMMA_N192_ACCUMULATORS \
  "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, " \
  "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, " \
  "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, " \
  "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, " \
  "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, " \
  "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95"
#define KBENCH_WGMMA_N192_OPERANDS \
  "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), \
  "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), \
  "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), \
  "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), \
  "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), \
  "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), \
  "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), \
  "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), \
  "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), \
  "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), \
  "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), \
  "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95])

/// The 64 accumulator operands of an m64n128 wgmma, as the asm template names them and as
/// read-write operands bound to d[0..63].
#define KBENCH_WGMMA_N128_ACCUMULATORS \
  "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, " \
  "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, " \
  "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, " \
  "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63"
#define KBENCH_WGMMA_N128_OPERANDS \
  "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), \
  "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), \
  "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), \
  "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), \
  "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), \
  "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), \
  "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), \
  "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])

/// The 32 accumulator operands of an m64n64 wgmma, as the asm template names them and as
/// read-write operands bound to d[0..31].
#define KBENCH_WGMMA_N64_ACCUMULATORS \
  "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, " \
  "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31"
#define KBENCH_WGMMA_N64_OPERANDS \
  "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), \
  "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), \
  "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), \
  "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])

/// d += A·B for a 64×N tile (N = 256, 192, 128, 64), K = 16, operands of PTX type `ptx_type` (f16, bf16)
/// from shared memory, fp32 accumulators in the m64nNk16 fragment layout. The immediates: scale-d
/// = 1 (accumulate; d starts zeroed), A and B scaled by +1, A K-major (transpose bit 0), B
/// MN-major (transpose bit 1: B is stored k-major, n contiguous, as in global memory).
#define KBENCH_WGMMA_M64NK16(shape, ptx_type, accumulators, operands, a_desc_at, b_desc_at, scale_at)   \
  asm volatile("{\n.reg .pred accumulate;\nsetp.ne.b32 accumulate, %" scale_at ", 0;\n"                \
               "wgmma.mma_async.sync.aligned." shape ".f32." ptx_type "." ptx_type " {" accumulators      \
               "}, %" a_desc_at ", %" b_desc_at ", accumulate, 1, 1, 0, 1;\n}\n"                         \
               : operands                                                                                 \
               : "l"(a_desc), "l"(b_desc), "r"(1))

__device__ __forceinline__ void wgmma_m64nk16(float (&d)[128], std::uint64_t a_desc, std::uint64_t b_desc,
                                              __half /*type tag*/) {
  KBENCH_WGMMA_M64NK16("m64n256k16", "f16", KBENCH_WGMMA_N256_ACCUMULATORS, KBENCH_WGMMA_N256_OPERANDS, "128", "129", "130");
}
__device__ __forceinline__ void wgmma_m64nk16(float (&d)[128], std::uint64_t a_desc, std::uint64_t b_desc,
                                              __nv_bfloat16 /*type tag*/) {
  KBENCH_WGMMA_M64NK16("m64n256k16", "bf16", KBENCH_WGMMA_N256_ACCUMULATORS, KBENCH_WGMMA_N256_OPERANDS, "128", "129", "130");
}
__device__ __forceinline__ void wgmma_m64nk16(float (&d)[96], std::uint64_t a_desc, std::uint64_t b_desc,
                                              __half /*type tag*/) {
  KBENCH_WGMMA_M64NK16("m64n192k16", "f16", KBENCH_WGMMA_N192_ACCUMULATORS, KBENCH_WGMMA_N192_OPERANDS, "96", "97", "98");
}
__device__ __forceinline__ void wgmma_m64nk16(float (&d)[96], std::uint64_t a_desc, std::uint64_t b_desc,
                                              __nv_bfloat16 /*type tag*/) {
  KBENCH_WGMMA_M64NK16("m64n192k16", "bf16", KBENCH_WGMMA_N192_ACCUMULATORS, KBENCH_WGMMA_N192_OPERANDS, "96", "97", "98");
}
__device__ __forceinline__ void wgmma_m64nk16(float (&d)[64], std::uint64_t a_desc, std::uint64_t b_desc,
                                              __half /*type tag*/) {
  KBENCH_WGMMA_M64NK16("m64n128k16", "f16", KBENCH_WGMMA_N128_ACCUMULATORS, KBENCH_WGMMA_N128_OPERANDS, "64", "65", "66");
}
__device__ __forceinline__ void wgmma_m64nk16(float (&d)[64], std::uint64_t a_desc, std::uint64_t b_desc,
                                              __nv_bfloat16 /*type tag*/) {
  KBENCH_WGMMA_M64NK16("m64n128k16", "bf16", KBENCH_WGMMA_N128_ACCUMULATORS, KBENCH_WGMMA_N128_OPERANDS, "64", "65", "66");
}
__device__ __forceinline__ void wgmma_m64nk16(float (&d)[32], std::uint64_t a_desc, std::uint64_t b_desc,
                                              __half /*type tag*/) {
  KBENCH_WGMMA_M64NK16("m64n64k16", "f16", KBENCH_WGMMA_N64_ACCUMULATORS, KBENCH_WGMMA_N64_OPERANDS, "32", "33", "34");
}
__device__ __forceinline__ void wgmma_m64nk16(float (&d)[32], std::uint64_t a_desc, std::uint64_t b_desc,
                                              __nv_bfloat16 /*type tag*/) {
  KBENCH_WGMMA_M64NK16("m64n64k16", "bf16", KBENCH_WGMMA_N64_ACCUMULATORS, KBENCH_WGMMA_N64_OPERANDS, "32", "33", "34");
}

#undef KBENCH_WGMMA_M64NK16
#undef KBENCH_WGMMA_N64_OPERANDS
#undef KBENCH_WGMMA_N64_ACCUMULATORS
#undef KBENCH_WGMMA_N192_OPERANDS
#undef KBENCH_WGMMA_N192_ACCUMULATORS
#undef KBENCH_WGMMA_N128_OPERANDS
#undef KBENCH_WGMMA_N128_ACCUMULATORS
#undef KBENCH_WGMMA_N256_OPERANDS
#undef KBENCH_WGMMA_N256_ACCUMULATORS

/// The shared layout every wgmma kernel of kbench feeds these MMAs from (matmul_wgmma.cu's header
/// explains it): rows of 64 16-bit elements (128 bytes) with the 128-byte swizzle; B as panels of
/// 64 K-rows × 64 N, one after another.
constexpr unsigned kSwizzleRowBytes = 128;
constexpr unsigned kBPanelBytes = 64 * kSwizzleRowBytes;  // 8 KB

/// One 64-deep K step of a warpgroup's 64×N tile (N = 256, 192, 128 or 64, i.e. 128, 96, 64 or 32 accumulators per
/// thread): fence the accumulators, issue the 4 wgmmas of the step's 16-deep slices as one
/// group, commit it. `a_rows`: the warpgroup's 64 swizzled rows of A (K-major; each slice starts
/// 32 bytes further into them, 8-row atoms 1024 bytes apart); `b_panels`: N / 64 panels of B
/// (MN-major; leading byte offset kBPanelBytes between panels, each slice 16 K-rows further).
/// The caller waits for the group (wait_group) before touching the accumulators or the stage.
template <typename T, int Accumulators>
__device__ __forceinline__ void mma_step_k64(float (&acc)[Accumulators], unsigned a_rows, unsigned b_panels) {
  fence();
#pragma unroll
  for (int slice = 0; slice < 4; ++slice) {
    const std::uint64_t a_desc = descriptor(a_rows + slice * 32, 16, 8 * kSwizzleRowBytes);
    const std::uint64_t b_desc = descriptor(b_panels + slice * 16 * kSwizzleRowBytes, kBPanelBytes, 8 * kSwizzleRowBytes);
    wgmma_m64nk16(acc, a_desc, b_desc, T{});
  }
  commit_group();
}

/// mma_step_k64 over the first `live` (1 .. Accumulators / 32) 64-wide panels of a tile: an edge
/// tile's columns past them lie past N. The m64n(64·live) fragment is the first 32·live
/// accumulators of the wider one (accumulators 4j .. 4j+3 hold columns 8j .. 8j+7 at any width).
template <typename T, int Accumulators>
__device__ __forceinline__ void mma_step_k64_live(float (&acc)[Accumulators], int live, unsigned a_rows,
                                                  unsigned b_panels) {
  constexpr int kPanels = Accumulators / 32;
  static_assert(kPanels >= 2 && kPanels <= 4 && Accumulators % 32 == 0, "tiles of 128, 192 or 256 columns");
  if (live >= kPanels) return mma_step_k64<T>(acc, a_rows, b_panels);
  if constexpr (kPanels == 4) {
    if (live == 3) return mma_step_k64<T>(reinterpret_cast<float(&)[96]>(acc), a_rows, b_panels);
  }
  if constexpr (kPanels >= 3) {
    if (live == 2) return mma_step_k64<T>(reinterpret_cast<float(&)[64]>(acc), a_rows, b_panels);
  }
  mma_step_k64<T>(reinterpret_cast<float(&)[32]>(acc), a_rows, b_panels);
}

}  // namespace kbench::matmul::wgmma
