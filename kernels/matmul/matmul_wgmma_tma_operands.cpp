// The host side of launch_wgmma_tma(_staged): which problems TMA can load (and store), and the
// tensor maps of A, B and C.
// The maps are encoded by tensor_map.hpp.
#include "kernels/matmul/matmul_kernels.hpp"

#include "harness/device/current_device.hpp"

#include "kernels/matmul/tensor_map.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>

namespace kbench::matmul {

namespace {

/// The element box of one TMA load: 64 elements (128 bytes, the swizzle's row) along the
/// contiguous dimension, `rows` along the other.
constexpr cuuint32_t kBoxInner = 64;
constexpr cuuint32_t kBoxRowsA = kWgmmaTileM;  // 128 rows of A
constexpr cuuint32_t kBoxRowsB = kWgmmaStepK;  // 64 K-rows of B
constexpr cuuint32_t kBoxRowsC = 64;           // a consumer warpgroup's 64 rows of C

bool aligned_to(const void* p, std::uintptr_t bytes) { return reinterpret_cast<std::uintptr_t>(p) % bytes == 0; }

/// The map of a row-major rows × cols matrix of 16-bit `type` at `data` (rows `pitch` elements
/// apart; 0: cols), read (or written) in boxes of `box_rows` × 64 with the 128-byte swizzle.
CUtensorMap encode_2d(CUtensorMapDataType type, const void* data, int rows, int cols, cuuint32_t box_rows,
                      const char* name, long long pitch = 0) {
  return encode_tensor_map({type, 2, data, rows, cols, kBoxInner, box_rows, pitch}, "matmul wgmma_tma", name);
}

/// Empty when TMA can read A and B of `dims` at these addresses, else why not.
std::string operands_unsupported(Dims dims, const void* a, const void* b) {
  if (dims.k % 8 != 0 || dims.n % 8 != 0) {
    return "TMA needs K and N to be multiples of 8 (16-byte row strides); got " + std::to_string(dims.m) + "x" +
           std::to_string(dims.n) + "x" + std::to_string(dims.k) + " (MxNxK)";
  }
  if (!aligned_to(a, 16) || !aligned_to(b, 16)) return "TMA needs A and B 16-byte aligned";
  return {};
}

template <typename T>
WgmmaTmaOperands<T> make(const T* a, const T* b, Dims dims, CUtensorMapDataType type) {
  if (const std::string why = operands_unsupported(dims, a, b); !why.empty()) {
    throw std::invalid_argument("matmul wgmma_tma: " + why);
  }
  return {encode_2d(type, a, dims.m, dims.k, kBoxRowsA, "A"), encode_2d(type, b, dims.k, dims.n, kBoxRowsB, "B")};
}

/// Each tile's whole-K order on the current device, once per problem.
template <typename T>
void plan_orders(WgmmaTmaStagedOperands<T>& maps, Dims dims) {
  const int sm_count = current_sm_count();
  for (const TmaTile tile : {TmaTile::n256, TmaTile::n192, TmaTile::n128}) {
    maps.orders[tma_tile_index(tile)] = plan_tile_schedule(dims, tma_tile_n(tile), sm_count).order;
  }
}

template <typename T>
WgmmaTmaStagedOperands<T> make_staged(const T* a, const T* b, T* c, Dims dims, CUtensorMapDataType type) {
  if (!aligned_to(c, 16)) throw std::invalid_argument("matmul wgmma_tma_staged: TMA stores need C 16-byte aligned");
  WgmmaTmaStagedOperands<T> maps{make(a, b, dims, type), encode_2d(type, c, dims.m, dims.n, kBoxRowsC, "C")};
  plan_orders(maps, dims);
  return maps;
}

/// The three maps over operands with rows `*_pitch` elements apart (multiples of 8, 16-byte aligned).
template <typename T>
WgmmaTmaStagedOperands<T> make_pitched(const T* a, long long a_pitch, const T* b, long long b_pitch, T* c,
                                       long long c_pitch, Dims dims, CUtensorMapDataType type) {
  const bool pitches_ok = a_pitch % 8 == 0 && b_pitch % 8 == 0 && c_pitch % 8 == 0 && a_pitch >= dims.k &&
                          b_pitch >= dims.n && c_pitch >= dims.n;
  if (!pitches_ok || !aligned_to(a, 16) || !aligned_to(b, 16) || !aligned_to(c, 16)) {
    throw std::invalid_argument("matmul wgmma_tma_padded: TMA needs row pitches that are multiples of 8 elements "
                                "(at least K for A, N for B and C) and 16-byte aligned operands; got pitches " +
                                std::to_string(a_pitch) + ", " + std::to_string(b_pitch) + ", " +
                                std::to_string(c_pitch) + " for " + std::to_string(dims.m) + "x" +
                                std::to_string(dims.n) + "x" + std::to_string(dims.k) + " (MxNxK)");
  }
  WgmmaTmaStagedOperands<T> maps;
  maps.loads.a = encode_2d(type, a, dims.m, dims.k, kBoxRowsA, "A", a_pitch);
  maps.loads.b = encode_2d(type, b, dims.k, dims.n, kBoxRowsB, "B", b_pitch);
  maps.c = encode_2d(type, c, dims.m, dims.n, kBoxRowsC, "C", c_pitch);
  plan_orders(maps, dims);
  return maps;
}

}  // namespace

std::string wgmma_tma_unsupported(Dims dims, const void* a, const void* b, const void* c) {
  if (std::string why = operands_unsupported(dims, a, b); !why.empty()) return why;
  if (!aligned_to(c, 4)) return "the stores need C 4-byte aligned";
  return {};
}

std::string wgmma_tma_staged_unsupported(Dims dims, const void* a, const void* b, const void* c) {
  if (std::string why = operands_unsupported(dims, a, b); !why.empty()) return why;
  if (!aligned_to(c, 16)) return "TMA stores need C 16-byte aligned";
  return {};
}

WgmmaTmaOperands<__half> make_wgmma_tma_operands(const __half* a, const __half* b, Dims dims) {
  return make(a, b, dims, CU_TENSOR_MAP_DATA_TYPE_FLOAT16);
}

WgmmaTmaOperands<__nv_bfloat16> make_wgmma_tma_operands(const __nv_bfloat16* a, const __nv_bfloat16* b, Dims dims) {
  return make(a, b, dims, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16);
}

WgmmaTmaStagedOperands<__half> make_wgmma_tma_staged_operands(const __half* a, const __half* b, __half* c,
                                                              Dims dims) {
  return make_staged(a, b, c, dims, CU_TENSOR_MAP_DATA_TYPE_FLOAT16);
}

WgmmaTmaStagedOperands<__nv_bfloat16> make_wgmma_tma_staged_operands(const __nv_bfloat16* a,
                                                                     const __nv_bfloat16* b, __nv_bfloat16* c,
                                                                     Dims dims) {
  return make_staged(a, b, c, dims, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16);
}

WgmmaTmaStagedOperands<__half> make_wgmma_tma_staged_operands(const __half* a, long long a_pitch, const __half* b,
                                                              long long b_pitch, __half* c, long long c_pitch,
                                                              Dims dims) {
  return make_pitched(a, a_pitch, b, b_pitch, c, c_pitch, dims, CU_TENSOR_MAP_DATA_TYPE_FLOAT16);
}

WgmmaTmaStagedOperands<__nv_bfloat16> make_wgmma_tma_staged_operands(const __nv_bfloat16* a, long long a_pitch,
                                                                     const __nv_bfloat16* b, long long b_pitch,
                                                                     __nv_bfloat16* c, long long c_pitch, Dims dims) {
  return make_pitched(a, a_pitch, b, b_pitch, c, c_pitch, dims, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16);
}

}  // namespace kbench::matmul
