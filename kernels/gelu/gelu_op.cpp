// The GELU family: gelu_tanh (the tanh approximation) and gelu_erf (the exact form), elementwise
// over a tensor of any shape (treated as flat). One Workload serves both; the Op classes differ
// in the form only.
#include "kernels/legacy_workload.hpp"
#include "kernels/gelu/gelu_op.hpp"

#include "harness/device/cuda_resources.hpp"
#include "harness/device/device_setup.hpp"
#include "harness/ops/device_output.hpp"
#include "harness/ops/dtype_dispatch.hpp"
#include "harness/ops/host_tensor.hpp"
#include "kernels/gelu/gelu_kernels.hpp"
#include "kernels/gelu/gelu_reference.hpp"

#include <cmath>
#include <stdexcept>

namespace kbench {

namespace {

using gelu::Form;

enum GeluVariant : std::size_t { kManual, kFused, kVectorized, kBlocked, kCubTransform };

/// Inputs are drawn from [-5, 5): the curved part of GELU and the negative tail where
/// 0.5 x (1 + tanh(u)) cancels to about -2e-7 at x = -5.
constexpr float kInputLow = -5.0f;
constexpr float kInputHigh = 5.0f;

class GeluWorkload final : public LegacyWorkload {
 public:
  GeluWorkload(Form form, const Problem& problem, std::uint64_t seed)
      : form_(form), dtype_(problem.dtype), n_(element_count(problem.shape)) {
    const std::size_t bytes = static_cast<std::size_t>(n_) * dtype_size(dtype_);
    x_ = DeviceBuffer(bytes);
    y_ = DeviceBuffer(bytes);
    // The manual chain's two ping-pong temporaries, allocated here so that no call allocates.
    t0_ = DeviceBuffer(bytes);
    t1_ = DeviceBuffer(bytes);

    HostTensor x = random_tensor(dtype_, static_cast<std::size_t>(n_), seed, kInputLow, kInputHigh);
    upload(x_.get(), x.bytes.data(), bytes);
    reference_ = gelu::reference_gelu(form_, x.values);
    inputs_ = std::move(x.values);

    const int sm_count = current_sm_count();
    vectorized_grid_ = dispatch_dtype(dtype_, [&](auto tag) {
      using T = typename decltype(tag)::type;
      return gelu::vectorized_grid<T>(form_, n_, sm_count);
    });
  }

  void launch(std::size_t variant, cudaStream_t stream) override {
    dispatch_dtype(dtype_, [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T* x = x_.as<T>();
      T* y = y_.as<T>();
      switch (variant) {
        case kManual: gelu::launch_manual(form_, x, y, t0_.as<T>(), t1_.as<T>(), n_, stream); break;
        case kFused: gelu::launch_fused(form_, x, y, n_, stream); break;
        case kVectorized: gelu::launch_vectorized(form_, x, y, n_, vectorized_grid_, stream); break;
        case kBlocked: gelu::launch_blocked(form_, x, y, n_, stream); break;
        case kCubTransform: gelu::launch_cub_transform(form_, x, y, n_, stream); break;
        default: throw std::out_of_range("gelu: no variant " + std::to_string(variant));
      }
    });
    // check_outputs holds the manual chain to its own tolerance; the harness and the tests
    // always check right after the launch they verify.
    last_variant_ = variant;
  }

  void poison_outputs(cudaStream_t stream) override { poison_output(y_, stream); }

  Verification check_outputs(cudaStream_t stream) override {
    const std::vector<float> output = read_output(y_, dtype_, reference_.size(), stream);
    if (last_variant_ != kManual) return compare_with_reference(output, reference_, fp32_math_tolerance(dtype_));
    // The manual chain's error grows with |x| (gelu_reference.cpp): scale its extra term by |x|.
    std::vector<double> scale(inputs_.size());
    for (std::size_t i = 0; i < scale.size(); ++i) scale[i] = std::fabs(static_cast<double>(inputs_[i]));
    return compare_with_reference(output, reference_, gelu::manual_gelu_tolerance(dtype_), scale);
  }

 private:
  Form form_;
  DType dtype_;
  std::int64_t n_;
  DeviceBuffer x_, y_, t0_, t1_;
  std::vector<float> inputs_;  ///< the exact dtype values of x, for the manual chain's tolerance
  std::vector<double> reference_;
  int vectorized_grid_ = 1;
  std::size_t last_variant_ = kFused;
};

class GeluOp final : public Op {
 public:
  explicit GeluOp(Form form) : form_(form) {}

  std::string name() const override { return form_ == Form::tanh ? "gelu_tanh" : "gelu_erf"; }
  std::string family() const override { return "gelu"; }
  std::string summary() const override {
    return form_ == Form::tanh ? "GELU, tanh approximation 0.5x(1 + tanh(0.79788456(x + 0.044715x^3))), fp32 math"
                               : "GELU, exact form 0.5x(1 + erf(x / sqrt 2)), fp32 math";
  }

  std::vector<VariantInfo> variants() const override {
    const std::string steps = form_ == Form::tanh ? "x^3, *0.044715, +x, *0.79788456, tanh, +1, *x, *0.5"
                                                  : "*(1/sqrt 2), erf, +1, *x, *0.5";
    return {
        {"manual", VariantRole::own,
         "one kernel per step as a framework's naive code runs it (" + steps +
             "), intermediates in the dtype",
         gelu::manual_steps(form_)},
        {"fused", VariantRole::own, "the whole formula in registers, one element per thread, 256-thread blocks"},
        {"vectorized", VariantRole::own, "fused, grid-stride over 16-byte vectors, 4 in flight per thread, scalar tail"},
        {"blocked", VariantRole::own, "fused, 16-byte vectors, one tile of 256 x 4 per block, a grid covering the tensor"},
        {"cub_transform", VariantRole::baseline, "cub::DeviceTransform::Transform (CCCL) with the fused functor"},
    };
  }

  std::vector<DType> dtypes() const override { return all_dtypes(); }

  std::string reject_shape(const Shape& shape) const override { return shape.empty() ? "shape is empty" : ""; }

  Traffic traffic(const Problem& problem) const override {
    const double elements = static_cast<double>(element_count(problem.shape));
    const double bytes = elements * static_cast<double>(dtype_size(problem.dtype));
    // x read once, y written once. About 8 FLOPs per element: the tanh form's eight steps at one
    // each (tanh counted as one). The erf form is counted the same so that the two compare; both
    // are far below the machine balance by this count (NOTES.md: erfcf costs more instructions).
    return {bytes, bytes, 8 * elements, "fp32"};
  }

  /// x, y and the manual chain's two temporaries.
  double device_bytes(const Problem& problem) const override {
    return 4 * static_cast<double>(element_count(problem.shape)) * static_cast<double>(dtype_size(problem.dtype));
  }

  std::unique_ptr<Workload> prepare(const Problem& problem, std::uint64_t seed) const override {
    return std::make_unique<GeluWorkload>(form_, problem, seed);
  }

 private:
  Form form_;
};

}  // namespace

void register_gelu(Registry& registry) {
  registry.add(std::make_unique<GeluOp>(Form::tanh));
  registry.add(std::make_unique<GeluOp>(Form::erf));
}

}  // namespace kbench
