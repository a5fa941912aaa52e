#pragma once
/// Launchers for y = softmax(x) over the last dimension of a rows x cols row-major tensor:
/// y[r][c] = e^(x[r][c] - max_r) / sum_c' e^(x[r][c'] - max_r). Math is fp32 whatever T is
/// (load, widen, compute, round on store). Each launcher enqueues on `stream` and checks every
/// launch. Instantiated for float, __half and __nv_bfloat16.

#include <cuda_runtime_api.h>

#include <cstdint>

namespace kbench::softmax {

/// Device scratch of the manual chain, allocated once by the workload (never inside a call).
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

}  // namespace kbench::softmax
