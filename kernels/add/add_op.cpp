// The elementwise add op: c = a + b over a tensor of any shape (treated as flat). Its variants
// are declared here, once each, beside the launchers they call (add_kernels.hpp).
#include "kernels/add/add_op.hpp"

#include "harness/common/host_memory.hpp"
#include "harness/common/parallel_for.hpp"
#include "harness/ops/dtype_dispatch.hpp"
#include "harness/ops/problem.hpp"
#include "harness/ops/verification.hpp"
#include "kernels/add/add_kernels.hpp"
#include "kernels/common/elementwise_auto.hpp"

#include "kbench/ops/add.hpp"

#include <cstdint>

namespace kbench {

namespace {

/// Calls `f(a, b, c)` with the args' pointers typed by their dtype.
template <typename F>
void with_typed(const AddArgs& args, F&& f) {
  dispatch_dtype(args.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    f(static_cast<const T*>(args.a), static_cast<const T*>(args.b), static_cast<T*>(args.c));
  });
}

Variant<AddArgs> naive() {
  Variant<AddArgs> v;
  v.name = "naive";
  v.description = "one element per thread, 256-thread blocks";
  v.launch = [](const AddArgs& args, cudaStream_t stream) {
    with_typed(args, [&](auto a, auto b, auto c) { add::launch_naive(a, b, c, args.n, stream); });
  };
  return v;
}

Variant<AddArgs> vectorized() {
  Variant<AddArgs> v;
  v.name = "vectorized";
  v.description = "grid-stride over 16-byte vectors, 4 in flight per input, scalar tail";
  // The grid depends on the problem and the device only: computed once, not per call.
  v.prepare = [](const AddArgs& args) -> CallFn {
    const int grid = dispatch_dtype(args.dtype, [&](auto tag) {
      return add::vectorized_grid<typename decltype(tag)::type>(args.n, args.device.sm_count);
    });
    return [args, grid](cudaStream_t stream) {
      with_typed(args, [&](auto a, auto b, auto c) { add::launch_vectorized(a, b, c, args.n, grid, stream); });
    };
  };
  return v;
}

Variant<AddArgs> blocked() {
  Variant<AddArgs> v;
  v.name = "blocked";
  v.description = "16-byte vectors, one tile of 256 x 4 per block, a grid covering the tensor";
  v.launch = [](const AddArgs& args, cudaStream_t stream) {
    with_typed(args, [&](auto a, auto b, auto c) { add::launch_blocked(a, b, c, args.n, stream); });
  };
  return v;
}

/// What a framework would ship: `blocked` where its grid has a block per two SMs and the pointers are
/// 16-byte aligned, else `naive` (kernels/common/elementwise_auto.hpp, NOTES.md). Chosen once per
/// problem, from the problem and the device only.
Variant<AddArgs> auto_variant() {
  Variant<AddArgs> v;
  v.name = "auto";
  v.description = "blocked where its grid has a block per two SMs and the pointers are 16-byte aligned, else naive";
  v.prepare = [](const AddArgs& args) -> CallFn {
    const bool aligned = (reinterpret_cast<std::uintptr_t>(args.a) | reinterpret_cast<std::uintptr_t>(args.b) |
                          reinterpret_cast<std::uintptr_t>(args.c)) % 16 == 0;
    const bool blocked = elementwise::auto_takes_blocked(args.n, dtype_size(args.dtype), args.device.sm_count, aligned);
    return [args, blocked](cudaStream_t stream) {
      with_typed(args, [&](auto a, auto b, auto c) {
        if (blocked) {
          add::launch_blocked(a, b, c, args.n, stream);
        } else {
          add::launch_naive(a, b, c, args.n, stream);
        }
      });
    };
  };
  return v;
}

Variant<AddArgs> cub_transform() {
  Variant<AddArgs> v;
  v.name = "cub_transform";
  v.role = VariantRole::baseline;
  v.description = "cub::DeviceTransform::Transform (CCCL)";
  v.launch = [](const AddArgs& args, cudaStream_t stream) {
    with_typed(args, [&](auto a, auto b, auto c) { add::launch_cub_transform(a, b, c, args.n, stream); });
  };
  return v;
}

OpDefinition<AddArgs> add_definition() {
  OpDefinition<AddArgs> op;
  op.name = "add";
  op.summary = "elementwise c = a + b (any shape, treated as flat)";
  op.traffic = [](const Problem& problem) {
    const double elements = static_cast<double>(element_count(problem.shape));
    const double bytes = elements * static_cast<double>(dtype_size(problem.dtype));
    return Traffic{2 * bytes, bytes, elements};
  };
  op.inputs = [](const Problem& problem) {
    const std::int64_t n = element_count(problem.shape);
    return std::vector<InputSpec>{{"a", n}, {"b", n}};
  };
  op.outputs = [](const Problem& problem) { return std::vector<OutputSpec>{{"c", element_count(problem.shape)}}; };
  // In double from the exact dtype inputs.
  op.reference = [](const Problem&, const std::vector<std::vector<float>>& in) {
    OutputReference c;
    resize_prefaulted(c.values, in[0].size());
    parallel_for(static_cast<std::int64_t>(c.values.size()), 1 << 16, [&](std::int64_t begin, std::int64_t end) {
      for (auto i = static_cast<std::size_t>(begin); i < static_cast<std::size_t>(end); ++i)
        c.values[i] = double{in[0][i]} + double{in[1][i]};
    });
    return std::vector<OutputReference>{std::move(c)};
  };
  op.tolerance = elementwise_tolerance;
  op.make_args = [](const Problem& problem, const Buffers& buffers) {
    return AddArgs{problem.dtype, element_count(problem.shape), buffers.inputs[0], buffers.inputs[1],
                   buffers.outputs[0], buffers.device};
  };
  op.variants = {naive(), vectorized(), blocked(), auto_variant(), cub_transform()};
  return op;
}

}  // namespace

void register_add(Registrar& registrar) { registrar.add_op(add_definition()); }

}  // namespace kbench
