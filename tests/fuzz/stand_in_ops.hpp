#pragma once
// Plan-only stand-ins for kbench's ops, for the fuzz targets, which are built without CUDA and
// so without kernels/. Each has the name, family, dtypes, variants (names, roles, dtypes) and
// shape rule of the real op, so that configs written for the real ops plan the same way;
// test_fuzz_corpus.cpp checks them against the real registry. They are never prepared.

#include "harness/ops/registry.hpp"

namespace kbench::fuzz {

/// Adds a stand-in for every op kernels/register_all_ops.cpp registers.
void register_stand_in_ops(Registry& registry);

}  // namespace kbench::fuzz
