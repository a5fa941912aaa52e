// The elementwise add op: c = a + b over a tensor of any shape (treated as flat).
#include "kernels/add/add_op.hpp"

#include "harness/device/cuda_resources.hpp"
#include "harness/device/device_setup.hpp"
#include "harness/ops/device_output.hpp"
#include "harness/ops/dtype_dispatch.hpp"
#include "harness/ops/host_tensor.hpp"
#include "kernels/add/add_kernels.hpp"

namespace kbench {

namespace {

enum AddVariant : std::size_t { kNaive, kVectorized, kBlocked, kCubTransform };

class AddWorkload final : public Workload {
 public:
  AddWorkload(const Problem& problem, std::uint64_t seed)
      : dtype_(problem.dtype), n_(element_count(problem.shape)) {
    const std::size_t bytes = static_cast<std::size_t>(n_) * dtype_size(dtype_);
    a_ = DeviceBuffer(bytes);
    b_ = DeviceBuffer(bytes);
    c_ = DeviceBuffer(bytes);
    HostTensor a = random_tensor(dtype_, static_cast<std::size_t>(n_), seed);
    HostTensor b = random_tensor(dtype_, static_cast<std::size_t>(n_), seed ^ 0x5DEECE66Dull);
    upload(a_.get(), a.bytes.data(), bytes);
    upload(b_.get(), b.bytes.data(), bytes);
    // Reference in double from the exact dtype inputs.
    reference_.resize(static_cast<std::size_t>(n_));
    for (std::size_t i = 0; i < reference_.size(); ++i) {
      reference_[i] = static_cast<double>(a.values[i]) + static_cast<double>(b.values[i]);
    }
    const int sm_count = current_sm_count();
    vectorized_grid_ = dispatch_dtype(dtype_, [&](auto tag) {
      using T = typename decltype(tag)::type;
      return add::vectorized_grid<T>(n_, sm_count);
    });
  }

  void launch(std::size_t variant, cudaStream_t stream) override {
    dispatch_dtype(dtype_, [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T* a = a_.as<T>();
      const T* b = b_.as<T>();
      T* c = c_.as<T>();
      switch (variant) {
        case kNaive: add::launch_naive(a, b, c, n_, stream); break;
        case kVectorized: add::launch_vectorized(a, b, c, n_, vectorized_grid_, stream); break;
        case kBlocked: add::launch_blocked(a, b, c, n_, stream); break;
        case kCubTransform: add::launch_cub_transform(a, b, c, n_, stream); break;
        default: throw std::out_of_range("add: no variant " + std::to_string(variant));
      }
    });
  }

  void poison_outputs(cudaStream_t stream) override { poison_output(c_, stream); }

  Verification check_outputs(cudaStream_t stream) override {
    return compare_with_reference(read_output(c_, dtype_, reference_.size(), stream), reference_,
                                  elementwise_tolerance(dtype_));
  }

 private:
  DType dtype_;
  std::int64_t n_;
  DeviceBuffer a_, b_, c_;
  std::vector<double> reference_;
  int vectorized_grid_ = 1;
};

class AddOp final : public Op {
 public:
  std::string name() const override { return "add"; }
  std::string summary() const override { return "elementwise c = a + b (any shape, treated as flat)"; }
  std::vector<VariantInfo> variants() const override {
    return {
        {"naive", VariantRole::own, "one element per thread, 256-thread blocks"},
        {"vectorized", VariantRole::own, "grid-stride over 16-byte vectors, 4 in flight per input, scalar tail"},
        {"blocked", VariantRole::own, "16-byte vectors, one tile of 256 x 4 per block, a grid covering the tensor"},
        {"cub_transform", VariantRole::baseline, "cub::DeviceTransform::Transform (CCCL)"},
    };
  }
  std::vector<DType> dtypes() const override { return all_dtypes(); }
  std::string reject_shape(const Shape& shape) const override { return shape.empty() ? "shape is empty" : ""; }
  Traffic traffic(const Problem& problem) const override {
    const double bytes = static_cast<double>(element_count(problem.shape)) * static_cast<double>(dtype_size(problem.dtype));
    const double elements = static_cast<double>(element_count(problem.shape));
    return {2 * bytes, bytes, elements};
  }
  std::unique_ptr<Workload> prepare(const Problem& problem, std::uint64_t seed) const override {
    return std::make_unique<AddWorkload>(problem, seed);
  }
};

}  // namespace

void register_add(Registry& registry) { registry.add(std::make_unique<AddOp>()); }

}  // namespace kbench
