#pragma once
/// Kernel launches with attributes (cudaLaunchKernelEx): cooperative grids, whose blocks wait on
/// each other and so must all be resident at once, and programmatic dependent launches.
///
/// A dependent launch (compute capability 9.0 and later) is for the second kernel of a
/// two-kernel call: its blocks may become resident while the first kernel's last blocks still run,
/// instead of after the first kernel has drained and a fresh launch has gone through. The first
/// kernel calls allow_dependents() once its blocks are placed; the second calls wait_for_primary()
/// before it reads anything the first one writes or writes anything the first one touches. Where
/// the kernel's code is older than 9.0 both are no-ops and launch_dependent launches plainly.
/// Included by .cu files only.

#include "harness/device/cuda_check.hpp"

#include <cuda_runtime.h>

#include <cstddef>
#include <utility>

namespace kbench {

/// In the first kernel: lets the dependent kernel launch once every block of this one has called
/// it or exited.
__device__ __forceinline__ void allow_dependents() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

/// In the dependent kernel: waits until the kernels before it in the stream have completed and
/// their writes are visible.
__device__ __forceinline__ void wait_for_primary() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

/// Launches `kernel` with the first `count` of `attributes`; a failed launch throws CudaError and
/// leaves no error behind for the next launch's check.
template <typename... Params, typename... Args>
void launch_with(cudaLaunchAttribute* attributes, unsigned count, void (*kernel)(Params...), dim3 grid,
                 dim3 block, std::size_t shared_bytes, cudaStream_t stream, Args&&... args) {
  cudaLaunchConfig_t config{};
  config.gridDim = grid;
  config.blockDim = block;
  config.dynamicSmemBytes = shared_bytes;
  config.stream = stream;
  config.attrs = attributes;
  config.numAttrs = count;
  const cudaError_t status = cudaLaunchKernelEx(&config, kernel, std::forward<Args>(args)...);
  if (status != cudaSuccess) (void)cudaGetLastError();
  KBENCH_CUDA_CALL(status);
}

/// Launches `kernel` with every block resident at once, or fails (cudaErrorCooperativeLaunchTooLarge).
template <typename... Params, typename... Args>
void launch_cooperative(void (*kernel)(Params...), dim3 grid, dim3 block, std::size_t shared_bytes,
                        cudaStream_t stream, Args&&... args) {
  cudaLaunchAttribute cooperative{};
  cooperative.id = cudaLaunchAttributeCooperative;
  cooperative.val.cooperative = 1;
  launch_with(&cooperative, 1, kernel, grid, block, shared_bytes, stream, std::forward<Args>(args)...);
}

/// Whether `kernel`, as it runs on the current device, was compiled from code for compute
/// capability 9.0 or later (so that its griddepcontrol instructions are there).
inline bool runs_dependent_launch(const void* kernel) {
  cudaFuncAttributes attributes{};
  KBENCH_CUDA_CALL(cudaFuncGetAttributes(&attributes, kernel));
  return attributes.ptxVersion >= 90 && attributes.binaryVersion >= 90;
}

/// Launches `kKernel` on `stream` as the dependent of the kernel launched before it (programmatic
/// stream serialization) where its code allows (runs_dependent_launch, read on the first launch:
/// kbench uses one device per process); a plain launch elsewhere. `kKernel` must call
/// wait_for_primary() as the header says.
template <auto kKernel, typename... Args>
void launch_dependent(dim3 grid, dim3 block, std::size_t shared_bytes, cudaStream_t stream, Args&&... args) {
  static const bool runs = runs_dependent_launch(reinterpret_cast<const void*>(kKernel));
  cudaLaunchAttribute dependent{};
  dependent.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  dependent.val.programmaticStreamSerializationAllowed = 1;
  launch_with(&dependent, runs ? 1 : 0, kKernel, grid, block, shared_bytes, stream, std::forward<Args>(args)...);
}

}  // namespace kbench
