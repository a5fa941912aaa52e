#pragma once
/// sum_inner's and max_inner's `ring_rows` kernel (sum_rows_ring_kernels.cu): many short rows of
/// any width (up to kRingMaxCols elements) streamed through a ring of shared-memory tiles by
/// Hopper's bulk copy engine (kernels/common/row_ring.*). Host side: the plan, made once per
/// problem, and the launch.

#include "kernels/common/row_ring.hpp"
#include "kernels/sum/sum_kernels.hpp"

#include <cuda_runtime_api.h>

#include <cstdint>

namespace kbench::sum {

/// How launch_rows_ring runs a problem (plan_rows_ring).
struct RowsRingPlan {
  RowRingShape shape;  ///< shape.blocks = 0: the flat-rows kernel runs instead
};

/// The ring shape for this problem on this device (row_ring_shape, for the blocks of the kernel an
/// SM holds), with the kernel's shared-memory limit raised; shape.blocks = 0 where it cannot run:
/// below compute capability 9.0 (no bulk copies), `in` not 16-byte aligned, rows longer than
/// kRingMaxCols. Host work: call it outside any timed window.
template <typename T>
RowsRingPlan plan_rows_ring(const T* in, std::int64_t rows, std::int64_t cols, Reduction reduction, int sm_count,
                            int cc_major);

/// out[r] = the sum (or max) of row r, rows of up to kRingMaxCols elements: a persistent grid
/// whose blocks stream tiles of whole rows (8 KiB, any width) into a 4-slot shared-memory ring
/// with bulk copies (3 tiles in flight while one is reduced), a group of 1-32 lanes per row folds
/// the row from shared memory and one lane writes it. plan.shape.blocks == 0: launch_rows_flat.
template <typename T>
void launch_rows_ring(const T* in, T* out, std::int64_t rows, std::int64_t cols, Reduction reduction,
                      const RowsRingPlan& plan, cudaStream_t stream);

}  // namespace kbench::sum
