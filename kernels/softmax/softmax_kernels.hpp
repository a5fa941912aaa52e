#pragma once
/// Launchers for y = softmax(x) over the last dimension of a rows x cols row-major tensor:
/// y[r][c] = e^(x[r][c] - max_r) / sum_c' e^(x[r][c'] - max_r). Math is fp32 whatever T is
/// (load, widen, compute, round on store). Each launcher enqueues on `stream` and checks every
/// launch. Instantiated for float, __half and __nv_bfloat16.

#include "kernels/softmax/softmax_auto.hpp"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace kbench::softmax {

/// Device scratch of the manual chain, allocated once per problem by the variant (never inside a call).
template <typename T>
struct ManualScratch {
  T* shifted = nullptr;      ///< rows x cols: x - max, in T
  T* exponentials = nullptr; ///< rows x cols: e^(x - max), in T
  float* row_max = nullptr;  ///< rows
  float* row_sum = nullptr;  ///< rows
};

/// The unfused chain a framework's naive code runs, five kernels: row max, subtract, exp, row
/// sum, divide. Intermediates are stored in T; the per-row max and sum in fp32.
template <typename T>
void launch_manual(const T* x, T* y, const ManualScratch<T>& scratch, std::int64_t rows, std::int64_t cols,
                   cudaStream_t stream);

/// One block per row, three passes over the row inside one kernel (max, sum of exponentials,
/// write), block reductions through warp shuffles. Scalar loads.
template <typename T>
void launch_fused(const T* x, T* y, std::int64_t rows, std::int64_t cols, cudaStream_t stream);

/// Rows of at most this many elements get a warp each in the online kernel; longer rows a block.
constexpr std::int64_t kWarpPerRowMaxCols = 1024;

/// Single-pass online softmax (running max and rescaled running sum), then one write pass. A warp
/// per row up to kWarpPerRowMaxCols elements, a block per row beyond. 16-byte vector loads and
/// stores when x and y are 16-byte aligned and cols is a multiple of 16 / sizeof(T) (then every
/// row starts aligned); a scalar path otherwise.
template <typename T>
void launch_online(const T* x, T* y, std::int64_t rows, std::int64_t cols, cudaStream_t stream);

/// Longest row, in 16-byte vectors, that the register-row kernel holds without spilling: 8 vectors
/// per thread of a 1024-thread block in fp32 (32768 elements), 4 in fp16/bf16 (32768 elements;
/// 8 spilled in bf16 under the 64-register cap of 1024-thread blocks).
constexpr std::int64_t register_row_max_vectors(std::size_t element_size) {
  return element_size == 4 ? 8 * 1024 : 4 * 1024;
}

/// Whether rows of `cols` elements of `element_size` bytes take the register-row kernel: at most
/// register_row_max_vectors whole 16-byte vectors' worth of elements, any width.
bool register_row_fits(std::int64_t cols, std::size_t element_size);

/// One block per row with the row held in registers between the reduction and the write: one
/// DRAM read and one write per element. The row's aligned body by 16-byte loads and stores, its
/// head and tail (rows that are not whole vectors) one element per thread; x and y 16-byte
/// aligned and rows that fit (register_row_fits), otherwise it runs launch_online.
template <typename T>
void launch_register_row(const T* x, T* y, std::int64_t rows, std::int64_t cols, cudaStream_t stream);

/// Many short rows (at most kPackedMaxCols elements, softmax_auto.hpp): each block copies a tile
/// of whole rows (about 16 KiB of the flat array) into shared memory with 16-byte loads whatever
/// the row length, a group of lanes_per_row(cols) lanes computes one row's max and sum and writes
/// its outputs in place, and the block stores the tile with 16-byte stores. Longer rows run
/// launch_online.
template <typename T>
void launch_packed_rows(const T* x, T* y, std::int64_t rows, std::int64_t cols, cudaStream_t stream);

/// Many short rows (at most kShortMaxCols elements, softmax_auto.hpp): a group of 1-32 lanes per
/// row holds the row in registers from load to store (short_rows_shape): 16-byte loads and stores
/// straight from global memory where rows are whole vectors of an aligned tensor, otherwise a tile
/// of whole rows staged in shared memory with 16-byte copies. Longer rows run launch_online.
template <typename T>
void launch_short_rows(const T* x, T* y, std::int64_t rows, std::int64_t cols, cudaStream_t stream);

/// Many short rows of any width (at most kWarpRowsMaxCols elements, softmax_auto.hpp): a group of
/// 1-32 lanes per row (warp_rows_shape), each lane loading its 4-byte words of the row straight
/// from global memory for 1-8 rows before the first reduction, shuffle reductions, stores of the
/// same width; no shared memory. x and y must be 4-byte aligned; other pointers, and longer rows,
/// run launch_short_rows.
template <typename T>
void launch_warp_rows(const T* x, T* y, std::int64_t rows, std::int64_t cols, cudaStream_t stream);

/// Many short rows of any width (at most kGrainRowsMaxCols elements, softmax_auto.hpp): a group of
/// 1-32 lanes per row (grain_rows_shape), each lane loading its row's grains (the widest load that
/// divides the row and the pointers' alignment: single elements for odd widths) straight from
/// global memory for 1-16 rows before the first reduction, shuffle reductions, stores of the same
/// width; no shared memory. Longer rows run launch_short_rows.
template <typename T>
void launch_grain_rows(const T* x, T* y, std::int64_t rows, std::int64_t cols, cudaStream_t stream);

/// Many short rows of any width, body_rows_min_cols to body_rows_max_cols elements (16-bit 16-2048,
/// fp32 8-1024), x and y 16-byte aligned (softmax_auto.hpp, body_rows_shape): a group of 4-32 lanes
/// per row, each lane loading 1-8 16-byte vectors of the row's aligned body and its share of the
/// head and tail elements, at least kBodyRowsBytesInFlight bytes of vectors per lane before the
/// first reduction; shuffle reductions, stores of the same widths, no shared memory. Other rows
/// and unaligned tensors run launch_grain_rows.
template <typename T>
void launch_body_rows(const T* x, T* y, std::int64_t rows, std::int64_t cols, cudaStream_t stream);

/// Many rows shorter than two 16-byte vectors whose byte width is not a multiple of 16
/// (vector_rows_fits, softmax_auto.hpp): a lane owns R = 16 / gcd(row bytes, 16) whole rows, V
/// whole 16-byte vectors, and computes them in registers with no shuffle (vector_rows_shape); the
/// last rows % R rows go row by row. x and y must be 16-byte aligned; other pointers and other
/// widths run launch_grain_rows (16-bit) or launch_short_rows (fp32).
template <typename T>
void launch_vector_rows(const T* x, T* y, std::int64_t rows, std::int64_t cols, cudaStream_t stream);

/// How launch_grid_row runs a problem, decided once per problem (plan_grid_row).
struct GridRowPlan {
  GridRowShape shape;  ///< blocks_per_row = 0: the online kernel runs instead
};

/// Bytes of device scratch launch_grid_row needs for `shape`: two buffers of every block's
/// (max, sum) and two counters per row in flight. The counters must be zero before the first call;
/// every call leaves them zero.
std::size_t grid_row_scratch_bytes(const GridRowShape& shape);

/// The launch shape of the grid-row kernel (grid_row_shape, for the blocks of it that the device
/// holds at once), with the kernel's shared-memory limit raised to its slice; blocks_per_row = 0
/// where it cannot run (below compute capability 9.0, x and y at different offsets from a 16-byte
/// boundary, rows too long for every resident block's slice together). Host work: call it outside
/// any timed window.
template <typename T>
GridRowPlan plan_grid_row(const T* x, const T* y, std::int64_t rows, std::int64_t cols, int sm_count, int cc_major);

/// Few long rows (Hopper): one cooperative grid of resident blocks, each row over
/// plan.shape.blocks_per_row blocks that hold their slices in shared memory (filled by bulk
/// copies) and exchange their (max, sum) through `scratch` (grid_row_scratch_bytes, zeroed once):
/// one read and one write per element. plan.shape.blocks_per_row == 0: launch_online.
template <typename T>
void launch_grid_row(const T* x, T* y, std::int64_t rows, std::int64_t cols, const GridRowPlan& plan, void* scratch,
                     cudaStream_t stream);

/// How launch_cluster_row runs a problem, decided once per problem (plan_cluster_row).
struct ClusterRowPlan {
  int blocks = 0;                  ///< per row (the cluster's size); 0: the online kernel runs instead
  std::int64_t slice_vectors = 0;  ///< 16-byte vectors of one block's slice (its shared memory)
  /// Each thread's vectors kept as e^(x - its maximum), so that the write multiplies instead of
  /// taking a second exponential (cluster_stores_exponentials).
  bool stores_exponentials = false;
};

/// The launch shape of the cluster-row kernel for this problem (cluster_row_blocks), with the
/// kernel's shared-memory limit raised to its slice, and a check that the device can hold such a
/// cluster; blocks = 0 where the kernel cannot run it (no clusters below compute capability 9.0,
/// rows too long for 8 slices, x and y at different offsets from a 16-byte boundary). Host work:
/// call it outside any timed window.
template <typename T>
ClusterRowPlan plan_cluster_row(const T* x, const T* y, std::int64_t rows, std::int64_t cols, int sm_count,
                                int cc_major);

/// Long rows (Hopper): a thread-block cluster of plan.blocks blocks per row, each loading its
/// slice of the row's 16-byte aligned body into shared memory once (the head and tail elements
/// in registers) and taking its (max, sum), folded online during the load or, with
/// plan.stores_exponentials, from exponentials it stores in place; the blocks' states meet
/// through distributed shared memory, and each block writes its slice from shared memory: one
/// read and one write per element. plan.blocks == 0: launch_online.
template <typename T>
void launch_cluster_row(const T* x, T* y, std::int64_t rows, std::int64_t cols, const ClusterRowPlan& plan,
                        cudaStream_t stream);

/// Rows too long or too few for a cluster: two kernels over split_row_chunks(cols) blocks per
/// row. The first writes each chunk's online (max, sum) to `states` (2 x rows x chunks floats);
/// the second combines the row's states in chunk order and writes its chunk, reading x again
/// (from L2 when the tensor fits there). 16-byte vectors over each row's aligned body; x and y
/// must sit at the same offset from a 16-byte boundary, else launch_online runs.
template <typename T>
void launch_split_row(const T* x, T* y, std::int64_t rows, std::int64_t cols, float* states, cudaStream_t stream);

}  // namespace kbench::softmax
