// wgmma_tma_padded's host side: where each operand lives for the staged TMA kernel (the caller's
// matrix, or a padded copy in scratch), the maps over them, and the call's copies around the kernel.
#include "kernels/matmul/matmul_kernels.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>

namespace kbench::matmul {

namespace {

bool aligned16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

template <typename T>
WgmmaTmaPaddedOperands<T> make(const T* a, const T* b, T* c, Dims dims, void* scratch, ShortRows short_rows) {
  WgmmaTmaPaddedOperands<T> x;
  x.layout = padded_layout_for(dims, a, b, c, short_rows);
  x.a = a;
  x.b = b;
  x.c = c;
  x.scratch = static_cast<unsigned char*>(scratch);
  if (x.layout.bytes > 0 && (scratch == nullptr || reinterpret_cast<std::uintptr_t>(scratch) % 256 != 0)) {
    throw std::invalid_argument("matmul wgmma_tma_padded: needs " + std::to_string(x.layout.bytes) +
                                " bytes of 256-byte aligned scratch, got " +
                                (scratch == nullptr ? std::string("none") : std::string("a misaligned pointer")));
  }
  const PaddedLayout& l = x.layout;
  const T* a_read = l.pad_a ? reinterpret_cast<const T*>(x.scratch + l.a_offset) : a;
  const T* b_read = l.pad_b ? reinterpret_cast<const T*>(x.scratch + l.b_offset) : b;
  T* c_write = l.pad_c ? reinterpret_cast<T*>(x.scratch + l.c_offset) : c;
  x.maps = make_wgmma_tma_staged_operands(a_read, l.pad_a ? l.k_pitch : dims.k, b_read, l.pad_b ? l.n_pitch : dims.n,
                                          c_write, l.pad_c ? l.n_pitch : dims.n, dims);
  return x;
}

}  // namespace

PaddedLayout padded_layout_for(Dims dims, const void* a, const void* b, const void* c, ShortRows short_rows) {
  return padded_layout(dims, aligned16(a), aligned16(b), aligned16(c), short_rows);
}

WgmmaTmaPaddedOperands<__half> make_wgmma_tma_padded_operands(const __half* a, const __half* b, __half* c, Dims dims,
                                                              void* scratch, ShortRows short_rows) {
  return make(a, b, c, dims, scratch, short_rows);
}

WgmmaTmaPaddedOperands<__nv_bfloat16> make_wgmma_tma_padded_operands(const __nv_bfloat16* a, const __nv_bfloat16* b,
                                                                     __nv_bfloat16* c, Dims dims, void* scratch,
                                                                     ShortRows short_rows) {
  return make(a, b, c, dims, scratch, short_rows);
}

template <typename T>
void launch_wgmma_tma_padded(const WgmmaTmaPaddedOperands<T>& x, Dims dims, TmaTile tile, cudaStream_t stream) {
  const PaddedLayout& l = x.layout;
  PadJob a_job, b_job;
  if (l.pad_a) a_job = {x.a, dims.m, dims.k, x.scratch + l.a_offset, l.k_pitch};
  if (l.pad_b) b_job = {x.b, dims.k, dims.n, x.scratch + l.b_offset, l.n_pitch};
  if (l.pad_a || l.pad_b) launch_pad_rows(a_job, b_job, stream);
  launch_wgmma_tma_staged(x.maps, dims, tile, stream);
  if (l.pad_c) launch_unpad_rows(x.scratch + l.c_offset, l.n_pitch, dims.m, dims.n, x.c, stream);
}

template void launch_wgmma_tma_padded(const WgmmaTmaPaddedOperands<__half>&, Dims, TmaTile, cudaStream_t);
template void launch_wgmma_tma_padded(const WgmmaTmaPaddedOperands<__nv_bfloat16>&, Dims, TmaTile, cudaStream_t);

}  // namespace kbench::matmul
