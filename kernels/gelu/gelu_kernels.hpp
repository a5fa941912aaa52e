#pragma once
/// Launchers for y = GELU(x) over n elements, in two forms: the tanh approximation
/// 0.5 x (1 + tanh(0.79788456 (x + 0.044715 x^3))) and the exact erf form 0.5 x (1 + erf(x / sqrt 2)).
/// Math is fp32 whatever T is. Each launcher enqueues on `stream` and checks every launch.
/// Instantiated for float, __half and __nv_bfloat16 in gelu_manual.cu, gelu_fused.cu, gelu_cub.cu.

#include <cuda_runtime_api.h>

#include <cstdint>

namespace kbench::gelu {

enum class Form { tanh, erf };

/// Kernels the manual chain launches per call: x^3, *0.044715, +x, *0.79788456, tanh, +1, *x,
/// *0.5 for the tanh form; *(1/sqrt 2), erf, +1, *x, *0.5 for the erf form.
constexpr int manual_steps(Form form) { return form == Form::tanh ? 8 : 5; }

/// The unfused chain a framework's naive code runs: one elementwise kernel per step, each reading
/// its operands from memory and writing its result, rounded to T. `t0` and `t1` are n-element
/// temporaries the caller allocated once (ping-pong); y is written by the last step only.
template <typename T>
void launch_manual(Form form, const T* x, T* y, T* t0, T* t1, std::int64_t n, cudaStream_t stream);

/// One element per thread, 256-thread blocks.
template <typename T>
void launch_fused(Form form, const T* x, T* y, std::int64_t n, cudaStream_t stream);

/// Threads per block of the vectorized kernel.
constexpr int kVectorizedBlock = 256;

/// Blocks for the vectorized kernel: enough to fill every SM at full occupancy, fewer when n is small.
template <typename T>
int vectorized_grid(Form form, std::int64_t n, int sm_count);

/// The fused computation as a grid-stride loop over 16-byte vectors, several loads in flight per
/// thread, and a scalar tail. `grid` blocks of kVectorizedBlock threads. x and y must be 16-byte aligned.
template <typename T>
void launch_vectorized(Form form, const T* x, T* y, std::int64_t n, int grid, cudaStream_t stream);

/// The fused computation over 16-byte vectors, one contiguous tile of kVectorizedBlock x 4 vectors
/// per block and as many blocks as the tensor needs (no grid-stride loop), scalar tail in block 0.
/// x and y must be 16-byte aligned.
template <typename T>
void launch_blocked(Form form, const T* x, T* y, std::int64_t n, cudaStream_t stream);

/// Baseline: cub::DeviceTransform::Transform with the functor of launch_fused.
template <typename T>
void launch_cub_transform(Form form, const T* x, T* y, std::int64_t n, cudaStream_t stream);

}  // namespace kbench::gelu
