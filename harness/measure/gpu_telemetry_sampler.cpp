#include "harness/measure/gpu_telemetry_sampler.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <utility>
#include <vector>

namespace kbench {

namespace {

// The few NVML declarations kbench uses, with the types and values of nvml.h (which not every
// toolkit install ships): functions return an int status, 0 is NVML_SUCCESS.
using NvmlReturn = int;
using NvmlDevice = void*;
constexpr NvmlReturn kNvmlSuccess = 0;
constexpr unsigned kNvmlTemperatureGpu = 0;  ///< NVML_TEMPERATURE_GPU
/// nvmlProcessInfo_t of nvmlDeviceGetComputeRunningProcesses_v3.
struct NvmlProcessInfo {
  unsigned int pid;
  unsigned long long used_gpu_memory;
  unsigned int gpu_instance_id;
  unsigned int compute_instance_id;
};
/// nvmlClocksEventReason* bits worth reporting (idle and application-clock settings are not).
constexpr std::pair<unsigned long long, const char*> kClockEventReasons[] = {
    {0x4ull, "sw_power_cap"},         {0x8ull, "hw_slowdown"},           {0x10ull, "sync_boost"},
    {0x20ull, "sw_thermal_slowdown"}, {0x40ull, "hw_thermal_slowdown"},  {0x80ull, "hw_power_brake_slowdown"},
    {0x100ull, "display_clock_setting"},
};

struct NvmlApi {
  NvmlReturn (*init)() = nullptr;
  NvmlReturn (*shutdown)() = nullptr;
  const char* (*error_string)(NvmlReturn) = nullptr;
  NvmlReturn (*handle_by_pci_bus_id)(const char*, NvmlDevice*) = nullptr;
  NvmlReturn (*total_energy)(NvmlDevice, unsigned long long*) = nullptr;
  NvmlReturn (*power_usage)(NvmlDevice, unsigned int*) = nullptr;
  NvmlReturn (*temperature)(NvmlDevice, unsigned, unsigned int*) = nullptr;
  NvmlReturn (*clock_event_reasons)(NvmlDevice, unsigned long long*) = nullptr;
  NvmlReturn (*compute_processes)(NvmlDevice, unsigned int*, NvmlProcessInfo*) = nullptr;
};
NvmlApi nvml;

template <typename Fn>
bool resolve(void* library, const char* symbol, Fn& fn) {
  fn = reinterpret_cast<Fn>(dlsym(library, symbol));
  return fn != nullptr;
}

std::string nvml_error(const char* call, NvmlReturn result) {
  const char* text = nvml.error_string != nullptr ? nvml.error_string(result) : nullptr;
  return std::string(call) + " failed: " + (text != nullptr ? text : "error " + std::to_string(result));
}

/// The pids of the compute processes on the device; nothing when NVML cannot say.
std::optional<std::vector<long>> compute_pids(NvmlDevice device) {
  std::vector<NvmlProcessInfo> infos(256);
  unsigned int count = static_cast<unsigned int>(infos.size());
  if (nvml.compute_processes(device, &count, infos.data()) != kNvmlSuccess) return std::nullopt;
  std::vector<long> pids;
  for (unsigned int i = 0; i < count && i < infos.size(); ++i) pids.push_back(static_cast<long>(infos[i].pid));
  return pids;
}

}  // namespace

GpuTelemetrySampler::GpuTelemetrySampler(const std::string& pci_bus_id) {
  void* library = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    unavailable_ = "libnvidia-ml.so.1 (NVML, part of the driver) could not be loaded";
    return;
  }
  if (!resolve(library, "nvmlInit_v2", nvml.init) || !resolve(library, "nvmlShutdown", nvml.shutdown) ||
      !resolve(library, "nvmlErrorString", nvml.error_string) ||
      !resolve(library, "nvmlDeviceGetHandleByPciBusId_v2", nvml.handle_by_pci_bus_id) ||
      !resolve(library, "nvmlDeviceGetTotalEnergyConsumption", nvml.total_energy) ||
      !resolve(library, "nvmlDeviceGetPowerUsage", nvml.power_usage) ||
      !resolve(library, "nvmlDeviceGetTemperature", nvml.temperature) ||
      !resolve(library, "nvmlDeviceGetComputeRunningProcesses_v3", nvml.compute_processes)) {
    unavailable_ = "libnvidia-ml lacks an entry point kbench needs (the driver is too old)";
    return;
  }
  if (!resolve(library, "nvmlDeviceGetCurrentClocksEventReasons", nvml.clock_event_reasons)) {
    resolve(library, "nvmlDeviceGetCurrentClocksThrottleReasons", nvml.clock_event_reasons);  // its older name
  }
  if (const NvmlReturn r = nvml.init(); r != kNvmlSuccess) {
    unavailable_ = nvml_error("nvmlInit_v2", r);
    return;
  }
  NvmlDevice device = nullptr;
  if (const NvmlReturn r = nvml.handle_by_pci_bus_id(pci_bus_id.c_str(), &device); r != kNvmlSuccess) {
    unavailable_ = nvml_error("nvmlDeviceGetHandleByPciBusId_v2", r) + " for " + pci_bus_id;
    nvml.shutdown();
    return;
  }
  device_ = device;
  // kbench's own process: its pid, or, inside a PID namespace (a container) where NVML reports
  // host pids, the only process on the GPU when kbench is alone on it.
  const std::optional<std::vector<long>> pids = compute_pids(device);
  const long own = static_cast<long>(getpid());
  if (!pids) {
    processes_note_ = "NVML cannot list the GPU's compute processes: other processes on the GPU are not detected";
  } else if (std::find(pids->begin(), pids->end(), own) != pids->end()) {
    self_pid_ = own;
  } else if (pids->size() == 1) {
    self_pid_ = pids->front();
  } else {
    processes_note_ = "kbench cannot tell its own process among the " + std::to_string(pids->size()) +
                      " compute processes NVML lists (a PID namespace?): other processes on the GPU are not detected";
  }
}

GpuTelemetrySampler::~GpuTelemetrySampler() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
  if (device_ != nullptr) nvml.shutdown();
}

std::optional<unsigned long long> GpuTelemetrySampler::energy_mj() const {
  unsigned long long mj = 0;
  if (nvml.total_energy(device_, &mj) != kNvmlSuccess) return std::nullopt;
  return mj;
}

void GpuTelemetrySampler::read_once() {
  unsigned int milliwatts = 0, celsius = 0;
  unsigned long long reasons = 0;
  const bool have_power = nvml.power_usage(device_, &milliwatts) == kNvmlSuccess;
  const bool have_temperature = nvml.temperature(device_, kNvmlTemperatureGpu, &celsius) == kNvmlSuccess;
  const bool have_reasons = nvml.clock_event_reasons != nullptr && nvml.clock_event_reasons(device_, &reasons) == kNvmlSuccess;
  const std::optional<std::vector<long>> pids = self_pid_ >= 0 ? compute_pids(device_) : std::nullopt;

  std::lock_guard<std::mutex> lock(mutex_);
  ++current_.samples;
  if (have_power) {
    power_sum_w_ += milliwatts * 1e-3;
    ++power_readings_;
  }
  if (have_temperature) current_.max_temperature_c = std::max(current_.max_temperature_c.value_or(0), double(celsius));
  for (const auto& [bit, name] : kClockEventReasons) {
    std::vector<std::string>& seen = current_.clock_event_reasons;
    if (have_reasons && (reasons & bit) != 0 && std::find(seen.begin(), seen.end(), name) == seen.end()) seen.push_back(name);
  }
  for (const long pid : pids.value_or(std::vector<long>{})) {
    std::vector<std::int64_t>& others = current_.other_processes;
    if (pid != self_pid_ && std::find(others.begin(), others.end(), pid) == others.end()) others.push_back(pid);
  }
}

void GpuTelemetrySampler::begin() {
  if (!available()) return;
  if (thread_.joinable()) end(0);  // a mode that threw before its end(): stop its thread first
  {
    std::lock_guard<std::mutex> lock(mutex_);
    current_ = ModeTelemetry{};
    power_sum_w_ = 0;
    power_readings_ = 0;
    stopping_ = false;
  }
  start_energy_mj_ = energy_mj();
  read_once();
  thread_ = std::thread([this] {
    std::unique_lock<std::mutex> lock(mutex_);
    while (!wake_.wait_for(lock, std::chrono::milliseconds(10), [this] { return stopping_; })) {
      lock.unlock();
      read_once();
      lock.lock();
    }
  });
}

ModeTelemetry GpuTelemetrySampler::end(std::int64_t calls) {
  if (!available() || !thread_.joinable()) return {};
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
  read_once();
  const std::optional<unsigned long long> end_energy = energy_mj();
  std::lock_guard<std::mutex> lock(mutex_);
  ModeTelemetry out = current_;
  if (power_readings_ > 0) out.mean_power_w = power_sum_w_ / power_readings_;
  // The counter moves in steps; a mode too short for one step gets no energy figure.
  if (start_energy_mj_ && end_energy && *end_energy > *start_energy_mj_ && calls > 0) {
    out.energy_j_per_call = static_cast<double>(*end_energy - *start_energy_mj_) * 1e-3 / static_cast<double>(calls);
  }
  return out;
}

}  // namespace kbench
