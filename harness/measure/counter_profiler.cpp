#include "harness/measure/counter_profiler.hpp"

#include "harness/device/cuda_check.hpp"
#include "harness/measure/kernel_tracer.hpp"

#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_result.h>
#include <cupti_target.h>
#include <cxxabi.h>
#include <dlfcn.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>

namespace kbench {

namespace {

/// Ranges (kernel launches) one call may have; a call launching more keeps the first ones and
/// the run notes the drop.
constexpr std::size_t kMaxRanges = 256;
/// The most passes (replays of the whole call) a profile may take; the metrics list needs far fewer.
constexpr int kMaxPasses = 256;

/// The CUPTI entry points the profiler uses, resolved from libcupti at run time.
struct ProfilerApi {
  decltype(&cuptiGetResultString) result_string = nullptr;
  decltype(&cuptiProfilerInitialize) initialize = nullptr;
  decltype(&cuptiDeviceGetChipName) chip_name = nullptr;
  decltype(&cuptiProfilerGetCounterAvailability) counter_availability = nullptr;
  decltype(&cuptiProfilerHostInitialize) host_initialize = nullptr;
  decltype(&cuptiProfilerHostGetMetricProperties) metric_properties = nullptr;
  decltype(&cuptiProfilerHostConfigAddMetrics) config_add_metrics = nullptr;
  decltype(&cuptiProfilerHostGetConfigImageSize) config_image_size = nullptr;
  decltype(&cuptiProfilerHostGetConfigImage) config_image = nullptr;
  decltype(&cuptiProfilerHostEvaluateToGpuValues) evaluate = nullptr;
  decltype(&cuptiRangeProfilerEnable) enable = nullptr;
  decltype(&cuptiRangeProfilerDisable) disable = nullptr;
  decltype(&cuptiRangeProfilerGetCounterDataSize) counter_data_size = nullptr;
  decltype(&cuptiRangeProfilerCounterDataImageInitialize) counter_data_initialize = nullptr;
  decltype(&cuptiRangeProfilerSetConfig) set_config = nullptr;
  decltype(&cuptiRangeProfilerStart) start = nullptr;
  decltype(&cuptiRangeProfilerStop) stop = nullptr;
  decltype(&cuptiRangeProfilerDecodeData) decode = nullptr;
  decltype(&cuptiRangeProfilerGetCounterDataInfo) counter_data_info = nullptr;
  decltype(&cuptiRangeProfilerCounterDataGetRangeInfo) range_info = nullptr;
  CUresult (*current_context)(CUcontext*) = nullptr;  ///< cuCtxGetCurrent, from the driver the runtime loaded
};

ProfilerApi api;
CUpti_Profiler_Host_Object* host_object = nullptr;  ///< kept for evaluating every profile

template <typename Fn>
bool resolve(void* library, const char* symbol, Fn& fn) {
  fn = reinterpret_cast<Fn>(dlsym(library, symbol));
  return fn != nullptr;
}

std::string demangle(const char* name) {
  if (name == nullptr) return "(unnamed kernel)";
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> plain(abi::__cxa_demangle(name, nullptr, nullptr, &status), std::free);
  return status == 0 && plain ? std::string(plain.get()) : std::string(name);
}

/// "CALL failed: CUPTI's text", with what to do for the failures a user can act on.
std::string failure(const char* call, CUptiResult result) {
  const char* text = "unknown error";
  if (api.result_string != nullptr) api.result_string(result, &text);
  std::string message = std::string(call) + " failed: " + text;
  if (result == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES || result == CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES) {
    message += " (GPU performance counters are restricted to administrators: run as root, or load the driver with "
               "NVreg_RestrictProfilingToAdminUsers=0)";
  } else if (result == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED || result == CUPTI_ERROR_OLD_PROFILER_API_INITIALIZED) {
    message += " (another profiler, such as ncu or nsys, is attached)";
  } else if (result == CUPTI_ERROR_NOT_SUPPORTED || result == CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED) {
    message += " (this GPU or its configuration does not support counter profiling)";
  }
  return message;
}

/// Params structs start zeroed with their size set, as the headers ask.
template <typename Params>
Params params(std::size_t size) {
  Params p{};
  p.structSize = size;
  return p;
}

bool is_range_index(const std::string& name) {
  return !name.empty() && name.find_first_not_of("0123456789") == std::string::npos;
}

/// Auto ranges are named by their launch index; one traced call (the activity tracer) names the
/// kernels when its launches line up with the ranges: every kernel launched once per call, or one
/// kernel launched every time. Otherwise a range is "kernel N of the call".
void name_kernels(HardwareCounters& counters, const std::function<void(cudaStream_t)>& launch, cudaStream_t stream) {
  std::vector<std::string> launched;
  bool one_name = true;
  KernelTracer& tracer = KernelTracer::instance();
  if (tracer.unavailable_reason().empty()) {
    if (const std::optional<KernelBreakdown> traced = tracer.trace(launch, stream, 1)) {
      bool each_once = true;
      for (const KernelActivity& activity : traced->activities) {
        if (!activity.is_kernel()) continue;
        const long launches = std::lround(activity.launches_per_call);
        each_once = each_once && launches == 1;
        one_name = one_name && (launched.empty() || launched.front() == activity.name);
        for (long i = 0; i < launches; ++i) launched.push_back(activity.name);
      }
      if (!each_once && !one_name) launched.clear();
    }
  }
  const bool lined_up = launched.size() == counters.kernels.size();
  for (std::size_t k = 0; k < counters.kernels.size(); ++k) {
    std::string& name = counters.kernels[k].name;
    if (is_range_index(name)) name = lined_up ? launched[k] : "kernel " + std::to_string(k + 1) + " of the call";
  }
}

}  // namespace

CounterProfiler& CounterProfiler::instance() {
  static CounterProfiler profiler;
  return profiler;
}

bool CounterProfiler::set_up() {
  tried_ = true;
  void* library = nullptr;
  for (const char* name : {"libcupti.so", "libcupti.so.13", "libcupti.so.12"}) {
    if ((library = dlopen(name, RTLD_NOW | RTLD_LOCAL)) != nullptr) break;
  }
  if (library == nullptr) {
    unavailable_ = "libcupti could not be loaded (add the CUDA Toolkit's lib64 to LD_LIBRARY_PATH)";
    return false;
  }
  void* driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (driver == nullptr || !resolve(driver, "cuCtxGetCurrent", api.current_context)) {
    unavailable_ = "the CUDA driver's cuCtxGetCurrent could not be found";
    return false;
  }
  if (!resolve(library, "cuptiGetResultString", api.result_string) ||
      !resolve(library, "cuptiProfilerInitialize", api.initialize) ||
      !resolve(library, "cuptiDeviceGetChipName", api.chip_name) ||
      !resolve(library, "cuptiProfilerGetCounterAvailability", api.counter_availability) ||
      !resolve(library, "cuptiProfilerHostInitialize", api.host_initialize) ||
      !resolve(library, "cuptiProfilerHostGetMetricProperties", api.metric_properties) ||
      !resolve(library, "cuptiProfilerHostConfigAddMetrics", api.config_add_metrics) ||
      !resolve(library, "cuptiProfilerHostGetConfigImageSize", api.config_image_size) ||
      !resolve(library, "cuptiProfilerHostGetConfigImage", api.config_image) ||
      !resolve(library, "cuptiProfilerHostEvaluateToGpuValues", api.evaluate) ||
      !resolve(library, "cuptiRangeProfilerEnable", api.enable) || !resolve(library, "cuptiRangeProfilerDisable", api.disable) ||
      !resolve(library, "cuptiRangeProfilerGetCounterDataSize", api.counter_data_size) ||
      !resolve(library, "cuptiRangeProfilerCounterDataImageInitialize", api.counter_data_initialize) ||
      !resolve(library, "cuptiRangeProfilerSetConfig", api.set_config) ||
      !resolve(library, "cuptiRangeProfilerStart", api.start) || !resolve(library, "cuptiRangeProfilerStop", api.stop) ||
      !resolve(library, "cuptiRangeProfilerDecodeData", api.decode) ||
      !resolve(library, "cuptiRangeProfilerGetCounterDataInfo", api.counter_data_info) ||
      !resolve(library, "cuptiRangeProfilerCounterDataGetRangeInfo", api.range_info)) {
    unavailable_ = "libcupti lacks a range-profiler entry point kbench needs (CUDA 12.6 or newer has them)";
    return false;
  }

  auto init = params<CUpti_Profiler_Initialize_Params>(CUpti_Profiler_Initialize_Params_STRUCT_SIZE);
  if (const CUptiResult r = api.initialize(&init); r != CUPTI_SUCCESS) return unavailable_ = failure("cuptiProfilerInitialize", r), false;

  int device = 0;
  KBENCH_CUDA_CALL(cudaGetDevice(&device));
  KBENCH_CUDA_CALL(cudaFree(nullptr));  // the primary context exists from here on
  auto chip = params<CUpti_Device_GetChipName_Params>(CUpti_Device_GetChipName_Params_STRUCT_SIZE);
  chip.deviceIndex = static_cast<std::size_t>(device);
  if (const CUptiResult r = api.chip_name(&chip); r != CUPTI_SUCCESS) return unavailable_ = failure("cuptiDeviceGetChipName", r), false;

  CUcontext context = nullptr;
  if (api.current_context(&context) != CUDA_SUCCESS || context == nullptr) {
    unavailable_ = "cuCtxGetCurrent gave no CUDA context";
    return false;
  }
  auto availability =
      params<CUpti_Profiler_GetCounterAvailability_Params>(CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE);
  availability.ctx = context;
  if (const CUptiResult r = api.counter_availability(&availability); r != CUPTI_SUCCESS) {
    return unavailable_ = failure("cuptiProfilerGetCounterAvailability (size)", r), false;
  }
  std::vector<std::uint8_t> availability_image(availability.counterAvailabilityImageSize);
  availability.pCounterAvailabilityImage = availability_image.data();
  if (const CUptiResult r = api.counter_availability(&availability); r != CUPTI_SUCCESS) {
    return unavailable_ = failure("cuptiProfilerGetCounterAvailability", r), false;
  }

  auto host = params<CUpti_Profiler_Host_Initialize_Params>(CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE);
  host.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
  host.pChipName = chip.pChipName;
  host.pCounterAvailabilityImage = availability_image.data();
  if (const CUptiResult r = api.host_initialize(&host); r != CUPTI_SUCCESS) {
    return unavailable_ = failure("cuptiProfilerHostInitialize", r) + " for chip " + (chip.pChipName ? chip.pChipName : "?"), false;
  }
  host_object = host.pHostObject;

  // Keep what the chip offers; a metric it lacks is left out (and named in a run note).
  for (const std::string& metric : counter_metric_names()) {
    auto properties =
        params<CUpti_Profiler_Host_GetMetricProperties_Params>(CUpti_Profiler_Host_GetMetricProperties_Params_STRUCT_SIZE);
    properties.pHostObject = host_object;
    properties.pMetricName = metric.c_str();
    (api.metric_properties(&properties) == CUPTI_SUCCESS ? metrics_ : missing_).push_back(metric);
  }
  if (metrics_.empty()) {
    unavailable_ = "this GPU (chip " + std::string(chip.pChipName ? chip.pChipName : "?") + ") offers none of the metrics kbench collects";
    return false;
  }
  std::vector<const char*> names;
  for (const std::string& metric : metrics_) names.push_back(metric.c_str());
  auto add = params<CUpti_Profiler_Host_ConfigAddMetrics_Params>(CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE);
  add.pHostObject = host_object;
  add.ppMetricNames = names.data();
  add.numMetrics = names.size();
  if (const CUptiResult r = api.config_add_metrics(&add); r != CUPTI_SUCCESS) {
    return unavailable_ = failure("cuptiProfilerHostConfigAddMetrics", r), false;
  }
  auto size = params<CUpti_Profiler_Host_GetConfigImageSize_Params>(CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE);
  size.pHostObject = host_object;
  if (const CUptiResult r = api.config_image_size(&size); r != CUPTI_SUCCESS) {
    return unavailable_ = failure("cuptiProfilerHostGetConfigImageSize", r), false;
  }
  config_image_.resize(size.configImageSize);
  auto image = params<CUpti_Profiler_Host_GetConfigImage_Params>(CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE);
  image.pHostObject = host_object;
  image.configImageSize = config_image_.size();
  image.pConfigImage = config_image_.data();
  if (const CUptiResult r = api.config_image(&image); r != CUPTI_SUCCESS) {
    return unavailable_ = failure("cuptiProfilerHostGetConfigImage", r), false;
  }
  return true;
}

std::optional<HardwareCounters> CounterProfiler::profile(const std::function<void(cudaStream_t)>& launch,
                                                         const PassPrologue& prologue, cudaStream_t stream) {
  std::optional<HardwareCounters> counters = profile_ranges(launch, prologue, stream);
  if (counters) name_kernels(*counters, launch, stream);
  return counters;
}

std::optional<HardwareCounters> CounterProfiler::profile_ranges(const std::function<void(cudaStream_t)>& launch,
                                                                const PassPrologue& prologue, cudaStream_t stream) {
  if (!tried_ && !set_up()) return std::nullopt;
  if (!unavailable_.empty()) return std::nullopt;
  KBENCH_CUDA_CALL(cudaStreamSynchronize(stream));
  CUcontext context = nullptr;
  if (api.current_context(&context) != CUDA_SUCCESS || context == nullptr) {
    unavailable_ = "cuCtxGetCurrent gave no CUDA context";
    return std::nullopt;
  }
  const auto give_up = [&](const char* call, CUptiResult r) {
    unavailable_ = failure(call, r);
    return std::nullopt;
  };

  auto enable = params<CUpti_RangeProfiler_Enable_Params>(CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE);
  enable.ctx = context;
  if (const CUptiResult r = api.enable(&enable); r != CUPTI_SUCCESS) return give_up("cuptiRangeProfilerEnable", r);
  CUpti_RangeProfiler_Object* object = enable.pRangeProfilerObject;
  struct DisableOnExit {
    CUpti_RangeProfiler_Object* object;
    ~DisableOnExit() {
      auto disable = params<CUpti_RangeProfiler_Disable_Params>(CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE);
      disable.pRangeProfilerObject = object;
      api.disable(&disable);
    }
  } disable_on_exit{object};

  std::vector<const char*> names;
  for (const std::string& metric : metrics_) names.push_back(metric.c_str());
  auto data_size = params<CUpti_RangeProfiler_GetCounterDataSize_Params>(CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE);
  data_size.pRangeProfilerObject = object;
  data_size.pMetricNames = names.data();
  data_size.numMetrics = names.size();
  data_size.maxNumOfRanges = kMaxRanges;
  data_size.maxNumRangeTreeNodes = static_cast<std::uint32_t>(kMaxRanges);
  if (const CUptiResult r = api.counter_data_size(&data_size); r != CUPTI_SUCCESS) {
    return give_up("cuptiRangeProfilerGetCounterDataSize", r);
  }
  std::vector<std::uint8_t> counter_data(data_size.counterDataSize);
  auto data_init = params<CUpti_RangeProfiler_CounterDataImage_Initialize_Params>(
      CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE);
  data_init.pRangeProfilerObject = object;
  data_init.counterDataSize = counter_data.size();
  data_init.pCounterData = counter_data.data();
  if (const CUptiResult r = api.counter_data_initialize(&data_init); r != CUPTI_SUCCESS) {
    return give_up("cuptiRangeProfilerCounterDataImageInitialize", r);
  }

  auto config = params<CUpti_RangeProfiler_SetConfig_Params>(CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE);
  config.pRangeProfilerObject = object;
  config.configSize = config_image_.size();
  config.pConfig = config_image_.data();
  config.counterDataImageSize = counter_data.size();
  config.pCounterDataImage = counter_data.data();
  config.range = CUPTI_AutoRange;        // one range per kernel launch
  // kbench replays the whole call, the prologue (an L2 flush) before it in each pass, as cold mode
  // runs it, for as many passes as the metrics need. The flush runs after cuptiRangeProfilerStart,
  // as the pass's first range(s), left out when decoding (prologue.kernels of them): starting a pass
  // leaves about 20 MB of dirty lines in L2 on the H100, which a flush before it did not clear
  // and the call then wrote back (kbench read ~20 MB more DRAM writes than ncu on every kernel).
  config.replayMode = CUPTI_UserReplay;
  config.maxRangesPerPass = kMaxRanges;
  config.numNestingLevels = 1;
  config.minNestingLevel = 1;
  config.passIndex = 0;
  config.targetNestingLevel = 1;
  if (const CUptiResult r = api.set_config(&config); r != CUPTI_SUCCESS) return give_up("cuptiRangeProfilerSetConfig", r);

  for (int pass = 0;; ++pass) {
    if (pass == kMaxPasses) throw std::runtime_error("CUPTI asked for more than " + std::to_string(kMaxPasses) + " passes");
    KBENCH_CUDA_CALL(cudaStreamSynchronize(stream));
    auto start = params<CUpti_RangeProfiler_Start_Params>(CUpti_RangeProfiler_Start_Params_STRUCT_SIZE);
    start.pRangeProfilerObject = object;
    if (const CUptiResult r = api.start(&start); r != CUPTI_SUCCESS) return give_up("cuptiRangeProfilerStart", r);
    if (prologue.enqueue) prologue.enqueue(stream);
    launch(stream);
    KBENCH_CUDA_CALL(cudaStreamSynchronize(stream));
    auto stop = params<CUpti_RangeProfiler_Stop_Params>(CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE);
    stop.pRangeProfilerObject = object;
    if (const CUptiResult r = api.stop(&stop); r != CUPTI_SUCCESS) return give_up("cuptiRangeProfilerStop", r);
    if (stop.isAllPassSubmitted) break;
  }
  auto decode = params<CUpti_RangeProfiler_DecodeData_Params>(CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE);
  decode.pRangeProfilerObject = object;
  if (const CUptiResult r = api.decode(&decode); r != CUPTI_SUCCESS) return give_up("cuptiRangeProfilerDecodeData", r);

  auto info = params<CUpti_RangeProfiler_GetCounterDataInfo_Params>(CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE);
  info.pCounterDataImage = counter_data.data();
  info.counterDataImageSize = counter_data.size();
  if (const CUptiResult r = api.counter_data_info(&info); r != CUPTI_SUCCESS) {
    return give_up("cuptiRangeProfilerGetCounterDataInfo", r);
  }
  HardwareCounters counters;
  std::vector<double> values(names.size());
  const std::size_t skipped = prologue.enqueue ? static_cast<std::size_t>(std::max(prologue.kernels, 0)) : 0;
  for (std::size_t range = skipped; range < info.numTotalRanges; ++range) {
    auto name = params<CUpti_RangeProfiler_CounterData_GetRangeInfo_Params>(
        CUpti_RangeProfiler_CounterData_GetRangeInfo_Params_STRUCT_SIZE);
    name.pCounterDataImage = counter_data.data();
    name.counterDataImageSize = counter_data.size();
    name.rangeIndex = range;
    name.rangeDelimiter = "/";
    if (const CUptiResult r = api.range_info(&name); r != CUPTI_SUCCESS) {
      return give_up("cuptiRangeProfilerCounterDataGetRangeInfo", r);
    }
    auto evaluate =
        params<CUpti_Profiler_Host_EvaluateToGpuValues_Params>(CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE);
    evaluate.pHostObject = host_object;
    evaluate.pCounterDataImage = counter_data.data();
    evaluate.counterDataImageSize = counter_data.size();
    evaluate.rangeIndex = range;
    evaluate.ppMetricNames = names.data();
    evaluate.numMetrics = names.size();
    evaluate.pMetricValues = values.data();
    if (const CUptiResult r = api.evaluate(&evaluate); r != CUPTI_SUCCESS) {
      return give_up("cuptiProfilerHostEvaluateToGpuValues", r);
    }
    KernelCounters kernel;
    kernel.name = demangle(name.rangeName);
    for (std::size_t m = 0; m < names.size(); ++m) {
      // NaN or a negative value is a metric the range did not measure: left out, not guessed.
      if (values[m] >= 0) kernel.metrics[metrics_[m]] = values[m];
    }
    counters.kernels.push_back(std::move(kernel));
  }
  if (decode.numOfRangeDropped > 0) {
    // Incomplete counters for this row only: the caller records the error in its message.
    throw std::runtime_error(std::to_string(decode.numOfRangeDropped) + " kernel launches of the call were dropped (more than " +
                             std::to_string(kMaxRanges - skipped) + " kernels per call)");
  }
  return counters;
}

}  // namespace kbench
