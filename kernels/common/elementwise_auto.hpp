#pragma once
/// The `auto` heuristic of the elementwise ops (add, gelu_tanh, gelu_erf): which of their kernels a
/// framework would ship for a problem, chosen from the problem and the device alone (no timing).
/// Host-only and pure, so host tests check it; kernels/add/NOTES.md and kernels/gelu/NOTES.md
/// give the reasoning and the measurements it rests on.
///
/// `blocked` (16-byte vectors, one contiguous tile of 256 threads x 4 vectors per block) is the
/// fastest own kernel from 4096^2 up (91-92 % of peak on the H100), but each of its threads
/// issues eight 16-byte loads before its first add, so a small tensor makes few blocks: at 256^2
/// fp32 its 16 blocks leave 116 of the H100's 132 SMs idle (6.1 us against 4.7 us for one element
/// per thread, whose 256 blocks reach every SM). A block of `blocked` keeps 32 KiB of loads in
/// flight, about twice what one SM needs to stream its share of the bandwidth (Little's law:
/// 3.35 TB/s x ~0.6 us / 132 SMs is about 15 KB), so half the SMs busy should already stream near
/// the full rate in one round trip, where one element per thread needs a round trip per wave.
/// `auto` therefore takes `blocked` when its grid has at least one block per two SMs and every
/// pointer is 16-byte aligned (its vector loads need it), otherwise the one-element-per-thread
/// kernel (`naive` for add, `fused` for GELU), which runs any size and alignment.

#include <cstddef>
#include <cstdint>

namespace kbench::elementwise {

/// Blocks of the blocked kernels' grid for `n` elements of `element_bytes`: one per 256 x 4 whole
/// 16-byte vectors, at least one (the scalar tail rides in block 0), as their launchers compute it.
constexpr std::int64_t blocked_blocks(std::int64_t n, std::size_t element_bytes) {
  const std::int64_t vectors = n / static_cast<std::int64_t>(16 / element_bytes);
  const std::int64_t blocks = (vectors + 256 * 4 - 1) / (256 * 4);
  return blocks > 0 ? blocks : 1;
}

/// True when `auto` runs the blocked kernel: its grid has a block for at least every second SM and
/// the pointers allow 16-byte vectors; false: the one-element-per-thread kernel.
constexpr bool auto_takes_blocked(std::int64_t n, std::size_t element_bytes, int sm_count, bool pointers_aligned16) {
  return pointers_aligned16 && 2 * blocked_blocks(n, element_bytes) >= sm_count;
}

}  // namespace kbench::elementwise
