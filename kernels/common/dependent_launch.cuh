#pragma once
/// Programmatic dependent launch (compute capability 9.0+): a second kernel on the same stream is
/// launched while the first still runs, becomes resident once every block of the first has
/// called allow_dependent_launch (or exited), and waits in wait_for_prerequisite_grids until the
/// first has finished and its writes are visible. Its launch then overlaps the first kernel
/// instead of following it. Below 9.0 both device calls compile to nothing and the launch
/// attribute is not set, so the two kernels simply run one after the other. Included by .cu files.

#include "harness/device/cuda_check.hpp"

#include <cuda_runtime.h>

namespace kbench {

/// Lets the grid launched after this one on its stream (with launch_dependent) start.
__device__ __forceinline__ void allow_dependent_launch() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

/// Waits until the grid this one depends on has completed and its memory writes are visible.
__device__ __forceinline__ void wait_for_prerequisite_grids() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

/// Launches `kernel` on `stream` as a programmatic dependent of the kernel before it when
/// `programmatic` (compute capability 9.0+), as an ordinary launch otherwise.
template <typename... Params, typename... Args>
void launch_dependent(bool programmatic, void (*kernel)(Params...), dim3 grid, dim3 block, cudaStream_t stream,
                      Args... args) {
  cudaLaunchConfig_t config{};
  config.gridDim = grid;
  config.blockDim = block;
  config.stream = stream;
  cudaLaunchAttribute dependent{};
  dependent.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  dependent.val.programmaticStreamSerializationAllowed = 1;
  config.attrs = &dependent;
  config.numAttrs = programmatic ? 1 : 0;
  KBENCH_CUDA_CALL(cudaLaunchKernelEx(&config, kernel, static_cast<Params>(args)...));
}

}  // namespace kbench
