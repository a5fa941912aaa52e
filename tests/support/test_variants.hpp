#pragma once
// Test-only variants that GPU tests declare on an op as a plugin would (registry.add_variant).

#include "kbench/variant.hpp"

#include <string>

namespace kbench::test {

/// A variant whose call launches nothing: every output keeps its poison, so it must fail.
template <class Args>
Variant<Args> writes_nothing(std::string description = "test-only: launches nothing, the outputs keep their poison") {
  Variant<Args> v;
  v.name = "writes_nothing";
  v.description = std::move(description);
  v.launch = [](const Args&, cudaStream_t) {};
  return v;
}

}  // namespace kbench::test
