#pragma once
// GPU tests: inputs that hold -inf, +inf and NaN (masks, overflowed activations), which the
// workload's random inputs never do, and every own variant of an op run on them against the op's
// fp64 reference: NaN where the reference is NaN, the same infinity where it is infinite, the
// op's tolerance elsewhere.

#include "harness/device/cuda_check.hpp"
#include "harness/device/cuda_resources.hpp"
#include "harness/device/current_device.hpp"
#include "harness/ops/defined_op.hpp"
#include "harness/ops/host_tensor.hpp"
#include "harness/ops/verification.hpp"
#include "support/catch.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace kbench::test {

/// Whether `got` stands for `want`: NaN for NaN, the same infinity for an infinity, else within
/// `bound`.
inline bool matches_ieee(double got, double want, double bound) {
  if (std::isnan(want)) return std::isnan(got);
  if (std::isinf(want)) return got == want;
  return std::fabs(got - want) <= bound;
}

/// Runs every own variant of `op` that takes `problem`'s dtype (`auto` included; baselines and
/// the roof are not kbench's kernels) on the single input `x`, outputs poisoned with 0x42 bytes
/// (finite, 48.6 in fp32, 3.13 in fp16, 48.5 in bf16), and checks every output element.
inline void check_own_variants_on(const DefinedOp& op, const Problem& problem, const HostTensor& x, CudaStream& stream,
                                  const std::string& about) {
  const detail::AnyOpDefinition& definition = op.definition();
  const std::vector<OutputReference> want = definition.reference(problem, {x.values});
  DeviceBuffer in(x.bytes.size());
  upload(in.get(), x.bytes.data(), x.bytes.size());
  std::vector<DeviceBuffer> outs;
  std::vector<DType> out_dtypes;
  Buffers buffers;
  buffers.inputs = {in.get()};
  for (const OutputSpec& spec : definition.outputs(problem)) {
    out_dtypes.push_back(spec.dtype.value_or(problem.dtype));
    outs.emplace_back(static_cast<std::size_t>(spec.elements) * dtype_size(out_dtypes.back()));
    buffers.outputs.push_back(outs.back().get());
  }
  buffers.device = current_device();
  const std::shared_ptr<const void> args = definition.make_args(problem, buffers);
  for (const detail::AnyVariant& variant : definition.variants) {
    if (variant.role != VariantRole::own) continue;
    if (!variant.dtypes.empty() &&
        std::find(variant.dtypes.begin(), variant.dtypes.end(), problem.dtype) == variant.dtypes.end()) {
      continue;
    }
    INFO(op.name() << " " << variant.name << " " << dtype_name(problem.dtype) << " " << format_shape(problem.shape)
                   << ", " << about);
    if (variant.cannot_run) {
      if (const std::string why = variant.cannot_run(args.get()); !why.empty()) {
        WARN("skipped: " << why);
        continue;
      }
    }
    for (DeviceBuffer& out : outs) KBENCH_CUDA_CALL(cudaMemset(out.get(), 0x42, out.bytes()));
    KBENCH_CUDA_CALL(cudaDeviceSynchronize());
    variant.bind(args)(stream.get());
    stream.synchronize();
    const Tolerance tolerance = variant.tolerance ? variant.tolerance(problem.dtype) : definition.tolerance(problem.dtype);
    for (std::size_t o = 0; o < outs.size(); ++o) {
      const std::size_t count = outs[o].bytes() / dtype_size(out_dtypes[o]);
      std::vector<std::uint8_t> bytes(outs[o].bytes());
      KBENCH_CUDA_CALL(cudaMemcpy(bytes.data(), outs[o].get(), bytes.size(), cudaMemcpyDeviceToHost));
      const std::vector<float> got = decode_to_float(out_dtypes[o], bytes.data(), count);
      const OutputReference& ref = want[o];
      std::int64_t bad = 0;
      std::ostringstream first;
      for (std::size_t i = 0; i < ref.values.size(); ++i) {
        const std::size_t at = ref.positions.empty() ? i : static_cast<std::size_t>(ref.positions[i]);
        const double bound = allowed_error(tolerance, ref.values[i], ref.scale.empty() ? 0.0 : ref.scale[i]);
        if (matches_ieee(got[at], ref.values[i], bound)) continue;
        if (bad++ > 0) continue;
        const auto flat = static_cast<std::int64_t>(at);
        first << "; the first at "
              << (definition.describe_position ? definition.describe_position(problem, o, flat) : std::to_string(flat))
              << ": " << got[at] << " where the reference is " << ref.values[i];
      }
      INFO(bad << " of " << ref.values.size() << " elements wrong" << first.str());
      CHECK(bad == 0);
    }
  }
}

}  // namespace kbench::test
