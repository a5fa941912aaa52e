// The reduction family: full, inner-axis and outer-axes sums, and the inner-axis max. One
// Workload serves all four; the Op classes differ in mode, variants and byte model.
#include "kernels/legacy_workload.hpp"
#include "kernels/sum/sum_ops.hpp"

#include "harness/device/cublas_handle.hpp"
#include "harness/device/cuda_resources.hpp"
#include "harness/device/device_setup.hpp"
#include "harness/ops/device_output.hpp"
#include "harness/ops/dtype_dispatch.hpp"
#include "harness/ops/host_tensor.hpp"
#include "kernels/sum/reduction_reference.hpp"
#include "kernels/sum/sum_kernels.hpp"

#include <library_types.h>

#include <numeric>

namespace kbench {

namespace {

using sum::Reduction;

enum class Mode { full, inner, outer, inner_max };

/// rows x cols view of a shape: rows = product of all but the last extent.
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

std::int64_t output_count(Mode mode, const Shape& shape) {
  const Matrix m = as_matrix(shape);
  switch (mode) {
    case Mode::full: return 1;
    case Mode::inner:
    case Mode::inner_max: return m.rows;
    case Mode::outer: return m.cols;
  }
  return 0;
}

cudaDataType_t cublas_type(DType dtype) {
  switch (dtype) {
    case DType::f16: return CUDA_R_16F;
    case DType::bf16: return CUDA_R_16BF;
    default: return CUDA_R_32F;
  }
}

class ReductionWorkload final : public LegacyWorkload {
 public:
  ReductionWorkload(Mode mode, const Problem& problem, std::uint64_t seed)
      : mode_(mode), dtype_(problem.dtype), n_(element_count(problem.shape)), matrix_(as_matrix(problem.shape)) {
    const std::size_t size = dtype_size(dtype_);
    const std::int64_t outputs = output_count(mode, problem.shape);
    in_ = DeviceBuffer(static_cast<std::size_t>(n_) * size);
    out_ = DeviceBuffer(static_cast<std::size_t>(outputs) * size);
    outputs_ = outputs;

    const HostTensor x = random_tensor(dtype_, static_cast<std::size_t>(n_), seed);
    upload(in_.get(), x.bytes.data(), x.bytes.size());
    switch (mode_) {
      case Mode::full: reference_ = sum::reference_full(x.values); break;
      case Mode::inner: reference_ = sum::reference_rows(x.values, matrix_.rows, matrix_.cols, Reduction::sum); break;
      case Mode::inner_max: reference_ = sum::reference_rows(x.values, matrix_.rows, matrix_.cols, Reduction::max); break;
      case Mode::outer: reference_ = sum::reference_columns(x.values, matrix_.rows, matrix_.cols); break;
    }
    prepare_scratch();
  }

  void launch(std::size_t variant, cudaStream_t stream) override {
    dispatch_dtype(dtype_, [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T* in = in_.as<T>();
      T* out = out_.as<T>();
      const Reduction reduction = mode_ == Mode::inner_max ? Reduction::max : Reduction::sum;
      switch (mode_) {
        case Mode::full:
          if (variant == 0) sum::launch_full_atomic(in, out, n_, scratch_.as<float>(), stream);
          else if (variant == 1) sum::launch_full_two_stage(in, out, n_, scratch_.as<float>(), blocks_, stream);
          else if (variant == 2)
            sum::launch_full_one_pass(in, out, n_, one_pass_partials_.as<float>(), tickets_.as<unsigned>(),
                                      one_pass_blocks_, cc_major_, stream);
          else if (variant == 3) sum::cub_full_sum(cub_temp_.get(), cub_temp_bytes_, in, out, n_, stream);
          else throw std::out_of_range("sum_full: no variant " + std::to_string(variant));
          break;
        case Mode::inner:
        case Mode::inner_max:
          if (variant == 0) sum::launch_rows_naive(in, out, matrix_.rows, matrix_.cols, reduction, stream);
          else if (variant == 1) sum::launch_rows_parallel(in, out, matrix_.rows, matrix_.cols, reduction, stream);
          else if (variant == 2)
            sum::cub_segmented(cub_temp_.get(), cub_temp_bytes_, in, out, matrix_.rows, offsets_.as<std::int64_t>(),
                               reduction, stream);
          else throw std::out_of_range("inner reduction: no variant " + std::to_string(variant));
          break;
        case Mode::outer:
          if (variant == 0) sum::launch_columns_naive(in, out, matrix_.rows, matrix_.cols, stream);
          else if (variant == 1)
            sum::launch_columns_two_stage(in, out, matrix_.rows, matrix_.cols, scratch_.as<float>(), blocks_, stream);
          else if (variant == 2)
            sum::launch_columns_one_pass(in, out, matrix_.rows, matrix_.cols, one_pass_partials_.as<float>(),
                                         tickets_.as<unsigned>(), one_pass_blocks_, cc_major_, stream);
          else if (variant == 3) cublas_column_sum(stream);
          else throw std::out_of_range("sum_outer: no variant " + std::to_string(variant));
          break;
      }
    });
  }

  void poison_outputs(cudaStream_t stream) override { poison_output(out_, stream); }

  Verification check_outputs(cudaStream_t stream) override {
    const Reduction reduction = mode_ == Mode::inner_max ? Reduction::max : Reduction::sum;
    return compare_with_reference(read_output(out_, dtype_, static_cast<std::size_t>(outputs_), stream),
                                  reference_.values, sum::reduction_tolerance(dtype_, reduction), reference_.scale);
  }

 private:
  /// Scratch, temporary storage and handles that the variants need, allocated once here so that
  /// no call allocates inside the timed window.
  void prepare_scratch() {
    const int sm_count = current_sm_count();
    cc_major_ = current_compute_capability().major;
    dispatch_dtype(dtype_, [&](auto tag) {
      using T = typename decltype(tag)::type;
      switch (mode_) {
        case Mode::full:
          blocks_ = sum::full_two_stage_blocks(n_, sm_count);
          scratch_ = DeviceBuffer(static_cast<std::size_t>(blocks_) * sizeof(float));
          one_pass_blocks_ = sum::full_one_pass_blocks<T>(n_, cc_major_);
          one_pass_partials_ = DeviceBuffer(static_cast<std::size_t>(one_pass_blocks_) * sizeof(float));
          tickets_ = zeroed_tickets(static_cast<std::size_t>(sum::full_one_pass_counters(one_pass_blocks_)));
          sum::cub_full_sum<T>(nullptr, cub_temp_bytes_, in_.as<T>(), out_.as<T>(), n_, nullptr);
          cub_temp_ = DeviceBuffer(cub_temp_bytes_);
          break;
        case Mode::inner:
        case Mode::inner_max: {
          std::vector<std::int64_t> offsets(static_cast<std::size_t>(matrix_.rows) + 1);
          for (std::size_t r = 0; r < offsets.size(); ++r) offsets[r] = static_cast<std::int64_t>(r) * matrix_.cols;
          offsets_ = DeviceBuffer(offsets.size() * sizeof(std::int64_t));
          upload(offsets_.get(), offsets.data(), offsets_.bytes());
          const Reduction reduction = mode_ == Mode::inner_max ? Reduction::max : Reduction::sum;
          sum::cub_segmented<T>(nullptr, cub_temp_bytes_, in_.as<T>(), out_.as<T>(), matrix_.rows,
                                offsets_.as<std::int64_t>(), reduction, nullptr);
          cub_temp_ = DeviceBuffer(cub_temp_bytes_);
          break;
        }
        case Mode::outer: {
          blocks_ = sum::column_chunks(matrix_.rows, matrix_.cols, sm_count, sizeof(T));
          scratch_ = DeviceBuffer(static_cast<std::size_t>(blocks_) * static_cast<std::size_t>(matrix_.cols) * sizeof(float));
          one_pass_blocks_ = sum::columns_one_pass_chunks(matrix_.rows, matrix_.cols, sm_count, sizeof(T), cc_major_);
          one_pass_partials_ = DeviceBuffer(static_cast<std::size_t>(one_pass_blocks_) *
                                            static_cast<std::size_t>(matrix_.cols) * sizeof(float));
          tickets_ = zeroed_tickets(static_cast<std::size_t>(sum::column_strips(in_.get(), matrix_.cols, sizeof(T))));
          const HostTensor ones = ones_tensor(dtype_, static_cast<std::size_t>(matrix_.rows));
          ones_ = DeviceBuffer(ones.bytes.size());
          upload(ones_.get(), ones.bytes.data(), ones.bytes.size());
          cublas_ = std::make_unique<CublasHandle>();
          break;
        }
      }
    });
  }

  /// The one-pass kernels' ticket counters: zero before the first call, left zero by each call.
  static DeviceBuffer zeroed_tickets(std::size_t count) {
    DeviceBuffer tickets(count * sizeof(unsigned));
    KBENCH_CUDA_CALL(cudaMemset(tickets.get(), 0, tickets.bytes()));
    KBENCH_CUDA_CALL(cudaDeviceSynchronize());  // cudaMemset may return first; the kernels' stream would not wait
    return tickets;
  }

  static HostTensor ones_tensor(DType dtype, std::size_t count) {
    HostTensor ones = random_tensor(dtype, count, 0, 1.0f, 1.0f);  // every value exactly 1
    return ones;
  }

  /// What a vendor user calls for a column sum: a matrix-vector product with a ones vector.
  /// Row-major rows x cols is column-major cols x rows (lda = cols), so y = A_cm * ones.
  void cublas_column_sum(cudaStream_t stream) {
    const float one = 1.0f, zero = 0.0f;
    const cudaDataType_t type = cublas_type(dtype_);
    KBENCH_CUBLAS_CALL(cublasGemmEx(cublas_->on(stream), CUBLAS_OP_N, CUBLAS_OP_N, static_cast<int>(matrix_.cols), 1,
                                    static_cast<int>(matrix_.rows), &one, in_.get(), type, static_cast<int>(matrix_.cols),
                                    ones_.get(), type, static_cast<int>(matrix_.rows), &zero, out_.get(), type,
                                    static_cast<int>(matrix_.cols), CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
  }

  Mode mode_;
  DType dtype_;
  std::int64_t n_;
  Matrix matrix_;
  std::int64_t outputs_ = 0;
  DeviceBuffer in_, out_, scratch_, offsets_, cub_temp_, ones_, one_pass_partials_, tickets_;
  std::size_t cub_temp_bytes_ = 0;
  int blocks_ = 1;           ///< two_stage's blocks (full) or row chunks (outer)
  int one_pass_blocks_ = 1;  ///< one_pass's blocks (full) or row chunks (outer)
  int cc_major_ = 0;         ///< the device's compute capability: 9+ takes one_pass's cluster path
  std::unique_ptr<CublasHandle> cublas_;
  sum::ReductionReference reference_;
};

class ReductionOp final : public Op {
 public:
  ReductionOp(Mode mode, std::string name, std::string summary, std::vector<VariantInfo> variants)
      : mode_(mode), name_(std::move(name)), summary_(std::move(summary)), variants_(std::move(variants)) {}

  std::string name() const override { return name_; }
  std::string family() const override { return "sum"; }
  std::string summary() const override { return summary_; }
  std::vector<VariantInfo> variants() const override { return variants_; }
  std::vector<DType> dtypes() const override { return all_dtypes(); }

  /// The elementwise classes, plus the seed report's backward-pass shape (4, 512, 896) in batch.
  std::vector<Shape> shapes_for(const SizeClass& size_class) const override {
    std::vector<Shape> shapes = size_class.shapes;
    if (size_class.name == "batch") shapes.insert(shapes.begin(), Shape{4, 512, 896});
    return shapes;
  }

  std::string reject_shape(const Shape& shape) const override {
    if (shape.empty()) return "shape is empty";
    if (mode_ == Mode::outer && shape.size() < 2) return "sum_outer reduces every axis but the last: give 2 or more axes";
    if (mode_ == Mode::outer && (as_matrix(shape).rows > 0x7FFFFFFF || shape.back() > 0x7FFFFFFF)) {
      return "the cuBLAS baseline takes int extents: rows and cols must be below 2^31";
    }
    return {};
  }

  Traffic traffic(const Problem& problem) const override {
    const double size = static_cast<double>(dtype_size(problem.dtype));
    const double n = static_cast<double>(element_count(problem.shape));
    const double outputs = static_cast<double>(output_count(mode_, problem.shape));
    // Input read once, output written once; one add (or max) per input element.
    return {n * size, outputs * size, n, "fp32"};
  }

  std::unique_ptr<Workload> prepare(const Problem& problem, std::uint64_t seed) const override {
    return std::make_unique<ReductionWorkload>(mode_, problem, seed);
  }

 private:
  Mode mode_;
  std::string name_, summary_;
  std::vector<VariantInfo> variants_;
};

}  // namespace

void register_sum(Registry& registry) {
  registry.add(std::make_unique<ReductionOp>(
      Mode::full, "sum_full", "sum of every element (axis=None), fp32 accumulation",
      std::vector<VariantInfo>{
          {"naive_atomic", VariantRole::own, "one fp32 atomicAdd per element, then a cast (memset, atomics, cast)", 3},
          {"two_stage", VariantRole::own, "grid-stride blocks with 16-byte loads into partials, then one block", 2},
          {"one_pass", VariantRole::own,
           "one kernel: a contiguous chunk per block, 4 16-byte loads in flight per thread, the last block to finish "
           "folds the partials; up to 512 KiB on Hopper, one 8-block cluster meeting in shared memory"},
          {"cub_reduce", VariantRole::baseline, "cub::DeviceReduce::TransformReduce, fp32 accumulation", 2},
      }));
  registry.add(std::make_unique<ReductionOp>(
      Mode::inner, "sum_inner", "sum over the last axis (axis=-1), fp32 accumulation",
      std::vector<VariantInfo>{
          {"naive", VariantRole::own, "one thread per row walking it (uncoalesced)"},
          {"row_parallel", VariantRole::own, "warp per row up to 1024 columns, block per row beyond; 16-byte loads"},
          {"cub_segmented", VariantRole::baseline, "cub::DeviceSegmentedReduce::Reduce over row offsets"},
      }));
  registry.add(std::make_unique<ReductionOp>(
      Mode::outer, "sum_outer", "sum over every axis but the last (axis=(0,1) of a 3-D tensor), fp32 accumulation",
      std::vector<VariantInfo>{
          {"naive", VariantRole::own, "one thread per column walking down it"},
          {"two_stage", VariantRole::own, "32x8 blocks over column strips and row chunks with 16-byte loads, then per column", 2},
          {"one_pass", VariantRole::own,
           "two_stage's blocks in one kernel, the last row-chunk block of each column strip adds the chunks' "
           "partials; up to 512 rows on Hopper, each strip's chunks one cluster meeting in shared memory"},
          {"cublas_gemv", VariantRole::baseline, "cublasGemmEx of the matrix with a ones vector (n = 1)"},
      }));
  registry.add(std::make_unique<ReductionOp>(
      Mode::inner_max, "max_inner", "maximum over the last axis (axis=-1)",
      std::vector<VariantInfo>{
          {"naive", VariantRole::own, "one thread per row walking it (uncoalesced)"},
          {"row_parallel", VariantRole::own, "warp per row up to 1024 columns, block per row beyond; 16-byte loads"},
          {"cub_segmented", VariantRole::baseline, "cub::DeviceSegmentedReduce::Reduce (max) over row offsets"},
      }));
}

}  // namespace kbench
