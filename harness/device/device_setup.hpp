#pragma once
/// Choosing the CUDA device and checking that this binary can run on it.

#include <stdexcept>
#include <string>

#include "kbench/types.hpp"

namespace kbench {

/// No CUDA device, or no driver that can run this binary.
class NoDeviceError : public std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// The binary carries neither machine code nor PTX that the device can run.
class UnsupportedArchitectureError : public std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Number of CUDA devices, or NoDeviceError with the driver's explanation.
int cuda_device_count();

/// Makes `index` the current device, then checks that kernels of this binary can run there.
/// Returns a warning (empty if none), e.g. when the code runs JIT-compiled from PTX.
/// Throws NoDeviceError or UnsupportedArchitectureError.
std::string select_device(int index);

/// The current device's compute capability (an op choosing a kernel, or refusing one built for
/// another architecture).
struct ComputeCapability {
  int major = 0;
  int minor = 0;
};
ComputeCapability current_compute_capability();

/// The current device's number of SMs (an op sizing its grid, or choosing a tile size).
int current_sm_count();

/// The current device as variants see it (kbench/types.hpp): compute capability, SMs, L2 size.
Device current_device();

/// True when the device code was compiled with -G (device debug): timings would be meaningless.
bool device_code_is_debug();

}  // namespace kbench
