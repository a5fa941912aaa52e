#include "harness/measure/gpu_timers.hpp"

#include "harness/device/cuda_check.hpp"

#include <stdexcept>

namespace kbench {

namespace {

__device__ __forceinline__ unsigned long long global_timer_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

/// Spins until the host writes flag[0], or until timeout_ns pass (then sets flag[1]).
__global__ void spin_until_released(volatile int* flag, unsigned long long timeout_ns) {
  const unsigned long long start = global_timer_ns();
  while (flag[0] == 0) {
    if (global_timer_ns() - start > timeout_ns) {
      flag[1] = 1;
      return;
    }
  }
}

/// Counts `cycles` SM cycles and the nanoseconds they took; out = {cycles, ns}.
__global__ void probe_clock(unsigned long long* out, long long cycles) {
  const unsigned long long t0 = global_timer_ns();
  const long long c0 = clock64();
  long long c1 = c0;
  while (c1 - c0 < cycles) c1 = clock64();
  const unsigned long long t1 = global_timer_ns();
  out[0] = static_cast<unsigned long long>(c1 - c0);
  out[1] = t1 - t0;
}

}  // namespace

template <typename T>
MappedHostArray<T>::MappedHostArray(std::size_t count) {
  void* raw = nullptr;
  KBENCH_CUDA_CALL(cudaHostAlloc(&raw, count * sizeof(T), cudaHostAllocMapped));
  host_ = static_cast<T*>(raw);
  for (std::size_t i = 0; i < count; ++i) host_[i] = T{};
  void* mapped = nullptr;
  KBENCH_CUDA_CALL(cudaHostGetDevicePointer(&mapped, raw, 0));
  device_ = static_cast<T*>(mapped);
}

template <typename T>
MappedHostArray<T>::~MappedHostArray() {
  if (host_) KBENCH_CUDA_CALL_NOEXCEPT(cudaFreeHost(const_cast<void*>(static_cast<const volatile void*>(host_))));
}

template class MappedHostArray<volatile int>;
template class MappedHostArray<unsigned long long>;

BlockingKernel::BlockingKernel(double timeout_ms) : flag_(2), timeout_ms_(timeout_ms) {}

void BlockingKernel::block(cudaStream_t stream) {
  flag_.host()[0] = 0;
  flag_.host()[1] = 0;
  spin_until_released<<<1, 1, 0, stream>>>(flag_.device(), static_cast<unsigned long long>(timeout_ms_ * 1e6));
  KBENCH_CHECK_LAUNCH();
}

void BlockingKernel::release() { flag_.host()[0] = 1; }

bool BlockingKernel::timed_out() const { return flag_.host()[1] != 0; }

ClockProbe::ClockProbe(int slots, long long cycles) : results_(2 * static_cast<std::size_t>(slots)), slots_(slots), cycles_(cycles) {}

void ClockProbe::record(int slot, cudaStream_t stream) {
  if (slot < 0 || slot >= slots_) throw std::out_of_range("ClockProbe: no slot " + std::to_string(slot));
  results_.host()[2 * slot] = 0;
  results_.host()[2 * slot + 1] = 0;
  probe_clock<<<1, 1, 0, stream>>>(results_.device() + 2 * slot, cycles_);
  KBENCH_CHECK_LAUNCH();
}

double ClockProbe::mhz(int slot) const {
  const unsigned long long cycles = results_.host()[2 * slot];
  const unsigned long long ns = results_.host()[2 * slot + 1];
  return ns > 0 ? static_cast<double>(cycles) / static_cast<double>(ns) * 1e3 : 0.0;
}

}  // namespace kbench
