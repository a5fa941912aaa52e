#pragma once
/// The block layout shared by sum_outer's strip kernels (two_stage, one_pass, the phase strips):
/// 32 column lanes, each a 16-byte vector of columns (or one column), by 8 row lanes walking a
/// row chunk 8 rows apart. Host and device.

namespace kbench::sum {

constexpr int kStripLanesX = 32;    ///< column lanes per block: a warp reads consecutive columns of one row
constexpr int kStripLanesY = 8;     ///< row lanes per block
constexpr int kStripRowUnroll = 4;  ///< rows each thread loads before adding any of them

// The phase strips rely on it: rows 8 apart start at the same offset from a 16-byte boundary
// for every vector width (4 fp32 or 8 16-bit elements).
static_assert(kStripLanesY % 8 == 0, "a thread's rows must lie a multiple of every vector width apart");

}  // namespace kbench::sum
