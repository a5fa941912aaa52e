#pragma once
/// KBENCH_HOST_DEVICE marks a pure function that host tests check and kernels call: __host__
/// __device__ under nvcc, nothing for the host compiler.

#if defined(__CUDACC__)
#define KBENCH_HOST_DEVICE __host__ __device__
#else
#define KBENCH_HOST_DEVICE
#endif
