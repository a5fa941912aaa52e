// The reduction family "sum": full, inner-axis and outer-axes sums and the inner-axis max,
// declared as op definitions over a rows x cols view (kbench/ops/reduction.hpp). Their variants
// are declared beside their launchers (sum_variants.hpp).
#include "kernels/sum/sum_ops.hpp"

#include "harness/ops/problem.hpp"
#include "kernels/sum/reduction_reference.hpp"
#include "kernels/sum/sum_variants.hpp"

#include "kbench/ops/reduction.hpp"

#include <string>
#include <utility>
#include <vector>

namespace kbench {

namespace {

using sum::Reduction;

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

OutputReference as_output(sum::ReductionReference reference) {
  OutputReference out;
  out.values = std::move(reference.values);
  out.scale = std::move(reference.scale);
  return out;
}

/// What the four ops share: the family, dtypes, size classes, one input x and one output y of
/// `outputs(matrix)` elements, the byte model, the tolerance of `reduction` and the args.
OpDefinition<ReductionArgs> reduction_op(std::string name, std::string summary, Reduction reduction,
                                         std::int64_t (*outputs)(const Matrix&)) {
  OpDefinition<ReductionArgs> op;
  op.name = std::move(name);
  op.family = "sum";
  op.summary = std::move(summary);
  op.dtypes = all_dtypes();
  // The elementwise classes, plus the seed report's backward-pass shape (4, 512, 896) in batch.
  op.shapes_for = [](const std::string& size_class, const std::vector<Shape>& defaults) {
    std::vector<Shape> shapes = defaults;
    if (size_class == "batch") shapes.insert(shapes.begin(), Shape{4, 512, 896});
    return shapes;
  };
  op.traffic = [outputs](const Problem& problem) {
    const double size = static_cast<double>(dtype_size(problem.dtype));
    const double n = static_cast<double>(element_count(problem.shape));
    const double written = static_cast<double>(outputs(as_matrix(problem.shape)));
    // Input read once, output written once; one add (or max) per input element.
    return Traffic{n * size, written * size, n, "fp32"};
  };
  op.inputs = [](const Problem& problem) { return std::vector<InputSpec>{{"x", element_count(problem.shape)}}; };
  op.outputs = [outputs](const Problem& problem) {
    return std::vector<OutputSpec>{{"y", outputs(as_matrix(problem.shape))}};
  };
  op.tolerance = [reduction](DType dtype) { return sum::reduction_tolerance(dtype, reduction); };
  op.make_args = [](const Problem& problem, const Buffers& buffers) {
    const Matrix m = as_matrix(problem.shape);
    return ReductionArgs{problem.dtype, m.rows, m.cols, buffers.inputs[0], buffers.outputs[0], buffers.device};
  };
  return op;
}

std::int64_t one_output(const Matrix&) { return 1; }
std::int64_t row_outputs(const Matrix& m) { return m.rows; }
std::int64_t column_outputs(const Matrix& m) { return m.cols; }

OpDefinition<ReductionArgs> sum_full() {
  OpDefinition<ReductionArgs> op =
      reduction_op("sum_full", "sum of every element (axis=None), fp32 accumulation", Reduction::sum, one_output);
  op.scratch_bytes = [](const Problem& problem) {
    return sum::full_scratch_bytes(element_count(problem.shape), problem.dtype);
  };
  op.reference = [](const Problem&, const std::vector<std::vector<float>>& in) {
    return std::vector<OutputReference>{as_output(sum::reference_full(in[0]))};
  };
  op.variants = sum::full_variants();
  return op;
}

/// sum_inner or max_inner: each row into one value.
OpDefinition<ReductionArgs> inner(std::string name, std::string summary, Reduction reduction) {
  OpDefinition<ReductionArgs> op = reduction_op(std::move(name), std::move(summary), reduction, row_outputs);
  op.scratch_bytes = [](const Problem& problem) {
    const Matrix m = as_matrix(problem.shape);
    return sum::row_scratch_bytes(m.rows, m.cols, problem.dtype);
  };
  op.reference = [reduction](const Problem& problem, const std::vector<std::vector<float>>& in) {
    const Matrix m = as_matrix(problem.shape);
    return std::vector<OutputReference>{as_output(sum::reference_rows(in[0], m.rows, m.cols, reduction))};
  };
  op.describe_position = [](const Problem&, std::size_t, std::int64_t flat) { return "row " + std::to_string(flat); };
  op.variants = sum::row_variants(reduction);
  return op;
}

OpDefinition<ReductionArgs> sum_outer() {
  OpDefinition<ReductionArgs> op =
      reduction_op("sum_outer", "sum over every axis but the last (axis=(0,1) of a 3-D tensor), fp32 accumulation",
                   Reduction::sum, column_outputs);
  op.reject_shape = [](const Shape& shape) -> std::string {
    if (shape.size() < 2) return "sum_outer reduces every axis but the last: give 2 or more axes";
    if (as_matrix(shape).rows > 0x7FFFFFFF || shape.back() > 0x7FFFFFFF) {
      return "the cuBLAS baseline takes int extents: rows and cols must be below 2^31";
    }
    return {};
  };
  op.scratch_bytes = [](const Problem& problem) {
    const Matrix m = as_matrix(problem.shape);
    return sum::column_scratch_bytes(m.rows, m.cols, problem.dtype);
  };
  op.reference = [](const Problem& problem, const std::vector<std::vector<float>>& in) {
    const Matrix m = as_matrix(problem.shape);
    return std::vector<OutputReference>{as_output(sum::reference_columns(in[0], m.rows, m.cols))};
  };
  op.describe_position = [](const Problem&, std::size_t, std::int64_t flat) { return "column " + std::to_string(flat); };
  op.variants = sum::column_variants();
  return op;
}

}  // namespace

void register_sum(Registrar& registrar) {
  registrar.add_op(sum_full());
  registrar.add_op(inner("sum_inner", "sum over the last axis (axis=-1), fp32 accumulation", Reduction::sum));
  registrar.add_op(sum_outer());
  registrar.add_op(inner("max_inner", "maximum over the last axis (axis=-1)", Reduction::max));
}

}  // namespace kbench
