// sum_inner's and max_inner's variants (each row into one value), declared beside the launchers
// of sum_rows_kernels.cu and sum_cub.cu.
#include "kernels/sum/sum_variants.hpp"

#include "kernels/sum/sum_auto.hpp"
#include "kernels/sum/sum_rows_ring.hpp"

#include <cstdint>
#include <memory>

namespace kbench::sum {

namespace {

/// CUB 3.0's DeviceSegmentedReduce needs no temporary storage and asks for 1 byte; room for a
/// later version that wants a little.
constexpr double kCubSegmentedTempBound = 4096;

/// One of the stateless row kernels, `launch_rows_*(x, y, rows, cols, reduction, stream)`, called
/// on a problem's typed pointers: what most variants launch, and what `auto` picks among.
template <typename LaunchRows>
struct RowLauncher {
  LaunchRows launch_rows;
  Reduction reduction;
  void operator()(const ReductionArgs& args, cudaStream_t stream) const {
    with_typed(args, [&](auto x, auto y) { launch_rows(x, y, args.rows, args.cols, reduction, stream); });
  }
  /// The call on one problem.
  CallFn bound(const ReductionArgs& args) const {
    return [args, launcher = *this](cudaStream_t stream) { launcher(args, stream); };
  }
};
template <typename LaunchRows>
RowLauncher(LaunchRows, Reduction) -> RowLauncher<LaunchRows>;

constexpr auto naive_rows = [](auto... a) { launch_rows_naive(a...); };
constexpr auto parallel_rows = [](auto... a) { launch_rows_parallel(a...); };
constexpr auto packed_rows_launch = [](auto... a) { launch_rows_packed(a...); };
constexpr auto flat_rows_launch = [](auto... a) { launch_rows_flat(a...); };
constexpr auto span_rows_launch = [](auto... a) { launch_rows_span(a...); };
constexpr auto vector_rows_launch = [](auto... a) { launch_rows_vector(a...); };

Variant<ReductionArgs> naive(Reduction reduction) {
  Variant<ReductionArgs> v;
  v.name = "naive";
  v.description = "one thread per row walking it (uncoalesced)";
  v.launch = RowLauncher{naive_rows, reduction};
  return v;
}

Variant<ReductionArgs> row_parallel(Reduction reduction) {
  Variant<ReductionArgs> v;
  v.name = "row_parallel";
  v.description = "warp per row up to 1024 fp32 / 1536 16-bit columns (warp_row_max_cols), block per row beyond; 16-byte loads over each row's aligned body";
  v.launch = RowLauncher{parallel_rows, reduction};
  return v;
}

Variant<ReductionArgs> packed_rows(Reduction reduction) {
  Variant<ReductionArgs> v;
  v.name = "packed_rows";
  v.description =
      "tiles of whole rows (16 KiB) copied to shared memory with 16-byte loads, a group of lanes per row; rows "
      "longer than 1024 elements run row_parallel";
  v.launch = RowLauncher{packed_rows_launch, reduction};
  return v;
}

Variant<ReductionArgs> flat_rows(Reduction reduction) {
  Variant<ReductionArgs> v;
  v.name = "flat_rows";
  v.description =
      "tiles of whole rows (16 KiB) read as coalesced 16-byte vectors, each cut at its row ends in registers, pieces "
      "of rows that cross vectors joined in shared memory; rows longer than 1024 elements run row_parallel";
  v.launch = RowLauncher{flat_rows_launch, reduction};
  return v;
}

Variant<ReductionArgs> span_rows(Reduction reduction) {
  Variant<ReductionArgs> v;
  v.name = "span_rows";
  v.description =
      "a warp per span of whole rows read straight as 16-byte vectors, each lane's two-vector run split at its row "
      "end, a segmented warp scan per row; rows of 16-1024 16-bit or 8-1024 fp32 elements in aligned tensors, "
      "flat_rows otherwise";
  v.launch = RowLauncher{span_rows_launch, reduction};
  return v;
}

Variant<ReductionArgs> vector_rows(Reduction reduction) {
  Variant<ReductionArgs> v;
  v.name = "vector_rows";
  v.description =
      "rows under 32 bytes (16-bit 1-15, fp32 1-7 columns) in aligned tensors: a lane owns R whole rows as V whole "
      "16-byte vectors, each warp's tile through its own slice of shared memory with coalesced loads, R results per "
      "store; naive otherwise";
  v.launch = RowLauncher{vector_rows_launch, reduction};
  return v;
}

/// The ring-rows call: the plan (its shape for this device), made once per problem.
CallFn ring_call(const ReductionArgs& args, Reduction reduction) {
  return dispatch_dtype(args.dtype, [&](auto tag) -> CallFn {
    using T = typename decltype(tag)::type;
    const auto* x = static_cast<const T*>(args.x);
    auto* y = static_cast<T*>(args.y);
    const RowsRingPlan plan =
        plan_rows_ring(x, args.rows, args.cols, reduction, args.device.sm_count, args.device.cc_major);
    return [x, y, rows = args.rows, cols = args.cols, reduction, plan](cudaStream_t stream) {
      launch_rows_ring(x, y, rows, cols, reduction, plan, stream);
    };
  });
}

Variant<ReductionArgs> ring_rows(Reduction reduction) {
  Variant<ReductionArgs> v;
  v.name = "ring_rows";
  v.description =
      "rows up to 1024 elements (Hopper, aligned tensors): a persistent grid streams 8 KiB tiles of whole rows "
      "through a 4-slot shared-memory ring with bulk copies, a group of 1-32 lanes folds each row; flat_rows "
      "otherwise";
  v.prepare = [reduction](const ReductionArgs& args) { return ring_call(args, reduction); };
  return v;
}

/// split_row's shape, partials and per-row ticket counters for one problem.
struct SplitState {
  RowsSplitShape shape;   ///< blocks per row and tiles per block on this device
  DeviceBuffer partials;  ///< rows x shape.splits floats
  DeviceBuffer counters;  ///< one per row
};

std::shared_ptr<SplitState> make_split_state(const ReductionArgs& args) {
  auto state = std::make_shared<SplitState>();
  state->shape = rows_split_shape(args.rows, args.cols, dtype_size(args.dtype), args.device.sm_count);
  state->partials = DeviceBuffer(static_cast<std::size_t>(args.rows * state->shape.splits) * sizeof(float));
  state->counters = zeroed_tickets(static_cast<std::size_t>(args.rows));
  return state;
}

CallFn split_call(const ReductionArgs& args, Reduction reduction) {
  auto state = make_split_state(args);
  return [args, reduction, state](cudaStream_t stream) {
    with_typed(args, [&](auto x, auto y) {
      launch_rows_split(x, y, args.rows, args.cols, state->partials.as<float>(), state->counters.as<unsigned>(),
                        state->shape, reduction, stream);
    });
  };
}

Variant<ReductionArgs> split_row(Reduction reduction) {
  Variant<ReductionArgs> v;
  v.name = "split_row";
  v.description =
      "each row split over blocks of 1-4 tiles of 16 KiB (16-byte loads over its aligned body; 4 where the tiles "
      "fill the SMs' resident blocks 4 times), the row's last block by ticket "
      "folds the partials in order";
  v.prepare = [reduction](const ReductionArgs& args) { return split_call(args, reduction); };
  return v;
}

Variant<ReductionArgs> auto_variant(Reduction reduction) {
  Variant<ReductionArgs> v;
  v.name = "auto";
  v.description =
      "picks per problem (sum/NOTES.md): vector_rows for rows of at most 16 bytes, naive for rows of at most 48 bytes, "
      "flat_rows for fp32 rows of 13-47 columns, span_rows for other rows up to 1 KiB (16-bit up to 512 columns, fp32 "
      "48-256), split_row for fewer rows than 4 per SM of at least 32 KiB each, row_parallel otherwise";
  v.prepare = [reduction](const ReductionArgs& args) -> CallFn {
    switch (auto_row_kernel(args.rows, args.cols, dtype_size(args.dtype), args.device.sm_count)) {
      case RowKernel::split: return split_call(args, reduction);
      case RowKernel::vector_rows:
        return RowLauncher{vector_rows_launch, reduction}.bound(args);
      case RowKernel::thread_per_row:
        return RowLauncher{naive_rows, reduction}.bound(args);
      case RowKernel::flat:
        return RowLauncher{flat_rows_launch, reduction}.bound(args);
      case RowKernel::span:
        return RowLauncher{span_rows_launch, reduction}.bound(args);
      case RowKernel::row_parallel: break;
    }
    return RowLauncher{parallel_rows, reduction}.bound(args);
  };
  return v;
}

/// cub_segmented's row offsets and temporary storage for one problem.
struct SegmentedState {
  DeviceBuffer offsets;  ///< rows + 1 values: row r is [offsets[r], offsets[r + 1])
  DeviceBuffer temp;
};

Variant<ReductionArgs> cub_segmented_variant(Reduction reduction) {
  Variant<ReductionArgs> v;
  v.name = "cub_segmented";
  v.role = VariantRole::baseline;
  v.description = reduction == Reduction::max ? "cub::DeviceSegmentedReduce::Reduce (max) over row offsets"
                                              : "cub::DeviceSegmentedReduce::Reduce over row offsets";
  v.prepare = [reduction](const ReductionArgs& args) -> CallFn {
    auto state = std::make_shared<SegmentedState>();
    std::vector<std::int64_t> offsets(static_cast<std::size_t>(args.rows) + 1);
    for (std::size_t r = 0; r < offsets.size(); ++r) offsets[r] = static_cast<std::int64_t>(r) * args.cols;
    state->offsets = DeviceBuffer(offsets.size() * sizeof(std::int64_t));
    upload(state->offsets.get(), offsets.data(), state->offsets.bytes());
    std::size_t temp_bytes = 0;
    with_typed(args, [&](auto x, auto y) {
      cub_segmented(nullptr, temp_bytes, x, y, args.rows, state->offsets.as<std::int64_t>(), reduction, nullptr);
    });
    state->temp = DeviceBuffer(temp_bytes);
    return [args, reduction, state](cudaStream_t stream) {
      std::size_t bytes = state->temp.bytes();
      with_typed(args, [&](auto x, auto y) {
        cub_segmented(state->temp.get(), bytes, x, y, args.rows, state->offsets.as<std::int64_t>(), reduction, stream);
      });
    };
  };
  return v;
}

}  // namespace

std::vector<Variant<ReductionArgs>> row_variants(Reduction reduction) {
  return {naive(reduction),     row_parallel(reduction),  packed_rows(reduction),          flat_rows(reduction),
          span_rows(reduction), vector_rows(reduction), ring_rows(reduction), split_row(reduction),    auto_variant(reduction), cub_segmented_variant(reduction)};
}

double row_scratch_bytes(std::int64_t rows, std::int64_t cols, DType dtype) {
  // cub_segmented's offsets and temp; split_row's partials and counters, and auto's when it splits.
  const double split = static_cast<double>(rows) *
                       (static_cast<double>(rows_split_tiles(cols, dtype_size(dtype))) * sizeof(float) + sizeof(unsigned));
  return static_cast<double>(rows + 1) * sizeof(std::int64_t) + kCubSegmentedTempBound + 2 * split;
}

}  // namespace kbench::sum
