// The host side of launch_wgmma_tf32: which problems it can run, and the tensor maps of A and of
// Bᵀ (the transposed copy of B in the call's workspace), encoded by tensor_map.hpp.
#include "kernels/matmul/matmul_kernels.hpp"

#include "kernels/matmul/tensor_map.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>

namespace kbench::matmul {

namespace {

bool aligned_to(const void* p, std::uintptr_t bytes) { return reinterpret_cast<std::uintptr_t>(p) % bytes == 0; }

/// The map of a row-major rows × k fp32 matrix at `data` (K contiguous), read in boxes of
/// `box_rows` rows × kWgmmaTf32StepK (128 bytes) with the 128-byte swizzle.
CUtensorMap encode_k_major(const float* data, int rows, int k, int box_rows, const char* name) {
  return encode_tensor_map({CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, data, rows, k, static_cast<unsigned>(kWgmmaTf32StepK),
                            static_cast<unsigned>(box_rows)},
                           "matmul wgmma_tf32", name);
}

/// Empty when TMA can read A of `dims` at `a` and its transposed B at `bt`, else why not.
std::string operands_unsupported(Dims dims, const void* a, const void* bt) {
  if (dims.k % 4 != 0) {
    return "TMA needs K to be a multiple of 4 (16-byte rows of A and of the transposed B); got " +
           std::to_string(dims.m) + "x" + std::to_string(dims.n) + "x" + std::to_string(dims.k) + " (MxNxK)";
  }
  if (!aligned_to(a, 16)) return "TMA needs A 16-byte aligned";
  if (!aligned_to(bt, 16)) return "TMA needs the transposed B 16-byte aligned";
  return {};
}

}  // namespace

std::string wgmma_tf32_unsupported(Dims dims, const void* a, const void* c) {
  // The transposed B is the call's own workspace (cudaMalloc'd): stand A in for it here.
  if (std::string why = operands_unsupported(dims, a, a); !why.empty()) return why;
  if (!aligned_to(c, 8)) return "the stores need C 8-byte aligned";
  return {};
}

WgmmaTf32Operands make_wgmma_tf32_operands(const float* a, const float* bt, Dims dims) {
  if (const std::string why = operands_unsupported(dims, a, bt); !why.empty()) {
    throw std::invalid_argument("matmul wgmma_tf32: " + why);
  }
  return {encode_k_major(a, dims.m, dims.k, kWgmmaTf32TileM, "A"),
          encode_k_major(bt, dims.n, dims.k, kWgmmaTf32TileN, "the transposed B")};
}

}  // namespace kbench::matmul
