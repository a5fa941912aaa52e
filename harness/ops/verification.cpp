#include "harness/ops/verification.hpp"

#include "harness/common/parallel_for.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace kbench {

Tolerance elementwise_tolerance(DType dtype) {
  // Half an ulp is 2^-24 (fp32), 2^-11 (fp16) and 2^-8 (bf16) relative; allow about two ulps.
  switch (dtype) {
    case DType::f32: return {1e-30, 2.5e-7};
    case DType::f16: return {1e-7, 2e-3};
    case DType::bf16: return {1e-30, 1.6e-2};
    case DType::tf32: return {1e-30, 2.5e-7};  // elementwise ops never compute in tf32
  }
  return {};
}

Tolerance fp32_math_tolerance(DType dtype) {
  switch (dtype) {
    case DType::f16: return {1e-6, 2e-3};
    case DType::bf16: return {1e-6, 1.6e-2};
    case DType::f32:
    case DType::tf32: break;
  }
  return {1e-7, 1e-5};
}

double allowed_error(const Tolerance& tolerance, double reference, double scale) {
  return tolerance.abs + tolerance.rel * std::fabs(reference) + (tolerance.scaled == 0 ? 0.0 : tolerance.scaled * scale);
}

Verification compare_with_reference(const std::vector<float>& output, const std::vector<double>& reference,
                                    Tolerance tolerance, const std::vector<double>& scale) {
  Verification result;
  result.tolerance = tolerance;
  if (!scale.empty() && scale.size() != reference.size()) {
    result.message = "scale has " + std::to_string(scale.size()) + " elements, reference " + std::to_string(reference.size());
    return result;
  }
  if (output.size() != reference.size()) {
    result.message = "output has " + std::to_string(output.size()) + " elements, reference " +
                     std::to_string(reference.size());
    return result;
  }
  // Per-chunk partials, combined in chunk order: the same figures on any thread count.
  struct Partial {
    std::int64_t first_mismatch = -1, mismatches = 0;
    double max_abs_error = 0, error_sq = 0, reference_sq = 0;
  };
  constexpr std::int64_t kGrain = 1 << 16;
  const auto count = static_cast<std::int64_t>(output.size());
  std::vector<Partial> partials(static_cast<std::size_t>(chunk_count(count, kGrain)));
  parallel_for(count, kGrain, [&](std::int64_t begin, std::int64_t end) {
    Partial& p = partials[static_cast<std::size_t>(begin / kGrain)];
    for (auto i = static_cast<std::size_t>(begin); i < static_cast<std::size_t>(end); ++i) {
      const double out = output[i];
      const double ref = reference[i];
      const double error = std::fabs(out - ref);
      const double bound = allowed_error(tolerance, ref, scale.empty() ? 0.0 : scale[i]);
      const bool ok = std::isfinite(out) && error <= bound;
      if (!ok) {
        if (p.first_mismatch < 0) p.first_mismatch = static_cast<std::int64_t>(i);
        ++p.mismatches;
      }
      if (std::isfinite(out)) {
        if (error > p.max_abs_error) p.max_abs_error = error;
        p.error_sq += error * error;
      }
      p.reference_sq += ref * ref;
    }
  });
  double error_sq = 0, reference_sq = 0;
  for (const Partial& p : partials) {
    if (result.first_mismatch < 0) result.first_mismatch = p.first_mismatch;
    result.mismatches += p.mismatches;
    result.max_abs_error = std::max(result.max_abs_error, p.max_abs_error);
    error_sq += p.error_sq;
    reference_sq += p.reference_sq;
  }
  result.checked = static_cast<std::int64_t>(output.size());
  result.rel_l2_error = reference_sq > 0 ? std::sqrt(error_sq / reference_sq) : std::sqrt(error_sq);
  result.passed = result.mismatches == 0 && result.checked > 0;

  char line[256];
  if (result.passed) {
    std::snprintf(line, sizeof line, "ok: %lld elements, max |err| %.3g, rel L2 err %.3g",
                  static_cast<long long>(result.checked), result.max_abs_error, result.rel_l2_error);
  } else if (result.checked == 0) {
    std::snprintf(line, sizeof line, "nothing to compare");
  } else {
    const auto i = static_cast<std::size_t>(result.first_mismatch);
    std::snprintf(line, sizeof line, "%lld of %lld elements outside tolerance (first at %lld: got %.8g, expected %.8g)",
                  static_cast<long long>(result.mismatches), static_cast<long long>(result.checked),
                  static_cast<long long>(i), static_cast<double>(output[i]), reference[i]);
  }
  result.message = line;
  return result;
}

}  // namespace kbench
