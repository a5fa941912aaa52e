// The softmax op: y = softmax(x) over the last dimension of a tensor of any rank >= 1, seen as a
// rows x cols matrix (rows = product of all but the last extent, cols = the last extent).
#include "kernels/legacy_workload.hpp"
#include "kernels/softmax/softmax_op.hpp"

#include "harness/device/cuda_resources.hpp"
#include "harness/ops/device_output.hpp"
#include "harness/ops/dtype_dispatch.hpp"
#include "harness/ops/host_tensor.hpp"
#include "kernels/softmax/softmax_kernels.hpp"
#include "kernels/softmax/softmax_reference.hpp"

#if KBENCH_HAVE_CUDNN
#include "kernels/softmax/softmax_cudnn.hpp"
#endif

#include <stdexcept>

namespace kbench {

namespace {

enum SoftmaxVariant : std::size_t { kManual, kFused, kOnline, kRegisterRow, kBaseline };

struct Matrix {
  std::int64_t rows = 1;
  std::int64_t cols = 1;
};

Matrix as_matrix(const Shape& shape) {
  Matrix m;
  m.cols = shape.back();
  m.rows = element_count(shape) / m.cols;
  return m;
}

/// Inputs are drawn from [-4, 4): rows whose largest terms are e^8 ~ 3000 times their smallest,
/// so the maximum, the sum and the normalisation all matter, with nothing near overflow.
constexpr float kInputLow = -4.0f;
constexpr float kInputHigh = 4.0f;

class SoftmaxWorkload final : public LegacyWorkload {
 public:
  SoftmaxWorkload(const Problem& problem, std::uint64_t seed)
      : dtype_(problem.dtype), matrix_(as_matrix(problem.shape)), n_(element_count(problem.shape)) {
    const std::size_t bytes = static_cast<std::size_t>(n_) * dtype_size(dtype_);
    const std::size_t row_bytes = static_cast<std::size_t>(matrix_.rows) * sizeof(float);
    x_ = DeviceBuffer(bytes);
    y_ = DeviceBuffer(bytes);
    // The manual chain's intermediates, allocated here so that no call allocates.
    shifted_ = DeviceBuffer(bytes);
    exponentials_ = DeviceBuffer(bytes);
    row_max_ = DeviceBuffer(row_bytes);
    row_sum_ = DeviceBuffer(row_bytes);

    const HostTensor x = random_tensor(dtype_, static_cast<std::size_t>(n_), seed, kInputLow, kInputHigh);
    upload(x_.get(), x.bytes.data(), bytes);
    reference_ = softmax::reference_softmax(x.values, matrix_.rows, matrix_.cols);
#if KBENCH_HAVE_CUDNN
    cudnn_unsupported_ = softmax::CudnnSoftmax::unsupported_reason(matrix_.rows, matrix_.cols);
    if (cudnn_unsupported_.empty()) cudnn_ = std::make_unique<softmax::CudnnSoftmax>(dtype_, matrix_.rows, matrix_.cols);
#endif
  }

  void launch(std::size_t variant, cudaStream_t stream) override {
    dispatch_dtype(dtype_, [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T* x = x_.as<T>();
      T* y = y_.as<T>();
      switch (variant) {
        case kManual: {
          const softmax::ManualScratch<T> scratch{shifted_.as<T>(), exponentials_.as<T>(), row_max_.as<float>(),
                                                  row_sum_.as<float>()};
          softmax::launch_manual(x, y, scratch, matrix_.rows, matrix_.cols, stream);
          break;
        }
        case kFused: softmax::launch_fused(x, y, matrix_.rows, matrix_.cols, stream); break;
        case kOnline: softmax::launch_online(x, y, matrix_.rows, matrix_.cols, stream); break;
        case kRegisterRow: softmax::launch_register_row(x, y, matrix_.rows, matrix_.cols, stream); break;
        case kBaseline:
#if KBENCH_HAVE_CUDNN
          if (!cudnn_) throw std::invalid_argument(cudnn_unsupported_);
          cudnn_->launch(x, y, stream);
#else
          softmax::launch_fused(x, y, matrix_.rows, matrix_.cols, stream);
#endif
          break;
        default: throw std::out_of_range("softmax: no variant " + std::to_string(variant));
      }
    });
    // check_outputs holds the manual chain to its own tolerance; the harness and the tests
    // always check right after the launch they verify.
    last_variant_ = variant;
  }

  void poison_outputs(cudaStream_t stream) override { poison_output(y_, stream); }

  Verification check_outputs(cudaStream_t stream) override {
    const Tolerance tolerance =
        last_variant_ == kManual ? softmax::manual_softmax_tolerance(dtype_) : fp32_math_tolerance(dtype_);
    return compare_with_reference(read_output(y_, dtype_, reference_.size(), stream), reference_, tolerance);
  }

 private:
  DType dtype_;
  Matrix matrix_;
  std::int64_t n_;
  DeviceBuffer x_, y_, shifted_, exponentials_, row_max_, row_sum_;
  std::vector<double> reference_;
  std::size_t last_variant_ = kFused;
#if KBENCH_HAVE_CUDNN
  std::unique_ptr<softmax::CudnnSoftmax> cudnn_;
  std::string cudnn_unsupported_;
#endif
};

class SoftmaxOp final : public Op {
 public:
  std::string name() const override { return "softmax"; }
  std::string summary() const override {
    return "softmax over the last dimension (rows = all leading extents, cols = the last), fp32 math";
  }

  /// Square matrices for the size classes, and two batch shapes: many short rows, few long rows.
  std::vector<Shape> shapes_for(const SizeClass& size_class) const override {
    if (size_class.name == "small") return {{256, 256}, {512, 512}};
    if (size_class.name == "medium") return {{2048, 2048}};
    if (size_class.name == "large") return {{4096, 4096}};
    if (size_class.name == "xlarge") return {{8192, 8192}};
    if (size_class.name == "batch") return {{32768, 512}, {1024, 32768}};
    return size_class.shapes;
  }

  std::vector<VariantInfo> variants() const override {
    return {
        {"manual", VariantRole::own,
         "5 kernels as a framework's naive code runs them: row max, x - max, exp, row sum, divide; "
         "intermediates stored in the dtype (reads 5MN + 2M, writes 3MN + 2M elements)",
         5},
        {"fused", VariantRole::own,
         "one block per row, three passes over the row (max, sum of exp, write), warp-shuffle block reductions"},
        {"online", VariantRole::own,
         "one-pass online max and rescaled sum, then a write pass; a warp per row up to 1024 elements, a block per "
         "row beyond; 16-byte vectors when rows are aligned"},
        {"register_row", VariantRole::own,
         "one block per row holding the row in registers (16-byte vectors, 4 or 8 per thread): one read, one write; "
         "rows that are not whole vectors or longer than 32768 elements run the online kernel"},
#if KBENCH_HAVE_CUDNN
        {"cudnn", VariantRole::baseline,
         "cudnnSoftmaxForward (ACCURATE, MODE_INSTANCE) on an NCHW rows x cols x 1 x 1 tensor, " +
             softmax::cudnn_version_text()},
#else
        {"fused_reference", VariantRole::baseline,
         "cuDNN was not found at configure time: the fused kernel stands in as the baseline"},
#endif
    };
  }

  std::vector<DType> dtypes() const override { return all_dtypes(); }

  std::string reject_shape(const Shape& shape) const override { return shape.empty() ? "shape is empty" : ""; }

  Traffic traffic(const Problem& problem) const override {
    const double elements = static_cast<double>(element_count(problem.shape));
    const double bytes = elements * static_cast<double>(dtype_size(problem.dtype));
    // The minimum: x read once, y written once. About 4 FLOPs per element (a max, a subtract, an
    // exponential, an add to the sum; the normalising multiply is not counted), in fp32.
    return {bytes, bytes, 4 * elements, "fp32"};
  }

  /// x, y and the manual chain's two intermediates, plus its per-row max and sum.
  double device_bytes(const Problem& problem) const override {
    const double tensor =
        static_cast<double>(element_count(problem.shape)) * static_cast<double>(dtype_size(problem.dtype));
    return 4 * tensor + 2 * static_cast<double>(as_matrix(problem.shape).rows) * sizeof(float);
  }

  std::unique_ptr<Workload> prepare(const Problem& problem, std::uint64_t seed) const override {
    return std::make_unique<SoftmaxWorkload>(problem, seed);
  }
};

}  // namespace

void register_softmax(Registry& registry) { registry.add(std::make_unique<SoftmaxOp>()); }

}  // namespace kbench
