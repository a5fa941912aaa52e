#pragma once
/// An op: what a case computes, declared as data. kbench's own ops and plugins' ops are defined
/// the same way. Part of the public API.
///
/// The op states its tensors, its minimum traffic and a float64 reference; kbench does the rest
/// for every variant alike: allocates the tensors with guard bytes around each output, draws two
/// independent random input sets, poisons the outputs, launches, checks the guards, compares with
/// the reference (twice: an output that does not follow its input is wrong), then times.

#include "kbench/types.hpp"
#include "kbench/variant.hpp"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kbench {

/// One input tensor of a problem, filled with uniform random values in [low, high) that are
/// exact in its dtype.
struct InputSpec {
  std::string name;
  std::int64_t elements = 0;
  float low = -1.0f;
  float high = 1.0f;
  std::optional<DType> dtype;  ///< empty: the problem's storage dtype (fp32 for tf32)
};

/// One output tensor of a problem.
struct OutputSpec {
  std::string name;
  std::int64_t elements = 0;
  std::optional<DType> dtype;  ///< empty: the problem's storage dtype
};

/// The expected values of one output, in float64 from the exact input values.
struct OutputReference {
  std::vector<double> values;           ///< one per checked element
  std::vector<double> scale;            ///< empty, or one per checked element (Tolerance::scaled)
  std::vector<std::int64_t> positions;  ///< empty: every element in order; else the flat indices checked
};

/// Where a variant's tensors live for one problem.
struct Buffers {
  std::vector<const void*> inputs;  ///< in the order of OpDefinition::inputs
  std::vector<void*> outputs;       ///< in the order of OpDefinition::outputs
  Device device;
};

template <class Args>
struct OpDefinition {
  std::string name;     ///< unique; what --op selects: 1-64 ASCII letters, digits, _ - or .
  std::string family;   ///< another name --op accepts for a group of ops ("sum"), named as `name`; empty: none
  std::string summary;  ///< one line for `kbench list`
  std::vector<DType> dtypes = {DType::f32, DType::f16, DType::bf16};
  /// Empty when the op takes `shape`, else why not. Empty function: any non-empty shape.
  std::function<std::string(const Shape&)> reject_shape;
  /// The shapes of a size class; gets the class's name and its default (elementwise) shapes.
  /// Empty function: the default shapes.
  std::function<std::vector<Shape>(const std::string& size_class, const std::vector<Shape>& defaults)> shapes_for;
  std::function<Traffic(const Problem&)> traffic;  ///< the minimum bytes and FLOPs of one call
  /// Device bytes beyond the inputs and outputs that a call's variants may allocate (scratch),
  /// so that a case that cannot fit is skipped with the numbers; empty function: none.
  std::function<double(const Problem&)> scratch_bytes;
  std::function<std::vector<InputSpec>(const Problem&)> inputs;
  std::function<std::vector<OutputSpec>(const Problem&)> outputs;
  /// One reference per output, from the inputs' exact values (widened to float).
  std::function<std::vector<OutputReference>(const Problem&, const std::vector<std::vector<float>>& inputs)> reference;
  std::function<Tolerance(DType)> tolerance;  ///< the op's tolerance for a dtype
  /// "row 3, col 7" for a flat index of output `output`, in messages; empty function: "element N".
  std::function<std::string(const Problem&, std::size_t output, std::int64_t flat)> describe_position;
  /// The variants' view of the problem and its buffers.
  std::function<Args(const Problem&, const Buffers&)> make_args;
  std::vector<Variant<Args>> variants;
};

namespace detail {

/// An op definition with its Args erased, as it crosses from a plugin into kbench.
struct AnyOpDefinition {
  std::string name, family, summary, args_kind;
  std::vector<DType> dtypes;
  std::function<std::string(const Shape&)> reject_shape;
  std::function<std::vector<Shape>(const std::string&, const std::vector<Shape>&)> shapes_for;
  std::function<Traffic(const Problem&)> traffic;
  std::function<double(const Problem&)> scratch_bytes;
  std::function<std::vector<InputSpec>(const Problem&)> inputs;
  std::function<std::vector<OutputSpec>(const Problem&)> outputs;
  std::function<std::vector<OutputReference>(const Problem&, const std::vector<std::vector<float>>&)> reference;
  std::function<Tolerance(DType)> tolerance;
  std::function<std::string(const Problem&, std::size_t, std::int64_t)> describe_position;
  std::function<std::shared_ptr<const void>(const Problem&, const Buffers&)> make_args;
  std::vector<AnyVariant> variants;
};

template <class Args>
AnyOpDefinition erase(OpDefinition<Args> op) {
  AnyOpDefinition any;
  any.name = std::move(op.name);
  any.family = std::move(op.family);
  any.summary = std::move(op.summary);
  any.args_kind = Args::kind;
  any.dtypes = std::move(op.dtypes);
  any.reject_shape = std::move(op.reject_shape);
  any.shapes_for = std::move(op.shapes_for);
  any.traffic = std::move(op.traffic);
  any.scratch_bytes = std::move(op.scratch_bytes);
  any.inputs = std::move(op.inputs);
  any.outputs = std::move(op.outputs);
  any.reference = std::move(op.reference);
  any.tolerance = std::move(op.tolerance);
  any.describe_position = std::move(op.describe_position);
  any.make_args = [f = std::move(op.make_args)](const Problem& problem, const Buffers& buffers) {
    return std::shared_ptr<const void>(std::make_shared<const Args>(f(problem, buffers)));
  };
  for (Variant<Args>& v : op.variants) any.variants.push_back(erase(std::move(v)));
  return any;
}

}  // namespace detail

}  // namespace kbench
