#pragma once
/// Host-side tensors in a kbench dtype: the bytes that go to the device, and the same values as
/// floats for references. Host-only.

#include "harness/ops/dtype.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace kbench {

struct HostTensor {
  DType dtype = DType::f32;
  std::vector<std::uint8_t> bytes;  ///< encoded in `dtype`, ready for cudaMemcpy
  std::vector<float> values;        ///< the exact dtype values, widened to float

  std::size_t size() const { return values.size(); }
};

/// `count` values drawn uniformly from [low, high), rounded to `dtype`. Never all zeros.
HostTensor random_tensor(DType dtype, std::size_t count, std::uint64_t seed, float low = -1.0f, float high = 1.0f);

/// Decodes `count` elements of `dtype` from raw bytes into floats (exact for every dtype).
std::vector<float> decode_to_float(DType dtype, const void* bytes, std::size_t count);
/// The same into `values`, resized to `count` (storage already that size is reused as it is).
void decode_to_float(DType dtype, const void* bytes, std::size_t count, std::vector<float>& values);

/// Sets element i of `x` to `value` rounded to its dtype, in its bytes and its float values;
/// infinities and NaN stay what they are (tests feed kernels masks and special values this way).
void set_element(HostTensor& x, std::size_t i, float value);

/// Rounds a float to `dtype` (round to nearest even) and back.
float round_to_dtype(DType dtype, float value);

}  // namespace kbench
