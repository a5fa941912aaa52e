#include "harness/ops/host_tensor.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "harness/common/host_memory.hpp"
#include "harness/common/parallel_for.hpp"

#include <cstring>

namespace kbench {

namespace {

/// Elements per chunk of the host loops below (parallel_for).
constexpr std::int64_t kGrain = 1 << 16;

/// SplitMix64: a small, fast generator whose streams differ for every seed. Its state after k
/// draws is seed + k * the increment, so any stretch of the stream can be drawn on its own.
struct SplitMix64 {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  float uniform01() { return static_cast<float>(next() >> 40) * (1.0f / 16777216.0f); }
};

template <typename T>
void encode(std::vector<float>& values, std::vector<std::uint8_t>& bytes, T (*convert)(float), float (*widen)(T)) {
  resize_prefaulted(bytes, values.size() * sizeof(T));
  parallel_for(static_cast<std::int64_t>(values.size()), kGrain, [&](std::int64_t begin, std::int64_t end) {
    for (auto i = static_cast<std::size_t>(begin); i < static_cast<std::size_t>(end); ++i) {
      const T encoded = convert(values[i]);
      values[i] = widen(encoded);
      std::memcpy(bytes.data() + i * sizeof(T), &encoded, sizeof(T));
    }
  });
}

__half to_half(float v) { return __float2half_rn(v); }
float from_half(__half v) { return __half2float(v); }
__nv_bfloat16 to_bf16(float v) { return __float2bfloat16_rn(v); }
float from_bf16(__nv_bfloat16 v) { return __bfloat162float(v); }

template <typename T, typename ToFloat>
void decode_range(const std::uint8_t* raw, float* values, std::int64_t begin, std::int64_t end, ToFloat to_float) {
  for (std::int64_t i = begin; i < end; ++i) {
    T x;
    std::memcpy(&x, raw + sizeof(T) * static_cast<std::size_t>(i), sizeof(T));
    values[i] = to_float(x);
  }
}

}  // namespace

HostTensor random_tensor(DType dtype, std::size_t count, std::uint64_t seed, float low, float high) {
  HostTensor tensor;
  tensor.dtype = dtype;
  resize_prefaulted(tensor.values, count);
  // Chunk by chunk, each from its own point of the one stream: the same values on any thread count.
  parallel_for(static_cast<std::int64_t>(count), kGrain, [&](std::int64_t begin, std::int64_t end) {
    SplitMix64 rng{seed + 0x9E3779B97F4A7C15ull * static_cast<std::uint64_t>(begin)};
    for (std::int64_t i = begin; i < end; ++i) tensor.values[static_cast<std::size_t>(i)] = low + (high - low) * rng.uniform01();
  });
  switch (storage_dtype(dtype)) {
    case DType::f32:
    case DType::tf32:
      resize_prefaulted(tensor.bytes, count * sizeof(float));
      parallel_for(static_cast<std::int64_t>(count), kGrain, [&](std::int64_t begin, std::int64_t end) {
        std::memcpy(tensor.bytes.data() + 4 * begin, tensor.values.data() + begin, 4 * static_cast<std::size_t>(end - begin));
      });
      break;
    case DType::f16: encode<__half>(tensor.values, tensor.bytes, to_half, from_half); break;
    case DType::bf16: encode<__nv_bfloat16>(tensor.values, tensor.bytes, to_bf16, from_bf16); break;
  }
  return tensor;
}

void decode_to_float(DType dtype, const void* bytes, std::size_t count, std::vector<float>& values) {
  resize_prefaulted(values, count);
  const auto* raw = static_cast<const std::uint8_t*>(bytes);
  float* out = values.data();
  const DType storage = storage_dtype(dtype);
  parallel_for(static_cast<std::int64_t>(count), kGrain, [&](std::int64_t begin, std::int64_t end) {
    switch (storage) {
      case DType::f32:
      case DType::tf32: std::memcpy(out + begin, raw + 4 * static_cast<std::size_t>(begin), 4 * static_cast<std::size_t>(end - begin)); break;
      case DType::f16: decode_range<__half>(raw, out, begin, end, from_half); break;
      case DType::bf16: decode_range<__nv_bfloat16>(raw, out, begin, end, from_bf16); break;
    }
  });
}

std::vector<float> decode_to_float(DType dtype, const void* bytes, std::size_t count) {
  std::vector<float> values;
  decode_to_float(dtype, bytes, count, values);
  return values;
}

void set_element(HostTensor& x, std::size_t i, float value) {
  std::uint8_t* at = x.bytes.data() + i * dtype_size(x.dtype);
  switch (x.dtype) {
    case DType::f16: {
      const __half encoded = __float2half_rn(value);
      std::memcpy(at, &encoded, sizeof(encoded));
      x.values[i] = __half2float(encoded);
      return;
    }
    case DType::bf16: {
      const __nv_bfloat16 encoded = __float2bfloat16_rn(value);
      std::memcpy(at, &encoded, sizeof(encoded));
      x.values[i] = __bfloat162float(encoded);
      return;
    }
    case DType::f32:
    case DType::tf32: break;
  }
  const float rounded = round_to_dtype(x.dtype, value);
  std::memcpy(at, &rounded, sizeof(rounded));
  x.values[i] = rounded;
}

float round_to_dtype(DType dtype, float value) {
  switch (dtype) {
    case DType::f32: return value;
    case DType::tf32: {
      // Round to nearest on the 10 explicit mantissa bits TF32 keeps (finite values).
      std::uint32_t bits;
      std::memcpy(&bits, &value, 4);
      bits = (bits + 0xFFFu + ((bits >> 13) & 1u)) & ~0x1FFFu;
      float rounded;
      std::memcpy(&rounded, &bits, 4);
      return rounded;
    }
    case DType::f16: return __half2float(__float2half_rn(value));
    case DType::bf16: return __bfloat162float(__float2bfloat16_rn(value));
  }
  return value;
}

}  // namespace kbench
