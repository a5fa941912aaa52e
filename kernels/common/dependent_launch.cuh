#pragma once
/// Programmatic dependent launch (compute capability 9.0 and later): the second kernel of a
/// two-kernel call (a reduction of the first one's partials) is launched so that its blocks may
/// become resident while the first kernel's last blocks still run, instead of after the first
/// kernel has drained and a fresh launch has gone through; it waits inside for the first kernel's
/// writes. The first kernel calls allow_dependents() once its blocks are placed; the second calls
/// wait_for_primary() before it reads anything the first wrote. Below 9.0 both are no-ops and
/// launch_dependent launches plainly. Included by .cu files only.

#include "harness/device/cuda_check.hpp"
#include "harness/device/current_device.hpp"

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

/// Launches `kernel` on `stream` as the dependent of the kernel launched before it (programmatic
/// stream serialization) where the current device has compute capability 9.0 or later; a plain
/// launch elsewhere. `kernel` must call wait_for_primary() before it reads the first kernel's output.
template <typename... Params, typename... Args>
void launch_dependent(void (*kernel)(Params...), dim3 grid, dim3 block, std::size_t shared_bytes,
                      cudaStream_t stream, Args&&... args) {
  static const bool supported = current_compute_capability().major >= 9;
  cudaLaunchConfig_t config{};
  config.gridDim = grid;
  config.blockDim = block;
  config.dynamicSmemBytes = shared_bytes;
  config.stream = stream;
  cudaLaunchAttribute dependent{};
  dependent.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  dependent.val.programmaticStreamSerializationAllowed = 1;
  config.attrs = &dependent;
  config.numAttrs = supported ? 1 : 0;
  KBENCH_CUDA_CALL(cudaLaunchKernelEx(&config, kernel, std::forward<Args>(args)...));
}

}  // namespace kbench
