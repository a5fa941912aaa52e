// The manual GELU: one elementwise kernel per step of the formula, as a framework's naive code
// runs it (y = 0.5 * x * (1 + torch.tanh(...)) written out op by op). Every step reads its
// operands from memory and writes a rounded result: 8 kernels and about 8 reads and 8 writes of
// the tensor for the tanh form where the fused kernel does one of each.
#include "kernels/gelu/gelu_kernels.hpp"

#include "harness/device/cuda_check.hpp"
#include "kernels/gelu/gelu_math.cuh"

#include <stdexcept>

namespace kbench::gelu {

namespace {

constexpr int kBlock = 256;

struct Cube {
  __device__ float operator()(float v) const { return v * v * v; }
};
struct Scale {
  float factor;
  __device__ float operator()(float v) const { return v * factor; }
};
struct AddOne {
  __device__ float operator()(float v) const { return v + 1.0f; }
};
struct Tanh {
  __device__ float operator()(float v) const { return tanhf(v); }
};
struct Erf {
  __device__ float operator()(float v) const { return erff(v); }
};
struct Add {
  __device__ float operator()(float a, float b) const { return a + b; }
};
struct Multiply {
  __device__ float operator()(float a, float b) const { return a * b; }
};

/// out = step(in), one element per thread, in fp32 and rounded to T.
template <typename T, typename Step>
__global__ void __launch_bounds__(kBlock)
    unary_step_kernel(const T* __restrict__ in, T* __restrict__ out, std::int64_t n, Step step) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * kBlock + threadIdx.x;
  if (i < n) out[i] = from_float<T>(step(to_float(in[i])));
}

/// out = step(a, b), one element per thread, in fp32 and rounded to T.
template <typename T, typename Step>
__global__ void __launch_bounds__(kBlock) binary_step_kernel(const T* __restrict__ a, const T* __restrict__ b,
                                                             T* __restrict__ out, std::int64_t n, Step step) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * kBlock + threadIdx.x;
  if (i < n) out[i] = from_float<T>(step(to_float(a[i]), to_float(b[i])));
}

/// Enqueues the steps of one chain; `blocks` covers n elements one per thread.
template <typename T>
struct Chain {
  std::int64_t n;
  unsigned blocks;
  cudaStream_t stream;

  template <typename Step>
  void unary(const T* in, T* out, Step step) const {
    unary_step_kernel<T, Step><<<blocks, kBlock, 0, stream>>>(in, out, n, step);
    KBENCH_CHECK_LAUNCH();
  }
  template <typename Step>
  void binary(const T* a, const T* b, T* out, Step step) const {
    binary_step_kernel<T, Step><<<blocks, kBlock, 0, stream>>>(a, b, out, n, step);
    KBENCH_CHECK_LAUNCH();
  }
};

}  // namespace

template <typename T>
void launch_manual(Form form, const T* x, T* y, T* t0, T* t1, std::int64_t n, cudaStream_t stream) {
  const std::int64_t blocks = (n + kBlock - 1) / kBlock;
  if (blocks > 0x7FFFFFFF) throw std::invalid_argument("gelu manual: too many elements for a 1-D grid");
  const Chain<T> chain{n, static_cast<unsigned>(blocks), stream};
  if (form == Form::tanh) {
    chain.unary(x, t0, Cube{});                 // x^3
    chain.unary(t0, t1, Scale{kTanhCubic});     // 0.044715 x^3
    chain.binary(t1, x, t0, Add{});             // x + 0.044715 x^3
    chain.unary(t0, t1, Scale{kTanhScale});     // u = 0.79788456 (...)
    chain.unary(t1, t0, Tanh{});                // tanh(u)
    chain.unary(t0, t1, AddOne{});              // 1 + tanh(u)
    chain.binary(t1, x, t0, Multiply{});        // x (1 + tanh(u))
    chain.unary(t0, y, Scale{0.5f});            // 0.5 x (1 + tanh(u))
  } else {
    chain.unary(x, t0, Scale{kInvSqrt2});       // x / sqrt 2
    chain.unary(t0, t1, Erf{});                 // erf(x / sqrt 2)
    chain.unary(t1, t0, AddOne{});              // 1 + erf(...)
    chain.binary(t0, x, t1, Multiply{});        // x (1 + erf(...))
    chain.unary(t1, y, Scale{0.5f});            // 0.5 x (1 + erf(...))
  }
}

template void launch_manual<float>(Form, const float*, float*, float*, float*, std::int64_t, cudaStream_t);
template void launch_manual<__half>(Form, const __half*, __half*, __half*, __half*, std::int64_t, cudaStream_t);
template void launch_manual<__nv_bfloat16>(Form, const __nv_bfloat16*, __nv_bfloat16*, __nv_bfloat16*,
                                           __nv_bfloat16*, std::int64_t, cudaStream_t);

}  // namespace kbench::gelu
