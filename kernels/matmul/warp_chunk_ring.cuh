#pragma once
/// The main loop the small-tile SIMT kernels share (matmul_small_simt.cu, matmul_outer_simt.cu):
/// warp w of a block owns chunks w, w + Warps, w + 2·Warps, ... of K and streams them through a
/// ring of Ring pieces of its own with cp.async, waiting only for its own copies (no block-wide
/// barrier in the loop).

#include "kernels/matmul/cp_async.cuh"

namespace kbench::matmul {

/// Runs the warp's chunks: `issue(i)` starts the copies of its i-th chunk into piece i % Ring,
/// `compute(piece)` consumes a landed piece. `chunks` is the block's chunk count; the warp's i-th
/// chunk exists while warp + Warps·i < chunks. Returns with none of this thread's copies in flight.
template <int Ring, int Warps, typename Issue, typename Compute>
__device__ __forceinline__ void run_warp_chunk_ring(int warp, int chunks, Issue&& issue, Compute&& compute) {
#pragma unroll
  for (int i = 0; i < Ring - 1; ++i) {
    if (warp + Warps * i < chunks) issue(i);
    cp_async_commit();
  }
  for (int i = 0; warp + Warps * i < chunks; ++i) {
    const int ahead = i + Ring - 1;
    if (warp + Warps * ahead < chunks) issue(ahead);
    cp_async_commit();
    cp_async_wait<Ring - 1>();  // this lane's copies of chunk i have landed
    __syncwarp();               // and every lane's
    compute(i % Ring);
    __syncwarp();  // every lane is done with the piece before the next issue refills it
  }
  cp_async_wait<0>();
}

}  // namespace kbench::matmul
