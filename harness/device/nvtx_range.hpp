#pragma once
/// NVTX3 ranges in kbench's own domain, so that an Nsight Systems timeline or an
/// `ncu --nvtx --nvtx-include "kbench@CASE/"` selection reads like the report: one range per
/// case ("add vectorized fp32 4096x4096") with one nested range per phase ("verify",
/// "warmup cold", "measure cold", "kernel breakdown", "profile"). NVTX3 is header-only and costs
/// a few nanoseconds per range when no tool is attached; ranges never enter an event window.

#include <nvtx3/nvToolsExt.h>

#include <string>

namespace kbench {

/// The "kbench" NVTX domain, created once.
inline nvtxDomainHandle_t nvtx_domain() {
  static const nvtxDomainHandle_t domain = nvtxDomainCreateA("kbench");
  return domain;
}

/// Pushes a range on construction and pops it on destruction (same thread). Move-free.
class NvtxRange {
 public:
  explicit NvtxRange(const std::string& message) {
    nvtxEventAttributes_t attributes{};
    attributes.version = NVTX_VERSION;
    attributes.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    attributes.messageType = NVTX_MESSAGE_TYPE_ASCII;
    attributes.message.ascii = message.c_str();
    nvtxDomainRangePushEx(nvtx_domain(), &attributes);
  }
  ~NvtxRange() { nvtxDomainRangePop(nvtx_domain()); }
  NvtxRange(const NvtxRange&) = delete;
  NvtxRange& operator=(const NvtxRange&) = delete;
};

}  // namespace kbench
