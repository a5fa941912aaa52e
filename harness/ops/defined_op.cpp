#include "harness/ops/defined_op.hpp"

#include "harness/common/printable_text.hpp"
#include "harness/device/cuda_check.hpp"
#include "harness/device/cuda_resources.hpp"
#include "harness/device/device_setup.hpp"
#include "harness/ops/first_call.hpp"
#include "harness/ops/host_tensor.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace kbench {

namespace {

/// Op, family and variant names are typed in options, listed comma-separated and written into
/// JSON, CSV and Markdown: 1 to kMostNameChars ASCII letters, digits, '_', '-' or '.'.
constexpr std::size_t kMostNameChars = 64;

void check_name(const std::string& what, const std::string& name) {
  const auto allowed = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
           c == '.';
  };
  if (name.empty() || name.size() > kMostNameChars || !std::all_of(name.begin(), name.end(), allowed)) {
    throw std::invalid_argument(what + " '" + printable(name.substr(0, 2 * kMostNameChars)) +
                                "': expected 1-64 ASCII letters, digits, '_', '-' or '.'");
  }
}

constexpr unsigned char kGuardByte = 0xA5;
constexpr unsigned char kPoisonByte = 0xFF;  // all-ones: a NaN in fp32, fp16 and bf16
constexpr std::size_t kAlignment = 256;

/// A different stream of random numbers for every input tensor and input set.
std::uint64_t input_seed(std::uint64_t seed, std::size_t set, std::size_t input) {
  std::uint64_t x = seed + 0x9E3779B97F4A7C15ull * (1 + 2 * input + set);
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

/// An output between two guard regions: [guard][data, padded to 256 bytes][guard].
struct GuardedOutput {
  std::string name;
  DType dtype = DType::f32;
  std::int64_t elements = 0;
  std::size_t bytes = 0;  ///< of the data
  DeviceBuffer storage;

  void* data() const { return static_cast<unsigned char*>(storage.get()) + kOutputGuardBytes; }
  std::size_t padded() const { return (bytes + kAlignment - 1) / kAlignment * kAlignment; }
};

struct InputTensor {
  DType dtype = DType::f32;
  DeviceBuffer device;
  std::vector<std::uint8_t> sets[2];  ///< the encoded values of each input set
};

std::string byte_count(std::size_t n) { return std::to_string(n) + (n == 1 ? " byte" : " bytes"); }

class DefinedWorkload final : public Workload {
 public:
  DefinedWorkload(const DefinedOp& op, const Problem& problem, std::uint64_t seed) : op_(op), problem_(problem) {
    const detail::AnyOpDefinition& def = op.definition();
    const DType storage = storage_dtype(problem.dtype);
    const std::vector<InputSpec> inputs = def.inputs(problem);
    std::vector<std::vector<float>> values[2];
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      InputTensor input;
      input.dtype = inputs[i].dtype.value_or(storage);
      const auto count = static_cast<std::size_t>(inputs[i].elements);
      input.device = DeviceBuffer(count * dtype_size(input.dtype));
      for (std::size_t set = 0; set < 2; ++set) {
        HostTensor drawn = random_tensor(input.dtype, count, input_seed(seed, set, i), inputs[i].low, inputs[i].high);
        input.sets[set] = std::move(drawn.bytes);
        values[set].push_back(std::move(drawn.values));
      }
      inputs_.push_back(std::move(input));
    }
    for (std::size_t set = 0; set < 2; ++set) {
      references_[set] = def.reference(problem, values[set]);
      values[set].clear();
    }
    for (const OutputSpec& spec : def.outputs(problem)) {
      GuardedOutput output;
      output.name = spec.name;
      output.dtype = spec.dtype.value_or(storage);
      output.elements = spec.elements;
      output.bytes = static_cast<std::size_t>(spec.elements) * dtype_size(output.dtype);
      output.storage = DeviceBuffer(2 * kOutputGuardBytes + output.padded());
      outputs_.push_back(std::move(output));
    }
    check_references(def.name);
    upload_inputs(0);

    Buffers buffers;
    for (const InputTensor& input : inputs_) buffers.inputs.push_back(input.device.get());
    for (const GuardedOutput& output : outputs_) buffers.outputs.push_back(output.data());
    buffers.device = current_device();
    args_ = def.make_args(problem, buffers);
    calls_.resize(def.variants.size());
    called_.resize(def.variants.size(), false);
  }

  std::string cannot_run(std::size_t variant) const override {
    const detail::AnyVariant& v = variant_at(variant);
    if (!v.dtypes.empty() && std::find(v.dtypes.begin(), v.dtypes.end(), problem_.dtype) == v.dtypes.end()) {
      return v.name + " does not run " + std::string(dtype_name(problem_.dtype));
    }
    return v.cannot_run ? v.cannot_run(args_.get()) : std::string();
  }

  void launch(std::size_t variant, cudaStream_t stream) override {
    call(variant)(stream);
    called_[variant] = true;
  }

  void prepare_call(std::size_t variant) override { call(variant); }

  Verification verify(std::size_t variant, cudaStream_t stream) override {
    const CallFn& run = call(variant);
    const detail::AnyVariant& v = variant_at(variant);
    const Tolerance tolerance = v.tolerance ? v.tolerance(problem_.dtype) : op_.definition().tolerance(problem_.dtype);
    std::optional<double> first_call_ms;
    const auto finish = [&](Verification result) {
      result.first_call_ms = first_call_ms;
      return result;
    };
    // The set already on the device goes first, so each variant uploads one set, not two.
    const std::size_t order[2] = {loaded_set_, 1 - loaded_set_};
    Verification first;
    for (std::size_t turn = 0; turn < 2; ++turn) {
      const std::size_t set = order[turn];
      if (turn == 0 && !called_[variant]) {
        call_poisoned(set, stream, [&] { first_call_ms = call_wall_ms(run, stream); });
        called_[variant] = true;
      } else {
        call_poisoned(set, stream, [&] {
          run(stream);
          KBENCH_CUDA_CALL(cudaGetLastError());
          KBENCH_CUDA_CALL(cudaStreamSynchronize(stream));
        });
      }
      download_outputs(staged_);
      for (std::size_t o = 0; o < outputs_.size(); ++o) {
        if (std::string broken = guard_damage(outputs_[o], staged_[o]); !broken.empty()) {
          Verification result;
          result.tolerance = tolerance;
          result.message = broken;
          return finish(result);
        }
      }
      Verification check = compare(set, tolerance);
      if (!check.passed) {
        // Identical outputs only say something when they are wrong: a short output in a 16-bit
        // dtype (one sum, one element) can round to the same value for both input sets.
        if (turn == 1 && references_differ() && same_outputs_on(order[0], run, stream)) {
          check.message = "the output does not follow the input: two independent input sets gave identical outputs (" +
                          check.message + ")";
        } else if (turn == 1) {
          check.message = "with the second input set: " + check.message;
        }
        return finish(check);
      }
      if (turn == 0) {
        first = check;
      } else {
        first.max_abs_error = std::max(first.max_abs_error, check.max_abs_error);
        first.rel_l2_error = std::max(first.rel_l2_error, check.rel_l2_error);
      }
    }
    return finish(first);
  }

 private:
  const detail::AnyVariant& variant_at(std::size_t variant) const {
    const auto& variants = op_.definition().variants;
    if (variant >= variants.size()) {
      throw std::out_of_range(op_.name() + ": no variant " + std::to_string(variant) + " (it has " +
                              std::to_string(variants.size()) + ")");
    }
    return variants[variant];
  }

  /// The variant's call, bound to this problem on first use (outside any timed window: the
  /// runner verifies before it times).
  const CallFn& call(std::size_t variant) {
    const detail::AnyVariant& v = variant_at(variant);
    if (!calls_[variant]) {
      if (const std::string why = cannot_run(variant); !why.empty()) {
        throw std::invalid_argument(op_.name() + " " + v.name + ": " + why);
      }
      if (!v.bind) throw std::logic_error(op_.name() + " " + v.name + ": the variant declares neither launch nor prepare");
      calls_[variant] = v.bind(args_);
    }
    return calls_[variant];
  }

  /// Loads input set `set` (when another is on the device), guards and poisons the outputs, then
  /// runs `call`.
  template <typename Call>
  void call_poisoned(std::size_t set, cudaStream_t stream, const Call& call) {
    if (set != loaded_set_) upload_inputs(set);
    for (const GuardedOutput& output : outputs_) {
      KBENCH_CUDA_CALL(cudaMemsetAsync(output.storage.get(), kGuardByte, output.storage.bytes(), stream));
      KBENCH_CUDA_CALL(cudaMemsetAsync(output.data(), kPoisonByte, output.bytes, stream));
    }
    call();
  }

  /// Copies every output with its guards into `into` (page-locked, allocated on first use and
  /// kept: a sweep verifies many variants of one problem).
  void download_outputs(std::vector<HostStagingBuffer>& into) const {
    into.resize(outputs_.size());
    for (std::size_t o = 0; o < outputs_.size(); ++o) {
      if (into[o].bytes() != outputs_[o].storage.bytes()) into[o] = HostStagingBuffer(outputs_[o].storage.bytes());
      KBENCH_CUDA_CALL(cudaMemcpy(into[o].data(), outputs_[o].storage.get(), into[o].bytes(), cudaMemcpyDeviceToHost));
    }
  }

  /// Whether `run` on input set `set` gives the very outputs now staged: the failure path's check
  /// that an output follows its input at all.
  bool same_outputs_on(std::size_t set, const CallFn& run, cudaStream_t stream) {
    call_poisoned(set, stream, [&] {
      run(stream);
      KBENCH_CUDA_CALL(cudaStreamSynchronize(stream));
    });
    std::vector<HostStagingBuffer> again;
    download_outputs(again);
    for (std::size_t o = 0; o < outputs_.size(); ++o) {
      if (std::memcmp(again[o].data(), staged_[o].data(), staged_[o].bytes()) != 0) return false;
    }
    return true;
  }

  /// An op's reference must match its outputs: one per output, in range, one value per position.
  void check_references(const std::string& op) const {
    const auto wrong = [&](const std::string& what) { throw std::logic_error(op + ": the reference " + what); };
    for (const auto& set : references_) {
      if (set.size() != outputs_.size()) {
        wrong("gives " + std::to_string(set.size()) + " outputs; the op declares " + std::to_string(outputs_.size()));
      }
      for (std::size_t o = 0; o < outputs_.size(); ++o) {
        const OutputReference& r = set[o];
        const std::size_t expected = r.positions.empty() ? static_cast<std::size_t>(outputs_[o].elements) : r.positions.size();
        if (r.values.size() != expected) wrong("of '" + outputs_[o].name + "' has " + std::to_string(r.values.size()) + " values for " + std::to_string(expected) + " elements");
        if (!r.scale.empty() && r.scale.size() != expected) wrong("of '" + outputs_[o].name + "' has a scale of another length");
        for (std::int64_t p : r.positions) {
          if (p < 0 || p >= outputs_[o].elements) wrong("of '" + outputs_[o].name + "' checks position " + std::to_string(p) + ", outside the output");
        }
      }
    }
  }

  void upload_inputs(std::size_t set) {
    for (const InputTensor& input : inputs_) upload(input.device.get(), input.sets[set].data(), input.sets[set].size());
    loaded_set_ = set;
  }

  bool references_differ() const {
    for (std::size_t o = 0; o < outputs_.size(); ++o) {
      if (references_[0][o].values != references_[1][o].values) return true;
    }
    return false;
  }

  /// Empty when both guards of `output` are intact, else what was written outside it.
  static std::string guard_damage(const GuardedOutput& output, const HostStagingBuffer& staged) {
    const std::uint8_t* raw = staged.data();
    const std::size_t end = kOutputGuardBytes + output.bytes;
    std::size_t before = 0, after = 0, nearest_before = 0, first_after = 0;
    for (std::size_t i = 0; i < kOutputGuardBytes; ++i) {
      if (raw[i] != kGuardByte) {
        ++before;
        nearest_before = kOutputGuardBytes - i;
      }
    }
    // The padding after the data counts as outside: only `bytes` belong to the output.
    for (std::size_t i = end; i < staged.bytes(); ++i) {
      if (raw[i] != kGuardByte) {
        if (after == 0) first_after = i - end;
        ++after;
      }
    }
    if (before == 0 && after == 0) return {};
    std::string text = "wrote " + byte_count(before + after) + " outside output '" + output.name + "' (" +
                       std::to_string(output.bytes) + " bytes):";
    if (before > 0) text += " " + byte_count(before) + " before it, the nearest " + std::to_string(nearest_before) + " before its start";
    if (before > 0 && after > 0) text += ";";
    if (after > 0) text += " " + byte_count(after) + " after it, the first at +" + std::to_string(first_after) + " past its end";
    return text;
  }

  std::string where(std::size_t output, std::int64_t flat) const {
    const auto& describe = op_.definition().describe_position;
    std::string text = describe ? describe(problem_, output, flat) : "element " + std::to_string(flat);
    if (outputs_.size() > 1) text = "'" + outputs_[output].name + "' " + text;
    return text;
  }

  /// Every output of input set `set` against its reference.
  Verification compare(std::size_t set, Tolerance tolerance) {
    Verification total;
    total.tolerance = tolerance;
    total.passed = true;
    for (std::size_t o = 0; o < outputs_.size(); ++o) {
      const GuardedOutput& output = outputs_[o];
      const OutputReference& reference = references_[set][o];
      decoded_.resize(outputs_.size());
      std::vector<float>& all = decoded_[o];
      decode_to_float(output.dtype, staged_[o].data() + kOutputGuardBytes, static_cast<std::size_t>(output.elements), all);
      std::vector<float> sampled;
      if (!reference.positions.empty()) {
        // Sampled: every element must still be finite (an element no thread wrote is the poison).
        const auto bad = std::find_if(all.begin(), all.end(), [](float x) { return !std::isfinite(x); });
        if (bad != all.end()) {
          const auto count = std::count_if(all.begin(), all.end(), [](float x) { return !std::isfinite(x); });
          Verification result;
          result.tolerance = tolerance;
          result.checked = static_cast<std::int64_t>(all.size());
          result.mismatches = count;
          result.first_mismatch = bad - all.begin();
          result.message = std::to_string(count) + " of " + std::to_string(all.size()) +
                           " elements not finite (unwritten or overflowed); first at " +
                           where(o, result.first_mismatch) + ": " + std::to_string(*bad);
          return result;
        }
        for (std::int64_t p : reference.positions) sampled.push_back(all[static_cast<std::size_t>(p)]);
      }
      const std::vector<float>& checked = reference.positions.empty() ? all : sampled;
      Verification check = compare_with_reference(checked, reference.values, tolerance, reference.scale);
      if (!check.passed && check.first_mismatch >= 0) {
        const auto i = static_cast<std::size_t>(check.first_mismatch);
        const std::int64_t flat = reference.positions.empty() ? check.first_mismatch : reference.positions[i];
        const double bound = tolerance.abs + tolerance.rel * std::fabs(reference.values[i]) +
                             (reference.scale.empty() ? 0.0 : tolerance.scaled * reference.scale[i]);
        char line[320];
        std::snprintf(line, sizeof line, "%lld of %lld%s elements outside tolerance; first at %s: got %.8g, expected %.8g (|err| %.3g > bound %.3g)",
                      static_cast<long long>(check.mismatches), static_cast<long long>(check.checked),
                      reference.positions.empty() ? "" : " sampled", where(o, flat).c_str(), static_cast<double>(checked[i]),
                      reference.values[i], std::fabs(checked[i] - reference.values[i]), bound);
        check.message = line;
        check.first_mismatch = flat;
      }
      if (!check.passed) return check;
      if (reference.positions.size() > 0) {
        check.message = "ok: " + std::to_string(check.checked) + " of " + std::to_string(all.size()) +
                        " elements (sampled; all finite)" + check.message.substr(check.message.find(','));
      }
      total.checked += check.checked;
      total.max_abs_error = std::max(total.max_abs_error, check.max_abs_error);
      total.rel_l2_error = std::max(total.rel_l2_error, check.rel_l2_error);
      total.message = outputs_.size() == 1 ? check.message : total.message;
    }
    if (outputs_.size() > 1) {
      char line[160];
      std::snprintf(line, sizeof line, "ok: %zu outputs, %lld elements, max |err| %.3g, rel L2 err %.3g", outputs_.size(),
                    static_cast<long long>(total.checked), total.max_abs_error, total.rel_l2_error);
      total.message = line;
    }
    return total;
  }

  const DefinedOp& op_;
  Problem problem_;
  std::vector<InputTensor> inputs_;
  std::vector<GuardedOutput> outputs_;
  std::vector<OutputReference> references_[2];
  std::shared_ptr<const void> args_;
  std::vector<CallFn> calls_;
  std::size_t loaded_set_ = 0;                ///< the input set on the device
  std::vector<HostStagingBuffer> staged_;      ///< the outputs with their guards, as last downloaded
  std::vector<std::vector<float>> decoded_;  ///< the outputs as floats, as last compared
  std::vector<bool> called_;  ///< per variant: called on this workload yet (its next call is not its first)
};

}  // namespace

DefinedOp::DefinedOp(detail::AnyOpDefinition definition, std::string source) : definition_(std::move(definition)) {
  const auto missing = [&](const char* what) {
    throw std::invalid_argument("op '" + definition_.name + "' defines no " + what);
  };
  if (definition_.name.empty()) throw std::invalid_argument("an op definition has no name");
  check_name("op name", definition_.name);
  if (!definition_.family.empty()) check_name("op '" + definition_.name + "': family name", definition_.family);
  if (!definition_.traffic) missing("traffic");
  if (!definition_.inputs) missing("inputs");
  if (!definition_.outputs) missing("outputs");
  if (!definition_.reference) missing("reference");
  if (!definition_.tolerance) missing("tolerance");
  if (!definition_.make_args) missing("make_args");
  if (definition_.dtypes.empty()) missing("dtypes");
  std::vector<detail::AnyVariant> variants = std::move(definition_.variants);
  definition_.variants.clear();
  for (detail::AnyVariant& v : variants) add_variant(std::move(v), definition_.args_kind, source);
}

void DefinedOp::add_variant(detail::AnyVariant variant, const std::string& args_kind, std::string source) {
  if (args_kind != definition_.args_kind) {
    throw std::invalid_argument("variant '" + variant.name + "' is written for " + args_kind + " arguments; op '" +
                                definition_.name + "' takes " + definition_.args_kind);
  }
  if (variant.name.empty()) throw std::invalid_argument("a variant of op '" + definition_.name + "' has no name");
  check_name("op '" + definition_.name + "': variant name", variant.name);
  for (std::size_t i = 0; i < definition_.variants.size(); ++i) {
    if (definition_.variants[i].name == variant.name) {
      throw std::invalid_argument("op '" + definition_.name + "' already has a variant '" + variant.name + "' (from " +
                                  sources_[i] + ")");
    }
  }
  if (!variant.bind) {
    throw std::invalid_argument("variant '" + variant.name + "' of op '" + definition_.name +
                                "' declares neither launch nor prepare");
  }
  definition_.variants.push_back(std::move(variant));
  sources_.push_back(std::move(source));
}

std::vector<Shape> DefinedOp::shapes_for(const SizeClass& size_class) const {
  return definition_.shapes_for ? definition_.shapes_for(size_class.name, size_class.shapes) : size_class.shapes;
}

std::vector<VariantInfo> DefinedOp::variants() const {
  std::vector<VariantInfo> infos;
  for (std::size_t i = 0; i < definition_.variants.size(); ++i) {
    const detail::AnyVariant& v = definition_.variants[i];
    VariantInfo info{v.name, v.role, v.description, v.kernels_per_call, v.dtypes};
    info.source = sources_[i];
    infos.push_back(std::move(info));
  }
  return infos;
}

std::string DefinedOp::reject_shape(const Shape& shape) const {
  if (shape.empty()) return "shape is empty";
  return definition_.reject_shape ? definition_.reject_shape(shape) : std::string();
}

double DefinedOp::device_bytes(const Problem& problem) const {
  double bytes = 0;
  const DType storage = storage_dtype(problem.dtype);
  for (const InputSpec& input : definition_.inputs(problem)) {
    bytes += static_cast<double>(input.elements) * static_cast<double>(dtype_size(input.dtype.value_or(storage)));
  }
  for (const OutputSpec& output : definition_.outputs(problem)) {
    bytes += static_cast<double>(output.elements) * static_cast<double>(dtype_size(output.dtype.value_or(storage))) +
             2 * kOutputGuardBytes + kAlignment;
  }
  return bytes + (definition_.scratch_bytes ? definition_.scratch_bytes(problem) : 0.0);
}

double DefinedOp::host_bytes(const Problem& problem) const {
  // Two input sets, each as encoded bytes and as float values; per output, the two sets' fp64
  // references (values, and a scale where the tolerance scales) and one download of the output.
  double bytes = 0;
  const DType storage = storage_dtype(problem.dtype);
  for (const InputSpec& input : definition_.inputs(problem)) {
    const double size = static_cast<double>(dtype_size(input.dtype.value_or(storage)));
    bytes += 2.0 * static_cast<double>(input.elements) * (size + sizeof(float));
  }
  for (const OutputSpec& output : definition_.outputs(problem)) {
    const double size = static_cast<double>(dtype_size(output.dtype.value_or(storage)));
    bytes += static_cast<double>(output.elements) * (2.0 * 2.0 * sizeof(double) + size);
  }
  return bytes;
}

std::unique_ptr<Workload> DefinedOp::prepare(const Problem& problem, std::uint64_t seed) const {
  return std::make_unique<DefinedWorkload>(*this, problem, seed);
}

}  // namespace kbench
