#include "kernels/add/add_kernels.hpp"

#include "harness/device/cuda_check.hpp"

#include <cub/device/device_transform.cuh>
#include <cuda/std/tuple>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

namespace kbench::add {

namespace {
template <typename T>
struct Plus {
  __device__ T operator()(T x, T y) const { return x + y; }
};
}  // namespace

template <typename T>
void launch_cub_transform(const T* a, const T* b, T* c, std::int64_t n, cudaStream_t stream) {
  KBENCH_CUDA_CALL(cub::DeviceTransform::Transform(::cuda::std::make_tuple(a, b), c, n, Plus<T>{}, stream));
  KBENCH_CHECK_LAUNCH();
}

template void launch_cub_transform<float>(const float*, const float*, float*, std::int64_t, cudaStream_t);
template void launch_cub_transform<__half>(const __half*, const __half*, __half*, std::int64_t, cudaStream_t);
template void launch_cub_transform<__nv_bfloat16>(const __nv_bfloat16*, const __nv_bfloat16*, __nv_bfloat16*,
                                                  std::int64_t, cudaStream_t);

}  // namespace kbench::add
