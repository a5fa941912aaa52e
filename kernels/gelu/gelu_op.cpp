// The GELU family: gelu_tanh (the tanh approximation) and gelu_erf (the exact form), elementwise
// over a tensor of any shape (treated as flat). One definition per form; the variants are
// declared here, once each, beside the launchers they call (gelu_kernels.hpp), and take the form
// as their only parameter.
#include "kernels/gelu/gelu_op.hpp"

#include "harness/common/host_memory.hpp"
#include "harness/common/parallel_for.hpp"
#include "harness/device/cuda_resources.hpp"
#include "harness/ops/dtype_dispatch.hpp"
#include "harness/ops/problem.hpp"
#include "harness/ops/verification.hpp"
#include "kernels/gelu/gelu_kernels.hpp"
#include "kernels/gelu/gelu_reference.hpp"
#include "kernels/common/elementwise_auto.hpp"

#include "kbench/ops/gelu.hpp"

#include <cmath>
#include <cstdint>
#include <memory>

namespace kbench {

namespace {

using gelu::Form;

/// Inputs are drawn from [-5, 5): the curved part of GELU and the negative tail where
/// 0.5 x (1 + tanh(u)) cancels to about -2e-7 at x = -5.
constexpr float kInputLow = -5.0f;
constexpr float kInputHigh = 5.0f;

/// Calls `f(x, y)` with the args' pointers typed by their dtype.
template <typename F>
void with_typed(const GeluArgs& args, F&& f) {
  dispatch_dtype(args.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    f(static_cast<const T*>(args.x), static_cast<T*>(args.y));
  });
}

/// The manual chain's per-problem scratch: two n-element temporaries in the dtype.
struct Temporaries {
  explicit Temporaries(std::size_t bytes) : t0(bytes), t1(bytes) {}
  DeviceBuffer t0, t1;
};

Variant<GeluArgs> manual(Form form) {
  const std::string steps = form == Form::tanh ? "x^3, *0.044715, +x, *0.79788456, tanh, +1, *x, *0.5"
                                               : "*(1/sqrt 2), erf, +1, *x, *0.5";
  Variant<GeluArgs> v;
  v.name = "manual";
  v.description = "one kernel per step as a framework's naive code runs it (" + steps + "), intermediates in the dtype";
  v.kernels_per_call = gelu::manual_steps(form);
  // Every step rounds to the dtype: a wider bound, whose `scaled` term the reference's scale
  // (|x| per element) multiplies.
  v.tolerance = gelu::manual_gelu_tolerance;
  // The two ping-pong temporaries, allocated once per problem so that no call allocates; the
  // call owns them.
  v.prepare = [form](const GeluArgs& args) -> CallFn {
    return dispatch_dtype(args.dtype, [&](auto tag) -> CallFn {
      using T = typename decltype(tag)::type;
      const auto temporaries = std::make_shared<Temporaries>(static_cast<std::size_t>(args.n) * sizeof(T));
      return [form, x = static_cast<const T*>(args.x), y = static_cast<T*>(args.y), n = args.n,
              temporaries](cudaStream_t stream) {
        gelu::launch_manual(form, x, y, temporaries->t0.as<T>(), temporaries->t1.as<T>(), n, stream);
      };
    });
  };
  return v;
}

Variant<GeluArgs> fused(Form form) {
  Variant<GeluArgs> v;
  v.name = "fused";
  v.description = "the whole formula in registers, one element per thread, 256-thread blocks";
  v.launch = [form](const GeluArgs& args, cudaStream_t stream) {
    with_typed(args, [&](auto x, auto y) { gelu::launch_fused(form, x, y, args.n, stream); });
  };
  return v;
}

Variant<GeluArgs> vectorized(Form form) {
  Variant<GeluArgs> v;
  v.name = "vectorized";
  v.description = "fused, grid-stride over 16-byte vectors, 4 in flight per thread, scalar tail";
  // The grid depends on the problem and the device only: computed once, not per call.
  v.prepare = [form](const GeluArgs& args) -> CallFn {
    const int grid = dispatch_dtype(args.dtype, [&](auto tag) {
      return gelu::vectorized_grid<typename decltype(tag)::type>(form, args.n, args.device.sm_count);
    });
    return [form, args, grid](cudaStream_t stream) {
      with_typed(args, [&](auto x, auto y) { gelu::launch_vectorized(form, x, y, args.n, grid, stream); });
    };
  };
  return v;
}

Variant<GeluArgs> blocked(Form form) {
  Variant<GeluArgs> v;
  v.name = "blocked";
  v.description = "fused, 16-byte vectors, one tile of 256 x 4 per block, a grid covering the tensor";
  v.launch = [form](const GeluArgs& args, cudaStream_t stream) {
    with_typed(args, [&](auto x, auto y) { gelu::launch_blocked(form, x, y, args.n, stream); });
  };
  return v;
}

/// What a framework would ship: `blocked` where its grid has a block per two SMs and the pointers are
/// 16-byte aligned, else `fused` (kernels/common/elementwise_auto.hpp, NOTES.md). Chosen once per
/// problem, from the problem and the device only.
Variant<GeluArgs> auto_variant(Form form) {
  Variant<GeluArgs> v;
  v.name = "auto";
  v.description = "blocked where its grid has a block per two SMs and the pointers are 16-byte aligned, else fused";
  v.prepare = [form](const GeluArgs& args) -> CallFn {
    const bool aligned = (reinterpret_cast<std::uintptr_t>(args.x) | reinterpret_cast<std::uintptr_t>(args.y)) % 16 == 0;
    const bool blocked = elementwise::auto_takes_blocked(args.n, dtype_size(args.dtype), args.device.sm_count, aligned);
    return [form, args, blocked](cudaStream_t stream) {
      with_typed(args, [&](auto x, auto y) {
        if (blocked) {
          gelu::launch_blocked(form, x, y, args.n, stream);
        } else {
          gelu::launch_fused(form, x, y, args.n, stream);
        }
      });
    };
  };
  return v;
}

Variant<GeluArgs> cub_transform(Form form) {
  Variant<GeluArgs> v;
  v.name = "cub_transform";
  v.role = VariantRole::baseline;
  v.description = "cub::DeviceTransform::Transform (CCCL) with the fused functor";
  v.launch = [form](const GeluArgs& args, cudaStream_t stream) {
    with_typed(args, [&](auto x, auto y) { gelu::launch_cub_transform(form, x, y, args.n, stream); });
  };
  return v;
}

OpDefinition<GeluArgs> gelu_definition(Form form) {
  OpDefinition<GeluArgs> op;
  op.name = form == Form::tanh ? "gelu_tanh" : "gelu_erf";
  op.family = "gelu";
  op.summary = form == Form::tanh ? "GELU, tanh approximation 0.5x(1 + tanh(0.79788456(x + 0.044715x^3))), fp32 math"
                                  : "GELU, exact form 0.5x(1 + erf(x / sqrt 2)), fp32 math";
  op.traffic = [](const Problem& problem) {
    const double elements = static_cast<double>(element_count(problem.shape));
    const double bytes = elements * static_cast<double>(dtype_size(problem.dtype));
    // x read once, y written once. About 8 FLOPs per element: the tanh form's eight steps at one
    // each (tanh counted as one). The erf form is counted the same so that the two compare; both
    // are far below the machine balance by this count (NOTES.md: erfcf costs more instructions).
    return Traffic{bytes, bytes, 8 * elements, "fp32"};
  };
  // The manual chain's two temporaries.
  op.scratch_bytes = [](const Problem& problem) {
    return 2 * static_cast<double>(element_count(problem.shape)) * static_cast<double>(dtype_size(problem.dtype));
  };
  op.inputs = [](const Problem& problem) {
    return std::vector<InputSpec>{{"x", element_count(problem.shape), kInputLow, kInputHigh}};
  };
  op.outputs = [](const Problem& problem) { return std::vector<OutputSpec>{{"y", element_count(problem.shape)}}; };
  // In double from the exact dtype inputs. The scale, |x| per element, is what the manual chain's
  // error grows with (gelu_reference.cpp); every other variant is held to fp32_math_tolerance,
  // whose `scaled` is 0, so it leaves them alone.
  op.reference = [form](const Problem&, const std::vector<std::vector<float>>& in) {
    OutputReference y;
    y.values = gelu::reference_gelu(form, in[0]);
    resize_prefaulted(y.scale, in[0].size());
    parallel_for(static_cast<std::int64_t>(y.scale.size()), 1 << 16, [&](std::int64_t begin, std::int64_t end) {
      for (auto i = static_cast<std::size_t>(begin); i < static_cast<std::size_t>(end); ++i)
        y.scale[i] = std::fabs(static_cast<double>(in[0][i]));
    });
    return std::vector<OutputReference>{std::move(y)};
  };
  op.tolerance = fp32_math_tolerance;
  op.make_args = [](const Problem& problem, const Buffers& buffers) {
    return GeluArgs{problem.dtype, element_count(problem.shape), buffers.inputs[0], buffers.outputs[0], buffers.device};
  };
  op.variants = {manual(form), fused(form), vectorized(form), blocked(form), auto_variant(form), cub_transform(form)};
  return op;
}

}  // namespace

void register_gelu(Registrar& registrar) {
  registrar.add_op(gelu_definition(Form::tanh));
  registrar.add_op(gelu_definition(Form::erf));
}

}  // namespace kbench
