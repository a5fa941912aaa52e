// Copies of 16-bit row-major matrices between a caller's layout (rows of any length at any 2-byte
// aligned address) and 16-byte aligned scratch whose rows are padded to a multiple of 8 elements
// (the layout uses 64):
// the copy-in and copy-out of `wgmma_tma_padded` (matmul_padded_layout.hpp).
//
// Both kernels give each thread one 16-byte word of the side they write, so every store is a
// 16-byte store on the aligned side (the scratch on the way in, C's own 16-byte words on the way
// out). The 8 elements a word needs are contiguous in the source but start anywhere: the thread
// loads the one or two aligned 16-byte words that hold them and shifts them into place in
// registers (whole 4-byte words first, then a 16-bit funnel shift), so the loads are 16-byte
// loads too, neighbouring threads sharing a word through L1. Words at the ends of a matrix, and
// on the way out words that straddle a row end of C, take element-wise copies instead.
#include "kernels/matmul/matmul_kernels.hpp"

#include "harness/device/cuda_check.hpp"
#include "kernels/matmul/matmul_device.cuh"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace kbench::matmul {

namespace {

using Element = std::uint16_t;  // fp16 and bf16 are copied as bits
constexpr int kThreads = 256;
constexpr int kWordElements = 8;  // elements per 16-byte word

__host__ __device__ __forceinline__ std::uintptr_t address(const void* p) { return reinterpret_cast<std::uintptr_t>(p); }

/// The 8 elements at p, p + 1, ..., p + 7, all inside [begin, end).
__device__ __forceinline__ uint4 load8(const Element* p, const Element* begin, const Element* end) {
  const std::uintptr_t aligned = address(p) & ~std::uintptr_t{15};
  const int offset = static_cast<int>(address(p) - aligned) / 2;  // elements, 0..7
  const std::uintptr_t needed = aligned + (offset == 0 ? 16 : 32);
  if (aligned >= address(begin) && needed <= address(end)) {
    const uint4 lo = __ldg(reinterpret_cast<const uint4*>(aligned));
    if (offset == 0) return lo;
    const uint4 hi = __ldg(reinterpret_cast<const uint4*>(aligned) + 1);
    unsigned w[8] = {lo.x, lo.y, lo.z, lo.w, hi.x, hi.y, hi.z, hi.w};
    const int words = offset / 2;
    if (words & 2) {
#pragma unroll
      for (int i = 0; i < 6; ++i) w[i] = w[i + 2];
    }
    if (words & 1) {
#pragma unroll
      for (int i = 0; i < 7; ++i) w[i] = w[i + 1];
    }
    if (offset & 1) {  // element 2i + 1 and 2i + 2 into word i (little-endian: the low half comes first)
#pragma unroll
      for (int i = 0; i < 4; ++i) w[i] = __funnelshift_r(w[i], w[i + 1], 16);
    }
    return {w[0], w[1], w[2], w[3]};
  }
  Element e[kWordElements];  // a word at the matrix's first or last bytes: no read outside it
#pragma unroll
  for (int i = 0; i < kWordElements; ++i) e[i] = p[i];
  return {e[0] | (unsigned{e[1]} << 16), e[2] | (unsigned{e[3]} << 16), e[4] | (unsigned{e[5]} << 16),
          e[6] | (unsigned{e[7]} << 16)};
}

/// One copy-in: src (rows × cols, contiguous) into dst (rows × pitch, 16-byte aligned).
struct PadJobDevice {
  const Element* src;
  Element* dst;
  long long rows, cols, pitch;
  long long words;  ///< rows · pitch / 8: the 16-byte words of dst
};

__device__ __forceinline__ void pad_word(const PadJobDevice& job, long long word) {
  const long long words_per_row = job.pitch / kWordElements;
  const long long row = word / words_per_row;
  const long long col = (word - row * words_per_row) * kWordElements;
  const Element* src_row = job.src + row * job.cols;
  uint4 out;
  if (col + kWordElements <= job.cols) {
    out = load8(src_row + col, job.src, job.src + job.rows * job.cols);
  } else {  // the row's last word: what is left of the row, then zeros
    Element e[kWordElements];
#pragma unroll
    for (int i = 0; i < kWordElements; ++i) e[i] = col + i < job.cols ? src_row[col + i] : Element{0};
    out = {e[0] | (unsigned{e[1]} << 16), e[2] | (unsigned{e[3]} << 16), e[4] | (unsigned{e[5]} << 16),
           e[6] | (unsigned{e[7]} << 16)};
  }
  reinterpret_cast<uint4*>(job.dst)[word] = out;
}

/// Up to two copy-ins in one launch: the words of job 0, then those of job 1, over a grid-stride loop.
__global__ void __launch_bounds__(kThreads) pad_rows_kernel(PadJobDevice first, PadJobDevice second) {
  const long long total = first.words + second.words;
  for (long long word = blockIdx.x * static_cast<long long>(kThreads) + threadIdx.x; word < total;
       word += static_cast<long long>(gridDim.x) * kThreads) {
    if (word < first.words) {
      pad_word(first, word);
    } else {
      pad_word(second, word - first.words);
    }
  }
}

/// The copy-out: dst (rows × cols, contiguous, any 2-byte aligned address) = the first cols of each
/// pitch-long row of src (16-byte aligned). Word w is the w-th 16-byte word of memory that holds
/// part of dst; `lead` of dst's elements come before dst in word 0.
__global__ void __launch_bounds__(kThreads)
    unpad_rows_kernel(const Element* __restrict__ src, long long pitch, long long rows, long long cols,
                      Element* __restrict__ dst, int lead, long long words) {
  const long long total = rows * cols;
  const Element* src_end = src + rows * pitch;
  for (long long word = blockIdx.x * static_cast<long long>(kThreads) + threadIdx.x; word < words;
       word += static_cast<long long>(gridDim.x) * kThreads) {
    const long long first = word * kWordElements - lead;  // dst's flat index of the word's element 0
    const long long row = first >= 0 ? first / cols : -1;
    const long long col = first - row * cols;
    if (first >= 0 && first + kWordElements <= total && col + kWordElements <= cols) {
      *reinterpret_cast<uint4*>(dst + first) = load8(src + row * pitch + col, src, src_end);
      continue;
    }
    for (int i = 0; i < kWordElements; ++i) {  // the ends of dst, and words across a row end
      const long long f = first + i;
      if (f < 0 || f >= total) continue;
      const long long r = f / cols;
      dst[f] = src[r * pitch + (f - r * cols)];
    }
  }
}

unsigned blocks_for(long long words) {
  const long long wanted = (words + kThreads - 1) / kThreads;
  return static_cast<unsigned>(std::max<long long>(1, std::min<long long>(wanted, 16LL * launch_sm_count())));
}

PadJobDevice device_job(const PadJob& job, const char* name) {
  if (job.rows == 0) return {nullptr, nullptr, 0, 0, 8, 0};
  if (job.pitch % kWordElements != 0 || job.pitch < job.cols || job.cols < 1 || job.rows < 0 ||
      address(job.dst) % 16 != 0 || address(job.src) % 2 != 0) {
    throw std::invalid_argument(std::string("matmul launch_pad_rows: ") + name + " (" + std::to_string(job.rows) +
                                "x" + std::to_string(job.cols) + ", pitch " + std::to_string(job.pitch) +
                                ") needs a pitch that is a multiple of 8 and at least cols, dst 16-byte aligned");
  }
  return {static_cast<const Element*>(job.src), static_cast<Element*>(job.dst), job.rows, job.cols, job.pitch,
          job.rows * job.pitch / kWordElements};
}

}  // namespace

void launch_pad_rows(const PadJob& first, const PadJob& second, cudaStream_t stream) {
  const PadJobDevice a = device_job(first, "first"), b = device_job(second, "second");
  if (a.words + b.words == 0) return;
  pad_rows_kernel<<<blocks_for(a.words + b.words), kThreads, 0, stream>>>(a, b);
  KBENCH_CHECK_LAUNCH();
}

void launch_unpad_rows(const void* src, long long pitch, long long rows, long long cols, void* dst,
                       cudaStream_t stream) {
  if (pitch % kWordElements != 0 || pitch < cols || cols < 1 || rows < 1 || address(src) % 16 != 0 ||
      address(dst) % 2 != 0) {
    throw std::invalid_argument("matmul launch_unpad_rows: " + std::to_string(rows) + "x" + std::to_string(cols) +
                                " from pitch " + std::to_string(pitch) +
                                " needs a pitch that is a multiple of 8 and at least cols, src 16-byte aligned");
  }
  const int lead = static_cast<int>(address(dst) % 16) / 2;
  const long long words = (lead + rows * cols + kWordElements - 1) / kWordElements;
  unpad_rows_kernel<<<blocks_for(words), kThreads, 0, stream>>>(
      static_cast<const Element*>(src), pitch, rows, cols, static_cast<Element*>(dst), lead, words);
  KBENCH_CHECK_LAUNCH();
}

}  // namespace kbench::matmul
