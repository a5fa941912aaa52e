#pragma once
/// Launchers for c = a + b over n elements. Each enqueues on `stream` and checks the launch.
/// Instantiated for float, __half and __nv_bfloat16 in add_kernels.cu and add_cub.cu.

#include <cuda_runtime_api.h>

#include <cstdint>

namespace kbench::add {

/// One element per thread: the plain kernel a first attempt would write.
template <typename T>
void launch_naive(const T* a, const T* b, T* c, std::int64_t n, cudaStream_t stream);

/// Grid-stride loop over 16-byte vectors, several loads in flight per thread, scalar tail.
/// `grid` blocks of kVectorizedBlock threads (see vectorized_grid). Pointers must be 16-byte aligned.
template <typename T>
void launch_vectorized(const T* a, const T* b, T* c, std::int64_t n, int grid, cudaStream_t stream);

/// The same 16-byte vectors in one grid that covers the tensor (no grid-stride loop): each block
/// adds one contiguous tile of kVectorizedBlock x 4 vectors. Pointers must be 16-byte aligned.
template <typename T>
void launch_blocked(const T* a, const T* b, T* c, std::int64_t n, cudaStream_t stream);

/// Threads per block of the vectorized and blocked kernels.
constexpr int kVectorizedBlock = 256;

/// Blocks for the vectorized kernel: enough to fill every SM at full occupancy, fewer when n is small.
template <typename T>
int vectorized_grid(std::int64_t n, int sm_count);

/// Baseline: cub::DeviceTransform::Transform with an add functor (the vendor's elementwise path).
template <typename T>
void launch_cub_transform(const T* a, const T* b, T* c, std::int64_t n, cudaStream_t stream);

}  // namespace kbench::add
