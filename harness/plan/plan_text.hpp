#pragma once
/// The plan as `kbench --dry-run` prints it: one line per case with its rows, one per group of
/// rows a config skips, and the counts. Host-only.

#include "harness/plan/plan.hpp"

#include <string>

namespace kbench {

/// "add fp32 4096x4096 (large): naive, vectorized, cub_transform, d2d_copy" per case, then
/// "add fp16 256x256 (small): SKIPPED naive: REASON" per skipped group, then
/// "N problems, M rows[; K rows skipped by the config]"; every line ends in '\n'.
std::string plan_listing(const Plan& plan);

}  // namespace kbench
