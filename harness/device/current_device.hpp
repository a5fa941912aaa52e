#pragma once
/// The current CUDA device's properties as ops and variants choose kernels and launch shapes by
/// them. CUDA runtime API only (no device code).

#include "kbench/types.hpp"

#include <cstdint>

namespace kbench {

/// The current device's compute capability (an op choosing a kernel, or refusing one built for
/// another architecture).
struct ComputeCapability {
  int major = 0;
  int minor = 0;
};
ComputeCapability current_compute_capability();

/// The current device's number of SMs (an op sizing its grid, or choosing a tile size).
int current_sm_count();

/// The shared memory one SM of the current device holds, in bytes (an op counting how many of its
/// blocks fit an SM).
std::int64_t current_shared_memory_per_sm();

/// The current device as variants see it (kbench/types.hpp): compute capability, SMs, L2 size.
Device current_device();

}  // namespace kbench
