// The GELU baseline: cub::DeviceTransform::Transform, CCCL's tuned elementwise path, applying
// the functor the fused kernels use, so the comparison is of the memory path alone.
#include "kernels/gelu/gelu_kernels.hpp"

#include "harness/device/cuda_check.hpp"
#include "kernels/gelu/gelu_math.cuh"

#include <cub/device/device_transform.cuh>

namespace kbench::gelu {

template <typename T>
void launch_cub_transform(Form form, const T* x, T* y, std::int64_t n, cudaStream_t stream) {
  if (form == Form::tanh) {
    KBENCH_CUDA_CALL(cub::DeviceTransform::Transform(x, y, n, GeluFunctor<T, GeluTanh>{}, stream));
  } else {
    KBENCH_CUDA_CALL(cub::DeviceTransform::Transform(x, y, n, GeluFunctor<T, GeluErfFor<T>>{}, stream));
  }
  KBENCH_CHECK_LAUNCH();
}

template void launch_cub_transform<float>(Form, const float*, float*, std::int64_t, cudaStream_t);
template void launch_cub_transform<__half>(Form, const __half*, __half*, std::int64_t, cudaStream_t);
template void launch_cub_transform<__nv_bfloat16>(Form, const __nv_bfloat16*, __nv_bfloat16*, std::int64_t,
                                                  cudaStream_t);

}  // namespace kbench::gelu
