#include "harness/ops/verification.hpp"
#include "support/catch.hpp"

#include <cmath>
#include <limits>

using namespace kbench;

TEST_CASE("outputs within tolerance pass", "[verify]") {
  const Verification v = compare_with_reference({1.0f, -2.0f, 0.5f}, {1.0, -2.0, 0.5}, {0, 1e-6});
  CHECK(v.passed);
  CHECK(v.mismatches == 0);
  CHECK(v.checked == 3);
  CHECK(v.first_mismatch == -1);
  CHECK(contains(v.message, "ok"));
}

TEST_CASE("NaN (an unwritten, poisoned element) never passes", "[verify]") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const Verification v = compare_with_reference({1.0f, nan, 3.0f}, {1.0, 2.0, 3.0}, {1e9, 1e9});
  CHECK_FALSE(v.passed);
  CHECK(v.mismatches == 1);
  CHECK(v.first_mismatch == 1);
  CHECK(contains(v.message, "1 of 3 elements outside tolerance (first at 1"));
}

TEST_CASE("errors beyond abs + rel * |ref| fail, and are counted", "[verify]") {
  const Verification v = compare_with_reference({1.001f, 2.0f, 100.5f}, {1.0, 2.0, 100.0}, {0, 1e-3});
  CHECK_FALSE(v.passed);
  CHECK(v.mismatches == 2);  // 1.001 vs 1 is just over 1e-3 relative; 100.5 is 5e-3 off
  CHECK(v.max_abs_error == Approx(0.5));
  CHECK(v.rel_l2_error > 0);
}

TEST_CASE("size mismatch and empty outputs do not pass", "[verify]") {
  CHECK_FALSE(compare_with_reference({1.0f}, {1.0, 2.0}, {1, 1}).passed);
  CHECK_FALSE(compare_with_reference({}, {}, {1, 1}).passed);
}

TEST_CASE("elementwise tolerances grow with the dtype's ulp", "[verify]") {
  CHECK(elementwise_tolerance(DType::f32).rel < elementwise_tolerance(DType::f16).rel);
  CHECK(elementwise_tolerance(DType::f16).rel < elementwise_tolerance(DType::bf16).rel);
  CHECK(elementwise_tolerance(DType::bf16).rel < 0.05);
}

TEST_CASE("a per-element scale bounds errors of sums that cancel", "[verify]") {
  // A sum of large terms that cancels to ~0: relative-to-result tolerance would reject
  // ordinary rounding; the scale (sum of |terms|) accepts it, and still rejects real errors.
  const std::vector<double> reference{0.0, 1.0};
  const std::vector<double> scale{1000.0, 1.0};
  const Tolerance tolerance{0, 1e-6, 1e-6};
  CHECK(compare_with_reference({5e-4f, 1.0f}, reference, tolerance, scale).passed);
  CHECK_FALSE(compare_with_reference({5e-2f, 1.0f}, reference, tolerance, scale).passed);
  CHECK_FALSE(compare_with_reference({5e-4f, 1.0f}, reference, tolerance).passed);  // no scale
  CHECK_FALSE(compare_with_reference({0.0f, 1.0f}, reference, tolerance, {1.0}).passed);  // wrong size
}
