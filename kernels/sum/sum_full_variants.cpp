// sum_full's variants (every element into one value), declared beside the launchers of
// sum_full_kernels.cu and sum_cub.cu.
#include "kernels/sum/sum_variants.hpp"

#include <algorithm>
#include <limits>
#include <memory>
#include <stdexcept>

namespace kbench::sum {

namespace {

/// CUB 3.0's DeviceReduce asks 4 bytes per block of five waves (at most 32 blocks per SM) plus
/// 511 of alignment: 640 KiB for 1024 SMs. Small problems take its single-tile path (1 byte).
constexpr double kCubReduceTempBound = 1 << 20;

std::int64_t elements(const ReductionArgs& args) { return args.rows * args.cols; }

Variant<ReductionArgs> naive_atomic() {
  Variant<ReductionArgs> v;
  v.name = "naive_atomic";
  v.description = "one fp32 atomicAdd per element, then a cast (memset, atomics, cast)";
  v.kernels_per_call = 3;
  v.prepare = [](const ReductionArgs& args) -> CallFn {
    auto accumulator = std::make_shared<DeviceBuffer>(sizeof(float));
    return [args, accumulator](cudaStream_t stream) {
      with_typed(args, [&](auto x, auto y) { launch_full_atomic(x, y, elements(args), accumulator->as<float>(), stream); });
    };
  };
  return v;
}

Variant<ReductionArgs> two_stage() {
  Variant<ReductionArgs> v;
  v.name = "two_stage";
  v.description = "grid-stride blocks with 16-byte loads into partials, then one block";
  v.kernels_per_call = 2;
  v.prepare = [](const ReductionArgs& args) -> CallFn {
    const int blocks = full_two_stage_blocks(elements(args), args.device.sm_count);
    auto partials = std::make_shared<DeviceBuffer>(static_cast<std::size_t>(blocks) * sizeof(float));
    return [args, blocks, partials](cudaStream_t stream) {
      with_typed(args, [&](auto x, auto y) {
        launch_full_two_stage(x, y, elements(args), partials->as<float>(), blocks, stream);
      });
    };
  };
  return v;
}

/// one_pass's partials and counters for one problem.
struct OnePassState {
  int blocks = 1;
  DeviceBuffer partials;
  DeviceBuffer counters;
};

/// Blocks of one_pass for n elements of `dtype` on a device of compute capability `cc_major` with
/// `sm_count` SMs.
int one_pass_blocks(std::int64_t n, DType dtype, int cc_major, int sm_count) {
  return dispatch_dtype(dtype, [&](auto tag) {
    return full_one_pass_blocks<typename decltype(tag)::type>(n, cc_major, sm_count);
  });
}

/// No device has this many SMs: one_pass then gives each block one tile, its most blocks.
constexpr int kSmCountForMostBlocks = std::numeric_limits<int>::max();

Variant<ReductionArgs> one_pass() {
  Variant<ReductionArgs> v;
  v.name = "one_pass";
  v.description =
      "one kernel: blocks of one 16 KiB tile each (up to 4 consecutive ones on tensors that fill the SMs' block "
      "slots that many times), 4 16-byte loads in flight per thread, a collector block folding the partials group by "
      "group; up to 512 KiB on Hopper, one 8-block cluster meeting in shared memory";
  v.prepare = [](const ReductionArgs& args) -> CallFn {
    auto state = std::make_shared<OnePassState>();
    state->blocks = one_pass_blocks(elements(args), args.dtype, args.device.cc_major, args.device.sm_count);
    state->partials = DeviceBuffer(static_cast<std::size_t>(state->blocks) * sizeof(float));
    state->counters = zeroed_tickets(static_cast<std::size_t>(full_one_pass_counters(state->blocks)));
    return [args, state](cudaStream_t stream) {
      with_typed(args, [&](auto x, auto y) {
        launch_full_one_pass(x, y, elements(args), state->partials.as<float>(), state->counters.as<unsigned>(),
                             state->blocks, args.device.cc_major, stream);
      });
    };
  };
  return v;
}

Variant<ReductionArgs> auto_variant() {
  Variant<ReductionArgs> v = one_pass();
  v.name = "auto";
  v.description =
      "one_pass at every size (sum/NOTES.md): its own choice by size is the heuristic (one block up to 128 KiB, one "
      "8-block cluster up to 512 KiB on Hopper, 16 KiB tiles (up to 4 a block) and a collector block beyond)";
  return v;
}

Variant<ReductionArgs> cub_reduce() {
  Variant<ReductionArgs> v;
  v.name = "cub_reduce";
  v.role = VariantRole::baseline;
  v.description = "cub::DeviceReduce::TransformReduce, fp32 accumulation";
  v.kernels_per_call = 2;
  v.prepare = [](const ReductionArgs& args) -> CallFn {
    std::size_t temp_bytes = 0;
    with_typed(args, [&](auto x, auto y) { cub_full_sum(nullptr, temp_bytes, x, y, elements(args), nullptr); });
    auto temp = std::make_shared<DeviceBuffer>(temp_bytes);
    return [args, temp](cudaStream_t stream) {
      std::size_t bytes = temp->bytes();
      with_typed(args, [&](auto x, auto y) { cub_full_sum(temp->get(), bytes, x, y, elements(args), stream); });
    };
  };
  return v;
}

}  // namespace

std::vector<Variant<ReductionArgs>> full_variants() {
  return {naive_atomic(), two_stage(), one_pass(), auto_variant(), cub_reduce()};
}

double full_scratch_bytes(std::int64_t n, DType dtype) {
  int one_pass_most = 1;
  try {
    // The larger of the cluster path (compute capability 9+) and the tiles path.
    one_pass_most = std::max(one_pass_blocks(n, dtype, 0, kSmCountForMostBlocks),
                             one_pass_blocks(n, dtype, 9, kSmCountForMostBlocks));
  } catch (const std::invalid_argument&) {
    return std::numeric_limits<double>::infinity();  // a grid past 2^31 blocks: an input no device holds
  }
  // naive_atomic's accumulator, two_stage's and one_pass's partials, one_pass's counters, CUB's temp.
  // auto runs one_pass: its partials and counters count twice.
  const double floats = 1.0 + full_two_stage_blocks(n, kAnySmCount) + 2.0 * one_pass_most;
  return floats * sizeof(float) + 2.0 * full_one_pass_counters(one_pass_most) * sizeof(unsigned) + kCubReduceTempBound;
}

}  // namespace kbench::sum
