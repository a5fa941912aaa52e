#pragma once
/// The memory-roof reference row: a device-to-device cudaMemcpyAsync that reads and writes the
/// same number of bytes as the case it stands beside.

#include "harness/device/cuda_resources.hpp"
#include "harness/ops/op.hpp"

#include <cstdint>
#include <memory>

namespace kbench {

/// Name of the roof row in tables and results.
inline constexpr const char* kCopyRoofVariant = "d2d_copy";

/// The roof row as a variant of its case: role roof, no kernel (CUPTI records the copy as a
/// memcpy), source kbench. Runs and plans describe the row the same way.
VariantInfo copy_roof_variant();

/// Bytes to copy so that the copy moves (reads + writes) `traffic.bytes_total()` bytes, rounded
/// down to 16 bytes and at least 16.
std::size_t copy_roof_bytes(const Traffic& traffic);

/// A Workload with one variant: cudaMemcpyAsync of `bytes` from a random source to a destination.
std::unique_ptr<Workload> prepare_copy_roof(std::size_t bytes, std::uint64_t seed);

}  // namespace kbench
