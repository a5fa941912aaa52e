#include "harness/ops/host_tensor.hpp"
#include "support/catch.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

using namespace kbench;

TEST_CASE("random tensors are in range, not all zero, and differ by seed", "[tensor]") {
  const HostTensor a = random_tensor(DType::f32, 1000, 1);
  const HostTensor b = random_tensor(DType::f32, 1000, 2);
  CHECK(a.size() == 1000);
  CHECK(a.bytes.size() == 4000);
  CHECK(std::all_of(a.values.begin(), a.values.end(), [](float v) { return v >= -1.0f && v < 1.0f; }));
  CHECK(std::count(a.values.begin(), a.values.end(), 0.0f) < 5);
  CHECK(a.values != b.values);
  CHECK(random_tensor(DType::f32, 1000, 1).values == a.values);  // reproducible
}

TEST_CASE("fp16 and bf16 tensors hold exactly their encoded values", "[tensor]") {
  for (DType dtype : {DType::f16, DType::bf16}) {
    const HostTensor t = random_tensor(dtype, 257, 7);
    CHECK(t.bytes.size() == 257 * 2);
    CHECK(decode_to_float(dtype, t.bytes.data(), t.size()) == t.values);
    for (float v : t.values) CHECK(round_to_dtype(dtype, v) == v);
  }
}

TEST_CASE("rounding to fp16 and bf16 is to nearest", "[tensor]") {
  CHECK(round_to_dtype(DType::f16, 1.0f + 1.0f / 4096) == 1.0f);        // below half an fp16 ulp (2^-10)
  CHECK(round_to_dtype(DType::f16, 1.0f + 3.0f / 2048) == 1.0f + 2.0f / 1024);
  CHECK(round_to_dtype(DType::bf16, 1.0f + 1.0f / 512) == 1.0f);         // bf16 ulp at 1 is 2^-7
  CHECK(round_to_dtype(DType::bf16, 3.0f) == 3.0f);
  CHECK(round_to_dtype(DType::f32, 0.1f) == 0.1f);
}

TEST_CASE("set_element writes infinities and NaN in each dtype's bits", "[host_tensor]") {
  using kbench::DType;
  const struct {
    DType dtype;
    std::uint32_t negative_infinity, positive_infinity;
  } cases[] = {{DType::f32, 0xff800000u, 0x7f800000u}, {DType::f16, 0xfc00u, 0x7c00u}, {DType::bf16, 0xff80u, 0x7f80u}};
  for (const auto& c : cases) {
    kbench::HostTensor x = kbench::random_tensor(c.dtype, 4, 1);
    kbench::set_element(x, 1, -INFINITY);
    kbench::set_element(x, 2, INFINITY);
    kbench::set_element(x, 3, NAN);
    const std::size_t size = kbench::dtype_size(c.dtype);
    std::uint32_t bits[4] = {};
    for (int i = 0; i < 4; ++i) std::memcpy(&bits[i], x.bytes.data() + i * size, size);
    CHECK(bits[1] == c.negative_infinity);
    CHECK(bits[2] == c.positive_infinity);
    CHECK(x.values[1] == -INFINITY);
    CHECK(x.values[2] == INFINITY);
    CHECK(std::isnan(x.values[3]));
    CHECK(std::isnan(kbench::decode_to_float(c.dtype, x.bytes.data(), 4)[3]));
    CHECK(x.values[0] == kbench::decode_to_float(c.dtype, x.bytes.data(), 4)[0]);  // untouched
  }
}
