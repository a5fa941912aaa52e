#pragma once
/// The wall time of a variant's first call on a case's inputs: what a user's first call pays
/// beyond the steady state (lazy module loading, JIT, first touch of buffers, a library's set-up
/// on first use). Host code, CUDA runtime only; never inside a timed window.

#include <cuda_runtime_api.h>

#include <functional>

namespace kbench {

/// Drains `stream` (work queued before, such as poisoning outputs, is not counted), then returns
/// the milliseconds from before `call` enqueues its work to after `stream` has drained again,
/// on the host's steady clock. Throws CudaError when the call fails.
double call_wall_ms(const std::function<void(cudaStream_t)>& call, cudaStream_t stream);

}  // namespace kbench
