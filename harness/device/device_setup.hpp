#pragma once
/// Choosing the CUDA device and checking that this binary can run on it.

#include "harness/device/current_device.hpp"

#include <stdexcept>
#include <string>


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

/// Destroys this process's context on the current device (cudaDeviceReset). An isolated run's
/// parent, which runs no kernel, calls it once it has queried the device: its workers then have
/// the GPU's memory, and a device in an exclusive compute mode, to themselves.
void release_device();

/// True when the device code was compiled with -G (device debug): timings would be meaningless.
bool device_code_is_debug();

}  // namespace kbench
