#pragma once
/// softmax's `ring_rows` kernel (softmax_ring_rows.cu): many short rows of any width (up to
/// kRingMaxCols elements) streamed through a ring of shared-memory tiles by Hopper's bulk copy
/// engine (kernels/common/row_ring.*). Host side: the plan, made once per problem, and the launch.

#include "kernels/common/row_ring.hpp"

#include <cuda_runtime_api.h>

#include <cstdint>

namespace kbench::softmax {

/// How launch_ring_rows runs a problem (plan_ring_rows).
struct RingRowsPlan {
  RowRingShape shape;  ///< shape.blocks = 0: the short-rows kernel runs instead
};

/// The ring shape for this problem on this device (row_ring_shape, for the blocks of the kernel an
/// SM holds), with the kernel's shared-memory limit raised; shape.blocks = 0 where it cannot run:
/// below compute capability 9.0 (no bulk copies), x or y not 16-byte aligned, rows longer than
/// kRingMaxCols. Host work: call it outside any timed window.
template <typename T>
RingRowsPlan plan_ring_rows(const T* x, const T* y, std::int64_t rows, std::int64_t cols, int sm_count, int cc_major);

/// y = softmax(x) over rows of up to kRingMaxCols elements: a persistent grid whose blocks stream
/// tiles of whole rows (8 KiB, any width) into a 4-slot shared-memory ring with bulk copies, a
/// group of 1-32 lanes per row computes the row from shared memory into registers (max, one
/// exponential per element, sum) and writes it back over the tile, and the tile leaves with a
/// bulk store. plan.shape.blocks == 0: launch_short_rows.
template <typename T>
void launch_ring_rows(const T* x, T* y, std::int64_t rows, std::int64_t cols, const RingRowsPlan& plan,
                      cudaStream_t stream);

}  // namespace kbench::softmax
