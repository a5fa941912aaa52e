// Vendor baselines for the full and inner-axis reductions: CUB, with fp32 accumulation.
#include "kernels/sum/reduce_ops.cuh"
#include "kernels/sum/sum_kernels.hpp"

#include "harness/device/cuda_check.hpp"

#include <cub/device/device_reduce.cuh>
#include <limits>
#include <cub/device/device_segmented_reduce.cuh>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/transform_output_iterator.h>

namespace kbench::sum {

namespace {
template <typename T>
struct ToFloat {
  __device__ float operator()(T x) const { return to_float(x); }
};
template <typename T>
struct FromFloat {
  __device__ T operator()(float x) const { return from_float<T>(x); }
};
struct Plus {
  __device__ float operator()(float a, float b) const { return a + b; }
};
struct Maximum {
  __device__ float operator()(float a, float b) const { return fmaxf(a, b); }
};
}  // namespace

template <typename T>
void cub_full_sum(void* temp, std::size_t& temp_bytes, const T* in, T* out, std::int64_t n, cudaStream_t stream) {
  auto result = thrust::make_transform_output_iterator(out, FromFloat<T>{});
  KBENCH_CUDA_CALL(cub::DeviceReduce::TransformReduce(temp, temp_bytes, in, result, n, Plus{}, ToFloat<T>{}, 0.0f, stream));
  if (temp) KBENCH_CHECK_LAUNCH();
}

template <typename T>
void cub_segmented(void* temp, std::size_t& temp_bytes, const T* in, T* out, std::int64_t rows,
                   const std::int64_t* offsets, Reduction reduction, cudaStream_t stream) {
  auto values = thrust::make_transform_iterator(in, ToFloat<T>{});
  auto result = thrust::make_transform_output_iterator(out, FromFloat<T>{});
  if (reduction == Reduction::sum) {
    KBENCH_CUDA_CALL(cub::DeviceSegmentedReduce::Reduce(temp, temp_bytes, values, result, rows, offsets, offsets + 1,
                                                        Plus{}, 0.0f, stream));
  } else {
    KBENCH_CUDA_CALL(cub::DeviceSegmentedReduce::Reduce(temp, temp_bytes, values, result, rows, offsets, offsets + 1,
                                                        Maximum{}, -std::numeric_limits<float>::infinity(), stream));
  }
  if (temp) KBENCH_CHECK_LAUNCH();
}

#define KBENCH_INSTANTIATE_CUB(T)                                                                              \
  template void cub_full_sum<T>(void*, std::size_t&, const T*, T*, std::int64_t, cudaStream_t);                \
  template void cub_segmented<T>(void*, std::size_t&, const T*, T*, std::int64_t, const std::int64_t*, Reduction, \
                                 cudaStream_t);

KBENCH_INSTANTIATE_CUB(float)
KBENCH_INSTANTIATE_CUB(__half)
KBENCH_INSTANTIATE_CUB(__nv_bfloat16)

}  // namespace kbench::sum
