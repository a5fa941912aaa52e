#pragma once
/// What every op's Workload does with its output buffer around a verified launch: poison it
/// before (poison_outputs), read it back after (check_outputs). Host code, CUDA runtime only.
///
/// Contract: both calls are enqueued on the caller's stream; the read-back waits for that stream,
/// so it sees the launch enqueued before it. The buffer stays owned by the Workload.

#include "harness/device/cuda_resources.hpp"
#include "harness/ops/dtype.hpp"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace kbench {

/// Fills `output` with all-ones bytes, a NaN in fp32, fp16 and bf16: an element no thread
/// writes fails verification instead of passing on stale data.
void poison_output(const DeviceBuffer& output, cudaStream_t stream);

/// Copies the whole of `output` to the host and waits for `stream`: its raw bytes.
std::vector<std::uint8_t> read_output_bytes(const DeviceBuffer& output, cudaStream_t stream);

/// The first `count` elements of `output`, stored in `dtype`, read back and widened to float
/// (exact for every dtype).
std::vector<float> read_output(const DeviceBuffer& output, DType dtype, std::size_t count, cudaStream_t stream);

}  // namespace kbench
