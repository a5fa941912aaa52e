// The register-row softmax: one block per row, the row loaded once into registers, so DRAM sees
// exactly one read and one write of each element whatever the L2 does. The online kernel reads
// each row a second time in its write pass and relies on L1/L2 to serve it; with 8192-wide
// 16-bit rows and 32768-wide fp32 rows that second read measured far from free (kernels/NOTES.md).
#include "kernels/softmax/softmax_kernels.hpp"

#include "harness/device/cuda_check.hpp"
#include "kernels/softmax/softmax_device.cuh"

#include <stdexcept>

namespace kbench::softmax {

namespace {

/// Thread t of the block holds the 16-byte vectors t, t + kBlock, ..., t + (kVectors - 1) kBlock
/// of the row's aligned body (aligned_span: the whole row when rows are whole vectors; each load
/// coalesced across the block, all kVectors in flight at once), and for rows that are not, one
/// head or tail element in a register. It folds its elements into one (max, sum) state; the block
/// combines the states (warp shuffles, one barrier); every thread then writes e^(x - max) / sum for
/// what it holds. Vectors past the body are never loaded or stored. x and y are 16-byte aligned,
/// so a row's body is aligned in both.
template <typename T, int kBlock, int kVectors>
__global__ void __launch_bounds__(kBlock)
    softmax_register_row_kernel(const T* __restrict__ x, T* __restrict__ y, std::int64_t cols) {
  const std::int64_t offset = static_cast<std::int64_t>(blockIdx.x) * cols;
  const AlignedSpan span = aligned_span(x + offset, cols);
  const auto* in = reinterpret_cast<const uint4*>(x + offset + span.head);
  auto* out = reinterpret_cast<uint4*>(y + offset + span.head);
  const int units = static_cast<int>(span.vectors);

  uint4 held[kVectors];
#pragma unroll
  for (int k = 0; k < kVectors; ++k) {
    const int u = threadIdx.x + k * kBlock;
    if (u < units) held[k] = in[u];
  }
  const std::int64_t scalar_at = row_edge_element<T>(span, true, true);
  const float scalar = scalar_at >= 0 ? to_float(x[offset + scalar_at]) : 0.0f;

  float thread_max = scalar_at >= 0 ? scalar : negative_infinity();
#pragma unroll
  for (int k = 0; k < kVectors; ++k) {
    if (threadIdx.x + k * kBlock < units) {
      float values[kVector<T>];
      unpack<T>(held[k], values);
#pragma unroll
      for (int i = 0; i < kVector<T>; ++i) thread_max = fmaxf(thread_max, values[i]);
    }
  }
  const float shift = exponent_offset(thread_max);  // a thread of -inf only (masked) sums 0, not NaN
  float thread_sum = scalar_at >= 0 ? exp_via_exp2(scalar - shift) : 0.0f;
#pragma unroll
  for (int k = 0; k < kVectors; ++k) {
    if (threadIdx.x + k * kBlock < units) {
      float values[kVector<T>];
      unpack<T>(held[k], values);
#pragma unroll
      for (int i = 0; i < kVector<T>; ++i) thread_sum += exp_via_exp2(values[i] - shift);
    }
  }

  const MaxSum total = block_combine({thread_max, thread_sum});

  const float inverse_sum = fast_reciprocal(total.d);
#pragma unroll
  for (int k = 0; k < kVectors; ++k) {
    const int u = threadIdx.x + k * kBlock;
    if (u < units) {
      float values[kVector<T>];
      unpack<T>(held[k], values);
#pragma unroll
      for (int i = 0; i < kVector<T>; ++i) values[i] = exp_via_exp2(values[i] - total.m) * inverse_sum;
      out[u] = pack<T>(values);
    }
  }
  if (scalar_at >= 0) y[offset + scalar_at] = from_float<T>(exp_via_exp2(scalar - total.m) * inverse_sum);
}

template <typename T, int kBlock, int kVectors>
void launch_shape(const T* x, T* y, std::int64_t rows, std::int64_t cols, cudaStream_t stream) {
  softmax_register_row_kernel<T, kBlock, kVectors><<<static_cast<unsigned>(rows), kBlock, 0, stream>>>(x, y, cols);
  KBENCH_CHECK_LAUNCH();
}

}  // namespace

bool register_row_fits(std::int64_t cols, std::size_t element_size) {
  const auto per_vector = static_cast<std::int64_t>(16 / element_size);
  return cols >= 1 && cols / per_vector <= register_row_max_vectors(element_size);
}

template <typename T>
void launch_register_row(const T* x, T* y, std::int64_t rows, std::int64_t cols, cudaStream_t stream) {
  if (rows > 0x7FFFFFFF) throw std::invalid_argument("softmax register_row: more than 2^31 - 1 rows for a 1-D grid");
  if (!aligned16(x) || !aligned16(y) || !register_row_fits(cols, sizeof(T))) {
    // Unaligned tensors and rows longer than the registers hold: the online kernel, which reads twice.
    launch_online(x, y, rows, cols, stream);
    return;
  }
  // Four vectors per thread (64 bytes in flight) in blocks of 64..1024 threads; the longest
  // fp32 rows take eight per thread in 1024 threads (register_row_fits bounds the rest). Rows of
  // up to 256 vectors take 64 threads: 32 rows in flight per SM, not 128 threads' 16 (H100,
  // session 14: fp16 8192x1999 22.9 against 28.0 µs; NOTES.md).
  const std::int64_t units = cols / kVector<T>;
  if (units <= 4 * 64) launch_shape<T, 64, 4>(x, y, rows, cols, stream);
  else if (units <= 4 * 128) launch_shape<T, 128, 4>(x, y, rows, cols, stream);
  else if (units <= 4 * 256) launch_shape<T, 256, 4>(x, y, rows, cols, stream);
  else if (units <= 4 * 512) launch_shape<T, 512, 4>(x, y, rows, cols, stream);
  else if (units <= 4 * 1024) launch_shape<T, 1024, 4>(x, y, rows, cols, stream);
  else if constexpr (sizeof(T) == 4) launch_shape<T, 1024, 8>(x, y, rows, cols, stream);
  else throw std::logic_error("softmax register_row: a row longer than register_row_fits allows");
}

template void launch_register_row<float>(const float*, float*, std::int64_t, std::int64_t, cudaStream_t);
template void launch_register_row<__half>(const __half*, __half*, std::int64_t, std::int64_t, cudaStream_t);
template void launch_register_row<__nv_bfloat16>(const __nv_bfloat16*, __nv_bfloat16*, std::int64_t, std::int64_t,
                                                 cudaStream_t);

}  // namespace kbench::softmax
