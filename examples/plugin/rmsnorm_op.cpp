// The rmsnorm op, declared as data: its tensors, a float64 reference, its tolerance and its
// minimum traffic. kbench allocates, fills, verifies and times it like its own ops.
#include "rmsnorm_args.hpp"
#include "variants.hpp"

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace example {

namespace {

constexpr double kEps = 1e-6;

/// Rows and cols of a shape: cols is the last extent, rows the product of the others.
std::int64_t cols_of(const kbench::Shape& shape) { return shape.back(); }
std::int64_t rows_of(const kbench::Shape& shape) {
  std::int64_t rows = 1;
  for (std::size_t i = 0; i + 1 < shape.size(); ++i) rows *= shape[i];
  return rows;
}

}  // namespace

kbench::OpDefinition<RmsNormArgs> rmsnorm_definition() {
  kbench::OpDefinition<RmsNormArgs> op;
  op.name = "rmsnorm";
  op.summary = "example plugin: y = x / sqrt(mean(x^2) + 1e-6) * weight over the last axis";
  op.traffic = [](const kbench::Problem& p) {
    const double elements = static_cast<double>(rows_of(p.shape) * cols_of(p.shape));
    const double bytes = static_cast<double>(kbench::element_size(p.dtype));
    // x read once, weight once, y written once; a multiply-add for the square and two multiplies per element.
    return kbench::Traffic{(elements + static_cast<double>(cols_of(p.shape))) * bytes, elements * bytes, 4 * elements};
  };
  op.inputs = [](const kbench::Problem& p) {
    return std::vector<kbench::InputSpec>{{"x", rows_of(p.shape) * cols_of(p.shape), -1.f, 1.f, {}},
                                          {"weight", cols_of(p.shape), 0.5f, 1.5f, {}}};
  };
  op.outputs = [](const kbench::Problem& p) {
    return std::vector<kbench::OutputSpec>{{"y", rows_of(p.shape) * cols_of(p.shape), {}}};
  };
  op.reference = [](const kbench::Problem& p, const std::vector<std::vector<float>>& in) {
    const std::int64_t rows = rows_of(p.shape), cols = cols_of(p.shape);
    kbench::OutputReference y;
    y.values.resize(static_cast<std::size_t>(rows * cols));
    for (std::int64_t r = 0; r < rows; ++r) {
      const float* x = in[0].data() + r * cols;
      double squares = 0;
      for (std::int64_t c = 0; c < cols; ++c) squares += double{x[c]} * double{x[c]};
      const double scale = 1.0 / std::sqrt(squares / static_cast<double>(cols) + kEps);
      for (std::int64_t c = 0; c < cols; ++c) y.values[r * cols + c] = double{x[c]} * scale * double{in[1][c]};
    }
    return std::vector<kbench::OutputReference>{std::move(y)};
  };
  // The fp32 sum of squares is well conditioned (no cancellation); the output's rounding dominates.
  op.tolerance = [](kbench::DType dtype) {
    switch (dtype) {
      case kbench::DType::f16: return kbench::Tolerance{1e-5, 4e-3};
      case kbench::DType::bf16: return kbench::Tolerance{1e-5, 3e-2};
      default: return kbench::Tolerance{1e-6, 2e-5};
    }
  };
  op.describe_position = [](const kbench::Problem& p, std::size_t, std::int64_t flat) {
    return "row " + std::to_string(flat / cols_of(p.shape)) + ", col " + std::to_string(flat % cols_of(p.shape));
  };
  op.make_args = [](const kbench::Problem& p, const kbench::Buffers& b) {
    RmsNormArgs args;
    args.dtype = p.dtype;
    args.rows = rows_of(p.shape);
    args.cols = cols_of(p.shape);
    args.eps = static_cast<float>(kEps);
    args.x = b.inputs[0];
    args.weight = b.inputs[1];
    args.y = b.outputs[0];
    args.device = b.device;
    return args;
  };
  op.variants = {rmsnorm_warp_row(), rmsnorm_block_row()};
  return op;
}

}  // namespace example
