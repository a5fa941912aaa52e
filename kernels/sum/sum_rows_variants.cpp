// sum_inner's and max_inner's variants (each row into one value), declared beside the launchers
// of sum_rows_kernels.cu and sum_cub.cu.
#include "kernels/sum/sum_variants.hpp"

#include <memory>

namespace kbench::sum {

namespace {

/// CUB 3.0's DeviceSegmentedReduce needs no temporary storage and asks for 1 byte; room for a
/// later version that wants a little.
constexpr double kCubSegmentedTempBound = 4096;

Variant<ReductionArgs> naive(Reduction reduction) {
  Variant<ReductionArgs> v;
  v.name = "naive";
  v.description = "one thread per row walking it (uncoalesced)";
  v.launch = [reduction](const ReductionArgs& args, cudaStream_t stream) {
    with_typed(args, [&](auto x, auto y) { launch_rows_naive(x, y, args.rows, args.cols, reduction, stream); });
  };
  return v;
}

Variant<ReductionArgs> row_parallel(Reduction reduction) {
  Variant<ReductionArgs> v;
  v.name = "row_parallel";
  v.description = "warp per row up to 1024 columns, block per row beyond; 16-byte loads";
  v.launch = [reduction](const ReductionArgs& args, cudaStream_t stream) {
    with_typed(args, [&](auto x, auto y) { launch_rows_parallel(x, y, args.rows, args.cols, reduction, stream); });
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
  return {naive(reduction), row_parallel(reduction), cub_segmented_variant(reduction)};
}

double row_scratch_bytes(std::int64_t rows) {
  return static_cast<double>(rows + 1) * sizeof(std::int64_t) + kCubSegmentedTempBound;
}

}  // namespace kbench::sum
