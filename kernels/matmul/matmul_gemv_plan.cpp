#include "kernels/matmul/matmul_gemv.hpp"

#include "kernels/matmul/matmul_kernels.hpp"

#include <algorithm>
#include <cstdint>

namespace kbench::matmul {

namespace {

std::size_t round_up_256(std::size_t bytes) { return (bytes + 255) / 256 * 256; }

}  // namespace

int gemv_rows(int m) { return m <= 1 ? 1 : m <= 2 ? 2 : m <= 4 ? 4 : 8; }

int gemv_columns(int m, std::size_t element_size) {
  if (element_size == 4) return 4;
  return gemv_rows(m) <= 4 ? 8 : 4;
}

int gemv_mma_blocks_per_sm(std::int64_t shared_memory_per_sm) {
  const std::int64_t per_block = kGemvMmaBlockSharedBytes + kGemvMmaStaticSharedBytes + kSharedBytesReservedPerBlock;
  return static_cast<int>(std::clamp<std::int64_t>(shared_memory_per_sm / per_block, 0, kGemvMmaBlocksPerSm));
}

bool gemv_mma_takes(Dims dims, std::size_t element_size, std::int64_t shared_memory_per_sm) {
  return element_size == 2 && dims.m <= kGemvMaxRows && dims.n % 8 == 0 &&
         gemv_mma_blocks_per_sm(shared_memory_per_sm) >= kGemvMmaMinBlocksPerSm;
}

bool gemv_mma_reads(Dims dims, std::size_t element_size, const void* b, std::int64_t shared_memory_per_sm) {
  return gemv_mma_takes(dims, element_size, shared_memory_per_sm) && reinterpret_cast<std::uintptr_t>(b) % 16 == 0;
}

int gemv_resident_blocks_per_sm(Dims dims, std::size_t element_size, std::int64_t shared_memory_per_sm) {
  if (gemv_mma_takes(dims, element_size, shared_memory_per_sm)) return gemv_mma_blocks_per_sm(shared_memory_per_sm);
  return gemv_blocks_per_sm(gemv_rows(dims.m) * gemv_columns(dims.m, element_size));
}

int gemv_strips(Dims dims, std::size_t element_size) {
  const int cols = gemv_columns(dims.m, element_size);
  const int lanes = cols * element_size >= 16 ? kGemvColumnLanes<16> : kGemvColumnLanes<8>;
  return static_cast<int>(ceil_div64(dims.n, std::int64_t{lanes} * cols));
}

int gemv_chunk_rows(Dims dims, int chunks) {
  // Whole rounds of the 8 warps' rows, so each warp of a full chunk walks as many rows.
  const std::int64_t rows = ceil_div64(dims.k, std::max(chunks, 1));
  return static_cast<int>(ceil_div64(rows, kGemvWarps) * kGemvWarps);
}

int gemv_most_chunks(Dims dims, std::size_t element_size) {
  const std::size_t tickets = round_up_256(static_cast<std::size_t>(gemv_strips(dims, element_size)) * sizeof(unsigned));
  const std::size_t slice = static_cast<std::size_t>(dims.m) * static_cast<std::size_t>(dims.n) * sizeof(float);
  // Slices rounded up to 256 bytes: keep 255 bytes of the cap for it.
  const std::size_t room = kGemvWorkspaceCapBytes > tickets + 255 ? kGemvWorkspaceCapBytes - tickets - 255 : 0;
  const std::int64_t fitting = static_cast<std::int64_t>(room / slice);
  const std::int64_t by_k = std::max<std::int64_t>(1, dims.k / kGemvMinChunkRows);
  return static_cast<int>(std::max<std::int64_t>(1, std::min<std::int64_t>({kMaxSplitK, by_k, fitting})));
}

int gemv_chunks(Dims dims, std::size_t element_size, int sm_count, std::int64_t shared_memory_per_sm) {
  const std::int64_t strips = gemv_strips(dims, element_size);
  const std::int64_t resident =
      std::int64_t{gemv_resident_blocks_per_sm(dims, element_size, shared_memory_per_sm)} * std::max(sm_count, 1);
  const std::int64_t most = gemv_most_chunks(dims, element_size);
  // The fill of the last wave: blocks / (waves × resident).
  auto fill = [&](std::int64_t chunks) {
    const std::int64_t blocks = strips * chunks;
    return static_cast<double>(blocks) / static_cast<double>(ceil_div64(blocks, resident) * resident);
  };
  std::int64_t chosen = 1;
  for (std::int64_t chunks = 1; chunks <= most; ++chunks) {
    if (fill(chunks) > fill(chosen)) chosen = chunks;
    if (fill(chosen) >= kGemvMinWaveFill) break;
  }
  return static_cast<int>(ceil_div64(dims.k, gemv_chunk_rows(dims, static_cast<int>(chosen))));
}

std::size_t gemv_workspace_bytes(Dims dims, std::size_t element_size, int chunks) {
  if (chunks <= 1) return 0;
  const std::size_t slices = static_cast<std::size_t>(chunks) * static_cast<std::size_t>(dims.m) *
                             static_cast<std::size_t>(dims.n) * sizeof(float);
  const std::size_t tickets = static_cast<std::size_t>(gemv_strips(dims, element_size)) * sizeof(unsigned);
  return round_up_256(slices) + round_up_256(tickets);
}

std::string gemv_unsupported(Dims dims) {
  if (dims.m > kGemvMaxRows) {
    return "the GEMV kernels take M <= " + std::to_string(kGemvMaxRows) + "; got M = " + std::to_string(dims.m);
  }
  return "";
}

}  // namespace kbench::matmul
