#pragma once
/// Device building blocks shared by the softmax kernels: the exponential they use, the online
/// (max, sum) pair with its combine rule, 16-byte vector packing, and which thread holds a row's
/// head and tail elements. Conversions (all math is fp32), warp and block reductions, kVector and
/// the approximate ex2 and reciprocal (fast_math.cuh) come from kernels/common/. Included by the
/// .cu files of kernels/softmax/ only.

#include "kernels/common/dtype_convert.cuh"
#include "kernels/common/fast_math.cuh"
#include "kernels/common/flat_tile.cuh"
#include "kernels/common/reductions.cuh"
#include "kernels/common/vector16.cuh"

namespace kbench::softmax {

constexpr float kLog2e = 1.4426950408889634f;

/// e^a as 2^(a * log2 e): one multiply and the hardware's ex2 (fast_exp2: 2^-22 relative, results
/// under 2^-126 flushed to 0, an absolute error no tolerance of ours can see). Short rows are
/// issue-bound, and exp2f's non-ftz form wraps each MUFU in a range check and two predicated
/// multiplies. The rounding of the product moves the result by at most |a| * 2^-24 relative, under
/// 1e-6 for the |a| <= 16 that softmax of our inputs sees.
__device__ __forceinline__ float exp_via_exp2(float a) { return fast_exp2(a * kLog2e); }

/// Online softmax state of a stretch of elements: m is their maximum, d = sum of e^(x - m).
/// The empty stretch is (-inf, 0).
///
/// Two states merge with the (m, d) combine rule (Milakov and Gimelshein, "Online normalizer
/// calculation for softmax", 2018):
///     m = max(m1, m2),   d = d1 * e^(m1 - m) + d2 * e^(m2 - m)
/// Each partial sum is rescaled from its own maximum to the common one, so the sum of
/// exponentials is built in one pass without knowing the row maximum first, and the merge is
/// associative, which lets lanes, warps and blocks combine in any tree order.
struct MaxSum {
  float m;
  float d;
};

__device__ __forceinline__ MaxSum empty_max_sum() { return {negative_infinity(), 0.0f}; }

/// The combine rule. One of the two maxima is the new maximum, so only the other side needs an
/// exponential. When both maxima are equal (including both -inf, two empty states) the factor is
/// exactly 1 and no exponential runs: e^(-inf - -inf) would be NaN.
__device__ __forceinline__ MaxSum combine(MaxSum a, MaxSum b) {
  const float hi = fmaxf(a.m, b.m);
  const float lo = fminf(a.m, b.m);
  const float scale = lo == hi ? 1.0f : exp_via_exp2(lo - hi);
  return {hi, a.m >= b.m ? a.d + b.d * scale : a.d * scale + b.d};
}

/// Combines the states of the 32 lanes of a warp; every lane gets the total (full mask).
__device__ __forceinline__ MaxSum warp_combine(MaxSum s) {
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1) {
    const MaxSum other{__shfl_xor_sync(0xffffffffu, s.m, offset), __shfl_xor_sync(0xffffffffu, s.d, offset)};
    s = combine(s, other);
  }
  return s;
}

/// Combines the states of every thread of the block; every thread gets the total. Each warp
/// combines its lanes with shuffles, lane 0 leaves the warp's state in shared memory, and after one
/// barrier every warp combines the (at most 32) warp states itself, so no second barrier is
/// needed. blockDim.x must be a multiple of 32; all threads must call it.
__device__ __forceinline__ MaxSum block_combine(MaxSum s) {
  __shared__ float warp_max[32];
  __shared__ float warp_sum[32];
  const int lane = threadIdx.x % 32;
  const int warp = threadIdx.x / 32;
  const int warps = blockDim.x / 32;
  s = warp_combine(s);
  if (lane == 0) {
    warp_max[warp] = s.m;
    warp_sum[warp] = s.d;
  }
  __syncthreads();
  return warp_combine(lane < warps ? MaxSum{warp_max[lane], warp_sum[lane]} : empty_max_sum());
}

/// Reinterprets a 16-byte vector as kVector<T> elements and widens them to float.
template <typename T>
__device__ __forceinline__ void unpack(uint4 v, float (&out)[kVector<T>]) {
  T elements[kVector<T>];
  memcpy(elements, &v, 16);
#pragma unroll
  for (int i = 0; i < kVector<T>; ++i) out[i] = to_float(elements[i]);
}

/// Rounds kVector<T> floats to T and packs them into one 16-byte vector.
template <typename T>
__device__ __forceinline__ uint4 pack(const float (&in)[kVector<T>]) {
  T elements[kVector<T>];
#pragma unroll
  for (int i = 0; i < kVector<T>; ++i) elements[i] = from_float<T>(in[i]);
  uint4 v;
  memcpy(&v, elements, 16);
  return v;
}

/// What exponentials are taken against where the maximum of the values they cover is `max`: that
/// maximum, or 0 where it is -inf (no values, or only -inf ones: a masked stretch), so that they
/// come out e^-inf = 0 rather than e^(-inf - -inf) = NaN.
__device__ __forceinline__ float exponent_offset(float max) { return max == negative_infinity() ? 0.0f : max; }

/// Folds a group of K values into the running state with one rescale: the group's maximum is
/// taken first, the running sum is moved to it once (d * e^(m_old - m_new), skipped when the
/// maximum did not change), then the group's K exponentials are added. Per element this costs
/// (K + 1) / K exponentials instead of the 2 of the textbook element-by-element update.
template <int K>
__device__ __forceinline__ MaxSum fold(MaxSum state, const float (&v)[K]) {
  float group_max = state.m;
#pragma unroll
  for (int k = 0; k < K; ++k) group_max = fmaxf(group_max, v[k]);
  // state.m == -inf (nothing folded yet) gives e^-inf = 0: the empty sum stays 0. A group of -inf
  // only (a masked stretch) with nothing before it leaves group_max at -inf: its exponentials are
  // taken against 0 (exponent_offset), which gives 0 rather than e^(-inf - -inf) = NaN.
  const float offset = exponent_offset(group_max);
  float d = state.m == group_max ? state.d : state.d * exp_via_exp2(state.m - group_max);
#pragma unroll
  for (int k = 0; k < K; ++k) d += exp_via_exp2(v[k] - offset);
  return {group_max, d};
}

/// Folds K 16-byte vectors (K * kVector<T> elements) with one rescale.
template <typename T, int K>
__device__ __forceinline__ MaxSum fold_vectors(MaxSum state, const uint4 (&v)[K]) {
  float values[K * kVector<T>];
#pragma unroll
  for (int k = 0; k < K; ++k) {
    float part[kVector<T>];
    unpack<T>(v[k], part);
#pragma unroll
    for (int i = 0; i < kVector<T>; ++i) values[k * kVector<T> + i] = part[i];
  }
  return fold(state, values);
}

/// y = e^(x - m) / d for one 16-byte vector.
template <typename T>
__device__ __forceinline__ uint4 normalize_vector(uint4 v, float row_max, float inverse_sum) {
  float values[kVector<T>];
  unpack<T>(v, values);
#pragma unroll
  for (int i = 0; i < kVector<T>; ++i) values[i] = exp_via_exp2(values[i] - row_max) * inverse_sum;
  return pack<T>(values);
}

/// The largest element of one 16-byte vector.
template <typename T>
__device__ __forceinline__ float vector_max(uint4 v) {
  float values[kVector<T>];
  unpack<T>(v, values);
  float m = values[0];
#pragma unroll
  for (int i = 1; i < kVector<T>; ++i) m = fmaxf(m, values[i]);
  return m;
}

/// e^(x - offset) for one 16-byte vector, rounded to T; `sum` gains the unrounded exponentials.
/// Kernels that keep a row in shared memory store these so that their write is scale_vector: one
/// exponential per element in all. Rounding e to T before the final multiply costs at most one
/// more rounding of T (e <= 1 and the factor <= 1: no overflow, and an e that T flushes to 0 is
/// below half T's smallest subnormal, so is its product).
template <typename T>
__device__ __forceinline__ uint4 exponentiate_vector(uint4 v, float offset, float& sum) {
  float values[kVector<T>];
  unpack<T>(v, values);
#pragma unroll
  for (int i = 0; i < kVector<T>; ++i) {
    values[i] = exp_via_exp2(values[i] - offset);
    sum += values[i];
  }
  return pack<T>(values);
}

/// What the write multiplies a thread's exponentials stored against `offset` (exponent_offset) by:
/// e^(offset - row max) / row sum, or 0 for a thread whose maximum is -inf (its exponentials are 0
/// and must stay so), or NaN for a row of -inf only, as the fp64 reference and PyTorch give
/// (e^(-inf - -inf)) and as the kernels that exponentiate in their write do.
__device__ __forceinline__ float stored_exponential_scale(float thread_max, float offset, float row_max,
                                                          float inverse_sum) {
  if (row_max == negative_infinity()) return __int_as_float(0x7fc00000);
  return thread_max == negative_infinity() ? 0.0f : exp_via_exp2(offset - row_max) * inverse_sum;
}

/// x * factor for one 16-byte vector.
template <typename T>
__device__ __forceinline__ uint4 scale_vector(uint4 v, float factor) {
  float values[kVector<T>];
  unpack<T>(v, values);
#pragma unroll
  for (int i = 0; i < kVector<T>; ++i) values[i] *= factor;
  return pack<T>(values);
}

/// Where this thread sits when each warp takes kGroups = 32 / kLanes groups of kLanes lanes, each
/// group kRows rows: warp w of the grid (kBlock threads a block) takes rows [w x kWarpRows,
/// +kWarpRows), and in step r group g takes row r x kGroups + g of them. `rows_here` counts the
/// warp's rows that exist (meaningless past the end: a warp with warp_row >= rows must leave whole).
template <int kBlock, int kLanes, int kRows>
struct LaneGroupRows {
  static constexpr int kGroups = 32 / kLanes;
  static constexpr int kWarpRows = kGroups * kRows;
  int lane;   ///< within the group
  int group;  ///< within the warp
  std::int64_t warp_row;
  int rows_here;

  __device__ __forceinline__ explicit LaneGroupRows(std::int64_t rows)
      : lane(static_cast<int>(threadIdx.x) % kLanes),
        group(static_cast<int>(threadIdx.x % 32) / kLanes),
        warp_row((static_cast<std::int64_t>(blockIdx.x) * (kBlock / 32) + threadIdx.x / 32) * kWarpRows),
        rows_here(static_cast<int>(min(rows - warp_row, static_cast<std::int64_t>(kWarpRows)))) {}
};

/// Kernels that take a row's aligned body (aligned_span) by 16-byte vectors hold its head and tail
/// elements one per thread: thread t < head holds head element t, thread kRowTailThread + i tail
/// element i (so that no thread holds two). row_edge_element gives the row element this thread
/// holds, -1 for none; `holds_head` / `holds_tail` say whether this block owns the row's head or
/// tail (the first and last block of a row split over several).
constexpr int kRowTailThread = 32;

template <typename T>
__device__ __forceinline__ std::int64_t row_edge_element(const AlignedSpan& span, bool holds_head, bool holds_tail) {
  const int t = static_cast<int>(threadIdx.x);
  if (holds_head && t < span.head) return t;
  const int tail_index = t - kRowTailThread;
  if (holds_tail && tail_index >= 0 && tail_index < span.tail) return span.head + span.vectors * kVector<T> + tail_index;
  return -1;
}

}  // namespace kbench::softmax
