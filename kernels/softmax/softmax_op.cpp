// The softmax op: y = softmax(x) over the last dimension of a tensor of any rank >= 1, seen as a
// rows x cols matrix (rows = product of all but the last extent, cols = the last extent). Its
// variants are declared here, once each, beside the launchers they call (softmax_kernels.hpp).
#include "kernels/softmax/softmax_op.hpp"

#include "harness/device/cuda_check.hpp"
#include "harness/device/cuda_resources.hpp"
#include "harness/ops/dtype_dispatch.hpp"
#include "harness/ops/problem.hpp"
#include "harness/ops/verification.hpp"
#include "kernels/softmax/softmax_auto.hpp"
#include "kernels/softmax/softmax_kernels.hpp"
#include "kernels/softmax/softmax_reference.hpp"
#include "kernels/softmax/softmax_ring_rows.hpp"
#include "kernels/softmax/softmax_thread_rows.hpp"

#include "kbench/ops/softmax.hpp"

#if KBENCH_HAVE_CUDNN
#include "kernels/softmax/softmax_cudnn.hpp"
#endif

#include <cstdint>
#include <memory>
#include <string>

namespace kbench {

namespace {

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

/// grid_row's scratch for a grid of up to 8192 resident blocks (grid_row_scratch_bytes), for
/// the memory check; the scratch itself is sized from the problem's plan.
constexpr double kGridScratchMost = 8192 * (2 * 8 + 8);

/// Inputs are drawn from [-4, 4): rows whose largest terms are e^8 ~ 3000 times their smallest,
/// so the maximum, the sum and the normalisation all matter, with nothing near overflow.
constexpr float kInputLow = -4.0f;
constexpr float kInputHigh = 4.0f;

/// Calls `f(x, y)` with the args' pointers typed by their dtype.
template <typename F>
void with_typed(const SoftmaxArgs& args, F&& f) {
  dispatch_dtype(args.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    f(static_cast<const T*>(args.x), static_cast<T*>(args.y));
  });
}

/// The manual chain's per-problem scratch: two rows x cols intermediates in the dtype, and the
/// per-row max and sum in fp32.
/// One of the stateless row kernels, `softmax::launch_*(x, y, rows, cols, stream)`, called on a
/// problem's typed pointers: what most variants launch, and what `auto` picks among.
template <typename LaunchRows>
struct RowKernel {
  LaunchRows launch_rows;
  void operator()(const SoftmaxArgs& args, cudaStream_t stream) const {
    with_typed(args, [&](auto x, auto y) { launch_rows(x, y, args.rows, args.cols, stream); });
  }
  /// The call on one problem.
  CallFn bound(const SoftmaxArgs& args) const {
    return [args, kernel = *this](cudaStream_t stream) { kernel(args, stream); };
  }
};
template <typename LaunchRows>
RowKernel(LaunchRows) -> RowKernel<LaunchRows>;

const RowKernel fused_kernel{[](auto... a) { softmax::launch_fused(a...); }};
const RowKernel online_kernel{[](auto... a) { softmax::launch_online(a...); }};
const RowKernel register_row_kernel{[](auto... a) { softmax::launch_register_row(a...); }};
const RowKernel packed_rows_kernel{[](auto... a) { softmax::launch_packed_rows(a...); }};
const RowKernel short_rows_kernel{[](auto... a) { softmax::launch_short_rows(a...); }};
const RowKernel warp_rows_kernel{[](auto... a) { softmax::launch_warp_rows(a...); }};
const RowKernel grain_rows_kernel{[](auto... a) { softmax::launch_grain_rows(a...); }};
const RowKernel body_rows_kernel{[](auto... a) { softmax::launch_body_rows(a...); }};
const RowKernel vector_rows_kernel{[](auto... a) { softmax::launch_vector_rows(a...); }};

struct ManualBuffers {
  explicit ManualBuffers(const SoftmaxArgs& args)
      : shifted(static_cast<std::size_t>(args.rows * args.cols) * dtype_size(args.dtype)),
        exponentials(shifted.bytes()),
        row_max(static_cast<std::size_t>(args.rows) * sizeof(float)),
        row_sum(row_max.bytes()) {}
  DeviceBuffer shifted, exponentials, row_max, row_sum;
};

Variant<SoftmaxArgs> manual() {
  Variant<SoftmaxArgs> v;
  v.name = "manual";
  v.description =
      "5 kernels as a framework's naive code runs them: row max, x - max, exp, row sum, divide; "
      "intermediates stored in the dtype (reads 5MN + 2M, writes 3MN + 2M elements)";
  v.kernels_per_call = 5;
  v.tolerance = softmax::manual_softmax_tolerance;
  // The intermediates, allocated once per problem so that no call allocates; the call owns them.
  v.prepare = [](const SoftmaxArgs& args) -> CallFn {
    const auto buffers = std::make_shared<ManualBuffers>(args);
    return dispatch_dtype(args.dtype, [&](auto tag) -> CallFn {
      using T = typename decltype(tag)::type;
      const softmax::ManualScratch<T> scratch{buffers->shifted.as<T>(), buffers->exponentials.as<T>(),
                                              buffers->row_max.as<float>(), buffers->row_sum.as<float>()};
      return [buffers, scratch, x = static_cast<const T*>(args.x), y = static_cast<T*>(args.y), rows = args.rows,
              cols = args.cols](cudaStream_t stream) { softmax::launch_manual(x, y, scratch, rows, cols, stream); };
    });
  };
  return v;
}

Variant<SoftmaxArgs> fused() {
  Variant<SoftmaxArgs> v;
  v.name = "fused";
  v.description = "one block per row, three passes over the row (max, sum of exp, write), warp-shuffle block reductions";
  v.launch = fused_kernel;
  return v;
}

Variant<SoftmaxArgs> online() {
  Variant<SoftmaxArgs> v;
  v.name = "online";
  v.description =
      "one-pass online max and rescaled sum, then a write pass; a warp per row up to 1024 elements, a block per "
      "row beyond; 16-byte vectors when rows are aligned";
  v.launch = online_kernel;
  return v;
}

Variant<SoftmaxArgs> register_row() {
  Variant<SoftmaxArgs> v;
  v.name = "register_row";
  v.description =
      "one block per row holding the row in registers (its aligned body as 16-byte vectors, 4 or 8 per thread; the "
      "head and tail of rows that are not whole vectors one element per thread): one read, one write; unaligned "
      "tensors and rows longer than 32768 elements run the online kernel";
  v.launch = register_row_kernel;
  return v;
}

Variant<SoftmaxArgs> packed_rows() {
  Variant<SoftmaxArgs> v;
  v.name = "packed_rows";
  v.description =
      "tiles of whole rows (16 KiB) in shared memory with 16-byte loads and stores, a group of lanes per row; rows "
      "longer than 1024 elements run the online kernel";
  v.launch = packed_rows_kernel;
  return v;
}

Variant<SoftmaxArgs> short_rows() {
  Variant<SoftmaxArgs> v;
  v.name = "short_rows";
  v.description =
      "rows up to 1024 elements held in registers by a group of 1-32 lanes: 16-byte loads straight from memory "
      "where rows are whole vectors, a tile of whole rows staged in shared memory otherwise; longer rows run the "
      "online kernel";
  v.launch = short_rows_kernel;
  return v;
}

Variant<SoftmaxArgs> warp_rows() {
  Variant<SoftmaxArgs> v;
  v.name = "warp_rows";
  v.description =
      "rows up to 256 elements of any width, no shared memory: a group of 1-32 lanes per row loads its 4-byte words "
      "(fp32 elements or 16-bit pairs) straight from memory, 8 words per lane in flight before the first shuffle "
      "reduction; other rows, or pointers not 4-byte aligned, run short_rows";
  v.launch = warp_rows_kernel;
  return v;
}

Variant<SoftmaxArgs> grain_rows() {
  Variant<SoftmaxArgs> v;
  v.name = "grain_rows";
  v.description =
      "rows up to 256 elements of any width, no shared memory: a group of 1-32 lanes per row loads its grains (the "
      "widest load, 2-16 bytes, that divides the row: single elements for odd widths) straight from memory, 32 bytes "
      "per lane in flight before the first shuffle reduction; longer rows run short_rows";
  v.launch = grain_rows_kernel;
  return v;
}

Variant<SoftmaxArgs> body_rows() {
  Variant<SoftmaxArgs> v;
  v.name = "body_rows";
  v.description = "rows of any width in aligned tensors (16-bit 16-2048 elements, fp32 8-1024), no shared memory: a group "
                  "of 4-32 lanes per row loads the row's aligned body as 16-byte vectors (1-8 per lane) and its head and tail "
                  "elements singly, at least 32 bytes of vectors per lane in flight before the first shuffle reduction; "
                  "other rows run grain_rows";
  v.launch = body_rows_kernel;
  return v;
}

Variant<SoftmaxArgs> vector_rows() {
  Variant<SoftmaxArgs> v;
  v.name = "vector_rows";
  v.description =
      "rows under 32 bytes that are not whole 16-byte vectors (16-bit 1-15 columns, fp32 1-7), aligned tensors: "
      "a lane owns R = 16 / gcd(row bytes, 16) whole rows as V 16-byte vectors, computed in registers with no "
      "shuffle; each warp's tile goes through its own slice of shared memory with coalesced 16-byte loads and "
      "stores, no block barrier; other rows run grain_rows (16-bit) or short_rows (fp32)";
  v.launch = vector_rows_kernel;
  return v;
}

/// The ring-rows call: the plan (its shape for this device), made once per problem.
CallFn ring_rows_call(const SoftmaxArgs& args) {
  return dispatch_dtype(args.dtype, [&](auto tag) -> CallFn {
    using T = typename decltype(tag)::type;
    const auto* x = static_cast<const T*>(args.x);
    auto* y = static_cast<T*>(args.y);
    const softmax::RingRowsPlan plan =
        softmax::plan_ring_rows(x, y, args.rows, args.cols, args.device.sm_count, args.device.cc_major);
    return [x, y, rows = args.rows, cols = args.cols, plan](cudaStream_t stream) {
      softmax::launch_ring_rows(x, y, rows, cols, plan, stream);
    };
  });
}

Variant<SoftmaxArgs> ring_rows() {
  Variant<SoftmaxArgs> v;
  v.name = "ring_rows";
  v.description =
      "rows up to 1024 elements (Hopper, aligned tensors): a persistent grid streams 8 KiB tiles of whole rows "
      "through a 4-slot shared-memory ring with bulk copies, a group of 1-32 lanes per row holds it in registers, "
      "tiles leave by bulk stores; short_rows otherwise";
  v.prepare = ring_rows_call;
  return v;
}

/// The thread-rows call: its plan, made once per problem; ring_rows' call where it cannot run.
CallFn thread_rows_call(const SoftmaxArgs& args) {
  return dispatch_dtype(args.dtype, [&](auto tag) -> CallFn {
    using T = typename decltype(tag)::type;
    const auto* x = static_cast<const T*>(args.x);
    auto* y = static_cast<T*>(args.y);
    const softmax::ThreadRowsPlan plan =
        softmax::plan_thread_rows(x, y, args.rows, args.cols, args.device.sm_count, args.device.cc_major);
    if (plan.shape.blocks == 0) return ring_rows_call(args);
    return [x, y, rows = args.rows, cols = args.cols, plan](cudaStream_t stream) {
      softmax::launch_thread_rows(x, y, rows, cols, plan, stream);
    };
  });
}

Variant<SoftmaxArgs> thread_rows() {
  Variant<SoftmaxArgs> v;
  v.name = "thread_rows";
  v.description =
      "16-bit rows up to 64 elements (Hopper, aligned tensors): ring_rows' bulk-copy ring in tiles of whole rounds of "
      "the block's rows (up to 16 KiB), a thread per row (two past 32 columns, the first taking an even number of "
      "elements) read from the tile as 4-byte words aligned by a funnel shift, no shuffle up to 32 columns; ring_rows "
      "otherwise";
  v.prepare = thread_rows_call;
  return v;
}

/// The grid-row call: the plan and the zeroed scratch of its counters and states, made once per
/// problem; the call owns them. Empty where the kernel cannot run the problem (`fallback` then).
CallFn grid_call(const SoftmaxArgs& args) {
  return dispatch_dtype(args.dtype, [&](auto tag) -> CallFn {
    using T = typename decltype(tag)::type;
    const auto* x = static_cast<const T*>(args.x);
    auto* y = static_cast<T*>(args.y);
    const softmax::GridRowPlan plan =
        softmax::plan_grid_row(x, y, args.rows, args.cols, args.device.sm_count, args.device.cc_major);
    if (plan.shape.blocks_per_row == 0) return {};
    auto scratch = std::make_shared<DeviceBuffer>(zeroed_device_buffer(softmax::grid_row_scratch_bytes(plan.shape)));
    return [x, y, rows = args.rows, cols = args.cols, plan, scratch](cudaStream_t stream) {
      softmax::launch_grid_row(x, y, rows, cols, plan, scratch->get(), stream);
    };
  });
}

CallFn cluster_call(const SoftmaxArgs& args) {
  return dispatch_dtype(args.dtype, [&](auto tag) -> CallFn {
    using T = typename decltype(tag)::type;
    const auto* x = static_cast<const T*>(args.x);
    auto* y = static_cast<T*>(args.y);
    const softmax::ClusterRowPlan plan =
        softmax::plan_cluster_row(x, y, args.rows, args.cols, args.device.sm_count, args.device.cc_major);
    return [x, y, rows = args.rows, cols = args.cols, plan](cudaStream_t stream) {
      softmax::launch_cluster_row(x, y, rows, cols, plan, stream);
    };
  });
}

Variant<SoftmaxArgs> cluster_row() {
  Variant<SoftmaxArgs> v;
  v.name = "cluster_row";
  v.description =
      "a cluster of 1-8 blocks per row (Hopper), each holding its slice in shared memory, states met through "
      "distributed shared memory: one read, one write; the online kernel where no cluster holds the row";
  v.prepare = cluster_call;
  return v;
}

/// Floats of split_row's chunk states for a rows x cols problem of `dtype`.
std::size_t split_states(std::int64_t rows, std::int64_t cols, DType dtype) {
  return 2 * static_cast<std::size_t>(rows * softmax::split_row_chunks(cols, dtype_size(dtype)));
}

CallFn split_call(const SoftmaxArgs& args) {
  auto states = std::make_shared<DeviceBuffer>(split_states(args.rows, args.cols, args.dtype) * sizeof(float));
  return [args, states](cudaStream_t stream) {
    with_typed(args, [&](auto x, auto y) {
      softmax::launch_split_row(x, y, args.rows, args.cols, states->as<float>(), stream);
    });
  };
}

Variant<SoftmaxArgs> split_row() {
  Variant<SoftmaxArgs> v;
  v.name = "split_row";
  v.description =
      "each row split over blocks of 16 KiB in two kernels: chunk states, then combine and write (x read twice)";
  v.kernels_per_call = 2;
  v.prepare = split_call;
  return v;
}

Variant<SoftmaxArgs> grid_row() {
  Variant<SoftmaxArgs> v;
  v.name = "grid_row";
  v.description =
      "every row over many blocks of one cooperative grid (Hopper), slices in shared memory filled by bulk "
      "copies, (max, sum) exchanged through global memory: one read, one write; the online kernel where it "
      "cannot run";
  v.prepare = [](const SoftmaxArgs& args) -> CallFn {
    if (CallFn call = grid_call(args)) return call;
    return online_kernel.bound(args);
  };
  return v;
}

Variant<SoftmaxArgs> auto_variant() {
  Variant<SoftmaxArgs> v;
  v.name = "auto";
  v.description =
      "picks per problem (softmax/NOTES.md): vector_rows for rows under 32 bytes that are not whole 16-byte "
      "vectors in aligned tensors, body_rows for 16-bit rows of 65-256 columns not a multiple of 4, of 257-512 not a multiple of 8 and "
      "of 513-1600 of any width, and fp32 rows of 48-512 columns not a multiple of 4, in aligned tensors, "
      "thread_rows for 16-bit rows of 17-64 odd columns (and of 18-30 even ones not a multiple of 4) in aligned "
      "tensors on Hopper, grain_rows for rows of whole 16-byte vectors up to 256 columns in aligned tensors, other "
      "16-bit rows up to 256 columns and fp32 rows of 9-47 columns that are not whole 16-byte vectors, "
      "short_rows up to 256 columns (to 512 for rows of whole "
      "16-byte vectors in 16-bit or fp32, or under 2 rows per SM), register_row for fp32 rows of 769-1024 columns that are not whole vectors "
      "in aligned tensors, packed_rows for other rows up to 1024 that are not whole vectors, "
      "register_row where the row fits its registers (rows that are not whole vectors up to 4096 vectors' worth) and rows fill the GPU, cluster_row where a cluster holds the row and rows fill the SMs, grid_row "
      "for fewer or longer rows, split_row without Hopper";
  v.prepare = [](const SoftmaxArgs& args) -> CallFn {
    const std::size_t size = dtype_size(args.dtype);
    const auto x = reinterpret_cast<std::uintptr_t>(args.x), y = reinterpret_cast<std::uintptr_t>(args.y);
    softmax::SoftmaxLayout layout;
    layout.vector_rows = x % 16 == 0 && y % 16 == 0 && args.cols % static_cast<std::int64_t>(16 / size) == 0;
    layout.same_phase = x % 16 == y % 16;
    layout.aligned = x % 16 == 0 && y % 16 == 0;
    switch (softmax::auto_softmax_kernel(args.rows, args.cols, size, args.device.sm_count, args.device.cc_major,
                                         layout)) {
      case softmax::SoftmaxKernel::grain_rows:
        return grain_rows_kernel.bound(args);
      case softmax::SoftmaxKernel::vector_rows:
        return vector_rows_kernel.bound(args);
      case softmax::SoftmaxKernel::body_rows:
        return body_rows_kernel.bound(args);
      case softmax::SoftmaxKernel::packed:
        return packed_rows_kernel.bound(args);
      case softmax::SoftmaxKernel::short_rows:
        return short_rows_kernel.bound(args);
      case softmax::SoftmaxKernel::thread_rows:
        return thread_rows_call(args);
      case softmax::SoftmaxKernel::grid: {
        // plan_grid_row may still find that the device cannot hold the grid: split then.
        CallFn call = grid_call(args);
        return call ? call : split_call(args);
      }
      case softmax::SoftmaxKernel::register_row:
        return register_row_kernel.bound(args);
      case softmax::SoftmaxKernel::cluster: {
        // plan_cluster_row may still find that the device cannot hold the cluster: split then.
        const bool holds = dispatch_dtype(args.dtype, [&](auto tag) {
          using T = typename decltype(tag)::type;
          return softmax::plan_cluster_row(static_cast<const T*>(args.x), static_cast<const T*>(args.y), args.rows,
                                           args.cols, args.device.sm_count, args.device.cc_major)
                     .blocks > 0;
        });
        return holds ? cluster_call(args) : split_call(args);
      }
      case softmax::SoftmaxKernel::split: return split_call(args);
      case softmax::SoftmaxKernel::online: break;
    }
    return online_kernel.bound(args);
  };
  return v;
}

#if KBENCH_HAVE_CUDNN
Variant<SoftmaxArgs> baseline() {
  Variant<SoftmaxArgs> v;
  v.name = "cudnn";
  v.role = VariantRole::baseline;
  v.description = "cudnnSoftmaxForward (ACCURATE, MODE_INSTANCE) on an NCHW rows x cols x 1 x 1 tensor, " +
                  softmax::cudnn_version_text();
  v.cannot_run = [](const SoftmaxArgs& args) { return softmax::CudnnSoftmax::unsupported_reason(args.rows, args.cols); };
  // The handle and the tensor descriptor, made once per problem (creating a handle loads cuDNN's
  // libraries); the call owns them.
  v.prepare = [](const SoftmaxArgs& args) -> CallFn {
    const auto cudnn = std::make_shared<const softmax::CudnnSoftmax>(args.dtype, args.rows, args.cols);
    return [cudnn, x = args.x, y = args.y](cudaStream_t stream) { cudnn->launch(x, y, stream); };
  };
  return v;
}
#else
Variant<SoftmaxArgs> baseline() {
  Variant<SoftmaxArgs> v = fused();
  v.name = "fused_reference";
  v.role = VariantRole::baseline;
  v.description = "cuDNN was not found at configure time: the fused kernel stands in as the baseline";
  return v;
}
#endif

OpDefinition<SoftmaxArgs> softmax_definition() {
  OpDefinition<SoftmaxArgs> op;
  op.name = "softmax";
  op.summary = "softmax over the last dimension (rows = all leading extents, cols = the last), fp32 math";
  // Square matrices for the size classes, and two batch shapes: many short rows, few long rows.
  op.shapes_for = [](const std::string& size_class, const std::vector<Shape>& defaults) -> std::vector<Shape> {
    if (size_class == "small") return {{256, 256}, {512, 512}};
    if (size_class == "medium") return {{2048, 2048}};
    if (size_class == "large") return {{4096, 4096}};
    if (size_class == "xlarge") return {{8192, 8192}};
    if (size_class == "batch") return {{32768, 512}, {1024, 32768}};
    return defaults;
  };
  op.traffic = [](const Problem& problem) {
    const double elements = static_cast<double>(element_count(problem.shape));
    const double bytes = elements * static_cast<double>(dtype_size(problem.dtype));
    // The minimum: x read once, y written once. About 4 FLOPs per element (a max, a subtract, an
    // exponential, an add to the sum; the normalising multiply is not counted), in fp32.
    return Traffic{bytes, bytes, 4 * elements, "fp32"};
  };
  // The manual chain's two intermediates and its per-row max and sum; split_row's chunk states,
  // and auto's when it splits; grid_row's states and counters (at most kGridScratchMost).
  op.scratch_bytes = [](const Problem& problem) {
    const double tensor =
        static_cast<double>(element_count(problem.shape)) * static_cast<double>(dtype_size(problem.dtype));
    const Matrix m = as_matrix(problem.shape);
    return 2 * tensor + 2 * static_cast<double>(m.rows) * sizeof(float) +
           2 * static_cast<double>(split_states(m.rows, m.cols, problem.dtype)) * sizeof(float) + kGridScratchMost;
  };
  op.inputs = [](const Problem& problem) {
    return std::vector<InputSpec>{{"x", element_count(problem.shape), kInputLow, kInputHigh}};
  };
  op.outputs = [](const Problem& problem) { return std::vector<OutputSpec>{{"y", element_count(problem.shape)}}; };
  op.reference = [](const Problem& problem, const std::vector<std::vector<float>>& in) {
    const Matrix m = as_matrix(problem.shape);
    OutputReference y;
    y.values = softmax::reference_softmax(in[0], m.rows, m.cols);
    return std::vector<OutputReference>{std::move(y)};
  };
  op.tolerance = fp32_math_tolerance;
  op.describe_position = [](const Problem& problem, std::size_t, std::int64_t flat) {
    const std::int64_t cols = problem.shape.back();
    return "row " + std::to_string(flat / cols) + ", col " + std::to_string(flat % cols);
  };
  op.make_args = [](const Problem& problem, const Buffers& buffers) {
    const Matrix m = as_matrix(problem.shape);
    return SoftmaxArgs{problem.dtype, m.rows, m.cols, buffers.inputs[0], buffers.outputs[0], buffers.device};
  };
  op.variants = {manual(),      fused(),       online(),    register_row(), packed_rows(), short_rows(),
                 warp_rows(),   grain_rows(),  vector_rows(), body_rows(), ring_rows(),   thread_rows(), cluster_row(), grid_row(),    split_row(), auto_variant(), baseline()};
  return op;
}

}  // namespace

void register_softmax(Registrar& registrar) { registrar.add_op(softmax_definition()); }

}  // namespace kbench
