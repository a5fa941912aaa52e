#include "harness/ops/copy_roof.hpp"

#include "harness/ops/device_output.hpp"
#include "harness/ops/first_call.hpp"
#include "harness/ops/host_tensor.hpp"

#include <cstring>
#include <vector>

namespace kbench {

VariantInfo copy_roof_variant() {
  VariantInfo roof;
  roof.name = kCopyRoofVariant;
  roof.role = VariantRole::roof;
  roof.description = "device-to-device cudaMemcpyAsync moving the case's bytes: the memory roof";
  roof.kernels_per_call = 0;
  return roof;
}

std::size_t copy_roof_bytes(const Traffic& traffic) {
  const auto half = static_cast<std::size_t>(traffic.bytes_total() / 2);
  return std::max<std::size_t>(16, half / 16 * 16);
}

namespace {

class CopyRoofWorkload final : public Workload {
 public:
  CopyRoofWorkload(std::size_t bytes, std::uint64_t seed) : source_(bytes), destination_(bytes) {
    const HostTensor data = random_tensor(DType::f32, bytes / sizeof(float), seed);
    expected_ = data.bytes;
    upload(source_.get(), expected_.data(), bytes);
  }

  void launch(std::size_t, cudaStream_t stream) override {
    KBENCH_CUDA_CALL(cudaMemcpyAsync(destination_.get(), source_.get(), source_.bytes(), cudaMemcpyDeviceToDevice, stream));
    called_ = true;
  }

  Verification verify(std::size_t variant, cudaStream_t stream) override {
    poison_output(destination_, stream);
    Verification result;
    if (!called_) {
      result.first_call_ms = call_wall_ms([&](cudaStream_t s) { launch(variant, s); }, stream);
    } else {
      launch(variant, stream);
    }
    const std::vector<std::uint8_t> copied = read_output_bytes(destination_, stream);
    result.checked = static_cast<std::int64_t>(copied.size());
    for (std::size_t i = 0; i < copied.size(); ++i) {
      if (copied[i] != expected_[i]) {
        if (result.first_mismatch < 0) result.first_mismatch = static_cast<std::int64_t>(i);
        ++result.mismatches;
      }
    }
    result.passed = result.mismatches == 0;
    result.message = result.passed ? "ok: " + std::to_string(copied.size()) + " bytes identical"
                                   : std::to_string(result.mismatches) + " bytes differ (first at byte " +
                                         std::to_string(result.first_mismatch) + ")";
    return result;
  }

 private:
  DeviceBuffer source_;
  DeviceBuffer destination_;
  std::vector<std::uint8_t> expected_;
  bool called_ = false;  ///< the copy has run on these buffers (its next call is not its first)
};

}  // namespace

std::unique_ptr<Workload> prepare_copy_roof(std::size_t bytes, std::uint64_t seed) {
  return std::make_unique<CopyRoofWorkload>(bytes, seed);
}

}  // namespace kbench
