#include "harness/measure/kernel_tracer.hpp"

#include "harness/device/cuda_check.hpp"

#include <cupti.h>
#include <cxxabi.h>
#include <dlfcn.h>

#include <cstdlib>
#include <memory>
#include <mutex>
#include <vector>

namespace kbench {

namespace {

/// The CUPTI entry points kbench uses, resolved from libcupti at run time.
struct CuptiApi {
  decltype(&cuptiActivityEnable) enable = nullptr;
  decltype(&cuptiActivityDisable) disable = nullptr;
  decltype(&cuptiActivityRegisterCallbacks) register_callbacks = nullptr;
  decltype(&cuptiActivityFlushAll) flush_all = nullptr;
  decltype(&cuptiActivityGetNextRecord) next_record = nullptr;
  decltype(&cuptiGetResultString) result_string = nullptr;
};

CuptiApi api;
std::mutex records_mutex;
std::vector<TracedActivity> records;  ///< filled by CUPTI's buffer-completed callback

constexpr std::size_t kBufferBytes = 4u << 20;
constexpr CUpti_ActivityKind kKinds[] = {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY,
                                         CUPTI_ACTIVITY_KIND_MEMSET};

std::string demangle(const char* name) {
  if (name == nullptr) return "(unnamed kernel)";
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> plain(abi::__cxa_demangle(name, nullptr, nullptr, &status), std::free);
  return status == 0 && plain ? std::string(plain.get()) : std::string(name);
}

double span_ms(std::uint64_t start_ns, std::uint64_t end_ns) {
  return end_ns > start_ns ? static_cast<double>(end_ns - start_ns) * 1e-6 : 0.0;
}

void CUPTIAPI buffer_requested(std::uint8_t** buffer, std::size_t* size, std::size_t* max_records) {
  *buffer = static_cast<std::uint8_t*>(std::aligned_alloc(8, kBufferBytes));
  *size = *buffer != nullptr ? kBufferBytes : 0;
  *max_records = 0;
}

void CUPTIAPI buffer_completed(CUcontext, std::uint32_t, std::uint8_t* buffer, std::size_t, std::size_t valid_bytes) {
  CUpti_Activity* record = nullptr;
  std::lock_guard<std::mutex> lock(records_mutex);
  while (api.next_record(buffer, valid_bytes, &record) == CUPTI_SUCCESS) {
    if (record->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL || record->kind == CUPTI_ACTIVITY_KIND_KERNEL) {
      const auto* k = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
      records.push_back({demangle(k->name), {k->gridX, k->gridY, k->gridZ}, {k->blockX, k->blockY, k->blockZ},
                         span_ms(k->start, k->end)});
    } else if (record->kind == CUPTI_ACTIVITY_KIND_MEMCPY) {
      const auto* m = reinterpret_cast<const CUpti_ActivityMemcpy6*>(record);
      records.push_back({"[memcpy]", {}, {}, span_ms(m->start, m->end)});
    } else if (record->kind == CUPTI_ACTIVITY_KIND_MEMSET) {
      const auto* m = reinterpret_cast<const CUpti_ActivityMemset4*>(record);
      records.push_back({"[memset]", {}, {}, span_ms(m->start, m->end)});
    }
  }
  std::free(buffer);
}

template <typename Fn>
bool resolve(void* library, const char* symbol, Fn& fn) {
  fn = reinterpret_cast<Fn>(dlsym(library, symbol));
  return fn != nullptr;
}

}  // namespace

KernelTracer& KernelTracer::instance() {
  static KernelTracer tracer;
  return tracer;
}

KernelTracer::KernelTracer() { loaded_ = load(); }

bool KernelTracer::load() {
  void* library = nullptr;
  for (const char* name : {"libcupti.so", "libcupti.so.13", "libcupti.so.12"}) {
    if ((library = dlopen(name, RTLD_NOW | RTLD_LOCAL)) != nullptr) break;
  }
  if (library == nullptr) {
    unavailable_ = "libcupti could not be loaded (add the CUDA Toolkit's lib64 to LD_LIBRARY_PATH)";
    return false;
  }
  if (!resolve(library, "cuptiActivityEnable", api.enable) || !resolve(library, "cuptiActivityDisable", api.disable) ||
      !resolve(library, "cuptiActivityRegisterCallbacks", api.register_callbacks) ||
      !resolve(library, "cuptiActivityFlushAll", api.flush_all) ||
      !resolve(library, "cuptiActivityGetNextRecord", api.next_record) ||
      !resolve(library, "cuptiGetResultString", api.result_string)) {
    unavailable_ = "libcupti lacks an activity API entry point kbench needs";
    return false;
  }
  if (const CUptiResult result = api.register_callbacks(buffer_requested, buffer_completed); result != CUPTI_SUCCESS) {
    const char* text = "unknown error";
    api.result_string(result, &text);
    unavailable_ = std::string("CUPTI refused its activity buffers: ") + text;
    return false;
  }
  return true;
}

std::optional<KernelBreakdown> KernelTracer::trace(const std::function<void(cudaStream_t)>& launch,
                                                   cudaStream_t stream, int calls) {
  if (!loaded_ || !unavailable_.empty()) return std::nullopt;
  KBENCH_CUDA_CALL(cudaStreamSynchronize(stream));
  api.flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  {
    std::lock_guard<std::mutex> lock(records_mutex);
    records.clear();
  }
  for (CUpti_ActivityKind kind : kKinds) {
    if (const CUptiResult result = api.enable(kind); result != CUPTI_SUCCESS) {
      const char* text = "unknown error";
      api.result_string(result, &text);
      unavailable_ = std::string("CUPTI activity recording could not start (another profiler attached?): ") + text;
      for (CUpti_ActivityKind k : kKinds) api.disable(k);
      return std::nullopt;
    }
  }
  struct DisableOnExit {
    ~DisableOnExit() {
      for (CUpti_ActivityKind kind : kKinds) api.disable(kind);
    }
  } disable_on_exit;
  for (int i = 0; i < calls; ++i) launch(stream);
  KBENCH_CUDA_CALL(cudaStreamSynchronize(stream));
  api.flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  std::lock_guard<std::mutex> lock(records_mutex);
  return summarize_activities(records, calls);
}

}  // namespace kbench
