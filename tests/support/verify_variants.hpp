#pragma once
// GPU tests: kbench's own ops, fresh seeds, and one verified call of named variants on a shape in
// every dtype through the workload's verification (guard bytes, poisoned outputs, two input sets).

#include "harness/device/cuda_resources.hpp"
#include "harness/ops/registry.hpp"
#include "support/catch.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace kbench::test {

/// Every op kbench registers, built once.
inline const Registry& all_ops() {
  static const Registry registry = [] {
    Registry r;
    register_all_ops(r);
    return r;
  }();
  return registry;
}

/// A seed no earlier run used: each run draws new inputs, and a failure prints the seed.
inline std::uint64_t fresh_seed() { return (std::uint64_t{std::random_device{}()} << 32) | std::random_device{}(); }

/// Verifies the variants of `op` named in `names` (each must exist) on `shape` in every dtype of
/// the op; with `checked`, each verification must also have compared that many elements.
inline void verify_variants(const Op& op, const Shape& shape, const std::vector<std::string>& names, CudaStream& stream,
                            std::optional<std::int64_t> checked = std::nullopt) {
  const auto variants = op.variants();
  for (const std::string& name : names) {
    INFO(op.name() << " has no variant " << name);
    REQUIRE(std::any_of(variants.begin(), variants.end(), [&](const VariantInfo& v) { return v.name == name; }));
  }
  for (DType dtype : op.dtypes()) {
    const std::uint64_t seed = fresh_seed();
    auto workload = op.prepare({shape, dtype, "test"}, seed);
    for (std::size_t v = 0; v < variants.size(); ++v) {
      if (std::find(names.begin(), names.end(), variants[v].name) == names.end()) continue;
      INFO(op.name() << " " << variants[v].name << " " << dtype_name(dtype) << " " << format_shape(shape) << " seed "
                     << seed);
      const Verification verification = workload->verify(v, stream.get());
      INFO(verification.message);
      CHECK(verification.passed);
      CHECK(verification.checked > 0);
      if (checked) CHECK(verification.checked == *checked);
    }
  }
}

}  // namespace kbench::test
